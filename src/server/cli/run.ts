// `statewire run FILE [--steps N] [--json] [--plugins DIR] [--llm offline|env] [--service NAME=URL]…
// [--services FILE] [--executor-port N]`: runs a graph headless (node services: cli/cliServices.ts).
// --json prints one event per line ({type, runId, seq, ts, data}, seq strictly increasing, full slot
// values) and ends with one `run_result` (outputs + final container values); otherwise a compact
// summary per root step. Exit 0 completed (or N steps done), 1 the run ended in error, 2 the graph
// is invalid (issues printed as `FILE: severity code path message`).
import { parseBreakExpression, type Breakpoint, type BreakpointHit } from '../../domain/debug/breakpoints.ts';
import { parseGraphText } from '../../domain/graph/graph.parse.ts';
import type { Issue } from '../../domain/validate/issues.ts';
import type { EngineEvent } from '../../domain/protocol/protocol.ts';
import { createRun, type EngineRunExt } from '../../engine/createRun.ts';
import { BuildError } from '../../engine/errors.ts';
import { offlineProvider, providerFromEnv } from '../../engine/llm.providers.ts';
import type { NodeRegistry } from '../../engine/registry.ts';
import { loadRegistry } from '../plugins/loadRegistry.ts';
import { defaultPluginDir, runBlockers } from './headless.ts';
import { readRegularFile } from './readGraphFile.ts';
import { allNodes, withServiceContainers, wrapSinkForServices } from '../services/serviceEvents.ts';
import type { ServiceManager } from '../services/serviceManager.ts';
import { RunWriter } from '../runs/runWriter.ts';
import { cliServicesConfig, parseExecutorPort, startCliServices } from './cliServices.ts';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const defaultIo: CliIo = {
  out: (l) => void process.stdout.write(`${l}\n`),
  err: (l) => void process.stderr.write(`${l}\n`),
};

/** `statewire run --json | head`: when the reader goes away, end quietly instead of an EPIPE trace. */
function endQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

const USAGE =
  'usage: statewire run FILE [--steps N] [--json] [--break EXPR]... [--plugins DIR] [--llm offline|env] [--service NAME=URL]... [--services FILE] [--executor-port N]\n       statewire run FILE --server URL [--steps N] [--json] [--delay MS] [--token T]';

interface Args {
  file: string;
  steps?: number;
  json: boolean;
  plugins?: string;
  llm: 'offline' | 'env';
  services: string[];
  servicesFile?: string;
  executorPort?: number;
  breakpoints: Breakpoint[];
}

function parseArgs(argv: string[]): Args | string {
  const rest = [...argv];
  let file: string | undefined;
  const args: Partial<Args> = { json: false, llm: 'offline', services: [], breakpoints: [] };
  while (rest.length > 0) {
    const a = rest.shift()!;
    if (a === '--help' || a === '-h') return 'help';
    if (a === '--json') args.json = true;
    else if (a === '--steps') {
      const n = Number(rest.shift());
      if (!Number.isInteger(n) || n < 1) return '--steps needs a positive integer';
      args.steps = n;
    } else if (a === '--plugins') {
      const d = rest.shift();
      if (!d) return '--plugins needs a folder';
      args.plugins = d;
    } else if (a === '--service') {
      const v = rest.shift();
      if (!v) return '--service needs NAME=URL';
      args.services!.push(v);
    } else if (a === '--services') {
      const v = rest.shift();
      if (!v) return '--services needs a file';
      args.servicesFile = v;
    } else if (a === '--executor-port') {
      const p = parseExecutorPort(rest.shift());
      if (typeof p === 'string') return p;
      args.executorPort = p;
    } else if (a === '--break') {
      const v = rest.shift();
      if (!v) return "--break needs an expression, e.g. 'graph_state.step_count>=10'";
      const bp = parseBreakExpression(v, `cli${args.breakpoints!.length + 1}`);
      if ('error' in bp) return `--break: ${bp.error}`;
      args.breakpoints!.push(bp);
    } else if (a === '--llm') {
      const v = rest.shift();
      if (v !== 'offline' && v !== 'env') return '--llm must be offline or env';
      args.llm = v;
    } else if (a.startsWith('--')) return `unknown option ${a}`;
    else if (file === undefined) file = a;
    else return `unexpected argument ${a}`;
  }
  if (!file) return 'missing FILE';
  return { ...args, file } as Args;
}

export const formatIssue = (file: string, i: Issue) =>
  `${file}: ${i.severity} ${i.code} ${i.path} ${i.message}`;

export async function runCommand(argv: string[], io: CliIo = defaultIo): Promise<number> {
  if (io === defaultIo) endQuietlyOnClosedPipe();
  // --server URL: the run happens on a running server (cli/runRemote.ts).
  if (argv.includes('--server')) return (await import('./runRemote.ts')).runOnServer(argv, io);
  const args = parseArgs(argv);
  if (args === 'help') {
    io.out(
      `${USAGE}\n\nRuns FILE to completion (or N root steps) with the offline LLM provider by default.\n--json prints every event as one JSON line {type, runId, seq, ts, data}; the last line is the run_result event {status, steps, outputs, containers, keyed, error?, stepLimit?}.\n--break EXPR (repeatable) stops the run when a slot's value meets a condition — 'graph_state.step_count>=10', 'mem.trail length> 3', or a bare 'container.slot' for any write — and prints the state there (with --json: a breakpoint_hit event, then run_result).\nPlugins load from --plugins DIR, else from the nodes/ folder next to the graph's folder.\nExit codes: 0 completed, 1 the run ended in error, 2 invalid graph or arguments.`,
    );
    return 0;
  }
  if (typeof args === 'string') {
    io.err(`${args}\n${USAGE}`);
    return 2;
  }
  let text: string;
  try {
    text = await readRegularFile(args.file);
  } catch (e) {
    io.err(`${args.file}: error read-failed $ ${(e as Error).message}`);
    return 2;
  }
  // Built-ins + plugins, as `statewire test` loads them (an explicit --plugins folder must exist).
  const loaded = await loadRegistry(args.plugins ?? defaultPluginDir(args.file), args.plugins !== undefined);
  if (typeof loaded === 'string') {
    io.err(loaded);
    return 2;
  }
  const { registry } = loaded;
  for (const f of loaded.failures) io.err(f);
  // Node services: the workspace's services.json, --services FILE, --service flags (cliServices.ts).
  const opts = { flags: args.services, file: args.servicesFile, executorPort: args.executorPort };
  const servicesCfg = cliServicesConfig(args.file, opts);
  for (const e of servicesCfg.errors) io.err(`services ${e.path}: ${e.message}`);
  let started;
  try {
    started = await startCliServices(registry, servicesCfg, opts, io.err);
  } catch (e) {
    io.err(`statewire run: ${(e as Error).message}`);
    return 2;
  }
  if (started.executorUrl && args.executorPort !== undefined)
    io.err(`executor ${started.executorUrl} (AGENTCANVAS_EXECUTOR_URL for services started by hand)`);
  try {
    return await runWithServices(args, text, registry, started.services, io);
  } finally {
    await started.close();
  }
}

async function runWithServices(
  args: Args,
  text: string,
  registry: NodeRegistry,
  services: ServiceManager,
  io: CliIo,
): Promise<number> {
  const parsed = parseGraphText(text, args.file);
  if (!parsed.ok) {
    for (const i of parsed.errors) io.err(formatIssue(args.file, i));
    return 2;
  }
  // A service the graph needs may still be starting (a slow model load): wait for it, saying so.
  await services.waitForStarting(allNodes(parsed.graph), (names) =>
    io.err(`waiting for service ${names.join(', ')} (starting)`),
  );
  for (const s of services.report().services) {
    if (s.state !== 'up') io.err(`service ${s.name}: ${s.state}${s.error ? ` (${s.error})` : ''}`);
    for (const i of s.issues) io.err(`warning: ${i.path}: ${i.message}`);
  }
  // Load-time errors (e.g. a slot declared twice in one container) count like validation errors.
  const errors = runBlockers(parsed.graph, parsed.warnings, registry);
  if (errors.length > 0) {
    for (const i of errors) io.err(formatIssue(args.file, i));
    return 2;
  }
  const missing = services.unavailable(allNodes(parsed.graph));
  if (missing) {
    io.err(`${args.file}: error service-unavailable $ ${missing}`);
    return 2;
  }
  const runId = `cli_${Date.now().toString(36)}`;
  const summary = new StepSummary(io);
  // The run writer stamps as for any run; there is no log here, so each event is published (printed)
  // as soon as it is stamped.
  const writer = new RunWriter(runId, Date.now, 0, (events) => {
    for (const e of events) io.out(JSON.stringify(e));
  });
  const sink = (e: EngineEvent) => {
    if (args.json) {
      writer.stamp(e.type, e.data);
      writer.commit();
    } else summary.add(e);
  };
  // Arrays from node services become summaries (with pictures) on the stream, run_result included.
  const wired = wrapSinkForServices(sink, parsed.graph, services, runId, (m) => io.err(`warning: ${m}`));
  // --break: the first hit stops the run where it is (inside its step, or at the step's end).
  let hit: BreakpointHit | undefined;
  const onBreak = (h: BreakpointHit) => {
    if (hit) return;
    hit = h;
    run.stop();
    if (args.json) return; // the breakpoint_hit event is on the stream; run_result follows with the state
    const by = h.node_id && h.kind !== 'node' ? `, written by ${h.node_id}` : '';
    io.out(`breakpoint hit: ${h.description} at step ${h.step}${by}`);
    const state = run.stateAt();
    const values: Record<string, Record<string, unknown>> = {};
    for (const [cid, c] of Object.entries(state?.containers ?? {}))
      values[cid] = Object.fromEntries(Object.entries(c.states).map(([k, v]) => [k, v.value]));
    io.out(
      JSON.stringify({ step: h.step, containers: values, nodeStates: state?.nodeStates ?? {} }, null, 2),
    );
  };
  let run: EngineRunExt;
  try {
    const llm = args.llm === 'env' ? providerFromEnv(process.env) : offlineProvider;
    if (!llm) {
      io.err('--llm env needs STATEWIRE_LLM_BASE_URL and STATEWIRE_LLM_MODEL');
      return 2;
    }
    run = createRun(
      parsed.graph,
      {
        runId,
        now: Date.now,
        registry,
        llm,
        ...(args.breakpoints.length
          ? { breakpoints: { list: () => args.breakpoints, pause: async (hit) => onBreak(hit) } }
          : {}),
      },
      wired,
    );
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    io.err(`${args.file}: error ${e instanceof BuildError ? 'build-failed' : 'internal-error'} $ ${msg}`);
    return 2;
  }
  if (!args.json) for (const w of run.warnings) io.err(`warning: ${w}`);
  let done = false;
  for (let i = 0; !done && (args.steps === undefined || i < args.steps) && !hit; i++) {
    const r = await run.stepOnce();
    done = r.done;
    if (r.breakpoint) onBreak(r.breakpoint);
  }
  if (!done) {
    run.stop();
    await run.stepOnce();
  }
  // The stream ends with the run's results (outputs, final container values) for scripts and CI.
  const result = run.result(!done && args.steps ? { stepLimit: args.steps } : {});
  wired({ type: 'run_result', data: withServiceContainers(result, services, runId) });
  if (!args.json) summary.end(run.status, run.step);
  return run.status === 'error' ? 1 : 0;
}

/** Human output: one line per root step, errors as they happen, a final line. */
export class StepSummary {
  private fires = 0;
  private writes = 0;
  private signals: string[] = [];
  private routes: string[] = [];

  constructor(private readonly io: CliIo) {}

  add(e: EngineEvent): void {
    if (e.type === 'exec_log') this.fires += 1;
    else if (e.type === 'state_written') this.writes += 1;
    else if (e.type === 'signal' && e.data.signal !== 'step_start' && e.data.signal !== 'step_end')
      this.signals.push(e.data.signal);
    else if (e.type === 'error_event') this.io.err(`error: ${e.data.message}`);
    else if (e.type === 'route') this.routes.push(`${e.data.node_id}→${e.data.edge_id}`);
    else if (e.type === 'nav_step') {
      const d = e.data;
      const slots = Object.entries(d.containers)
        .flatMap(([cid, c]) =>
          Object.entries(c.states).map(([s, v]) => `${cid}.${s}=${v.preview ?? JSON.stringify(v.value)}`),
        )
        .join('  ');
      const sig = this.signals.length ? ` | signals ${this.signals.join(',')}` : '';
      // Routing (docs/routing.md): the edges taken and the features at the end of the step.
      const features = Object.entries(d.features ?? {}).map(([k, v]) => `${k}=${v ?? 'unset'}`);
      const routing =
        (this.routes.length ? ` | routes ${this.routes.join(',')}` : '') +
        (features.length ? ` | ${features.join(' ')}` : '');
      this.io.out(
        `step ${d.step} | fires ${this.fires} | writes ${this.writes}${sig}${routing}${slots ? ` | ${slots.slice(0, 400)}` : ''}`,
      );
      this.fires = 0;
      this.writes = 0;
      this.signals = [];
      this.routes = [];
    }
  }

  end(status: string, step: number): void {
    this.io.out(`run ${status} after ${step} step${step === 1 ? '' : 's'}`);
  }
}
