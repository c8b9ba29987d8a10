// `statewire test [FILE|DIR …] [--junit FILE] [--plugins DIR] [--service NAME=URL]… [--services FILE]`:
// graph tests for CI. Each `*.test.json` names a graph, runs it headless in-process like `statewire
// run` (built-ins + workspace plugins + node services + the offline LLM provider) and checks
// expectations over the per-step state (nav_step snapshots and what each step cleared). TAP 13 on
// stdout; `--junit FILE` also writes JUnit XML. A test whose graph needs a node service that is not
// configured or not up fails with that reason (as a run that ended in error); the others still run.
// Exit 0 all pass, 1 some expectation failed, 2 a test file, its graph or the arguments are invalid.
import { readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { evaluate, stepsNeeded, StepRecorder, type RunOutcome } from '../../domain/graphtest/evaluate.ts';
import {
  GRAPH_TEST_SUFFIX,
  parseGraphTestText,
  type GraphTest,
} from '../../domain/graphtest/graphTest.schema.ts';
import { BuildError } from '../../engine/errors.ts';
import { loadRegistry, type LoadedRegistry } from '../plugins/loadRegistry.ts';
import { defaultPluginDir, createHeadlessRun, driveSteps, runBlockers } from './headless.ts';
import { allNodes } from '../services/serviceEvents.ts';
import { CliServicesPool, parseExecutorPort, serviceProblems } from './cliServices.ts';
import { issueLine, readGraphFile, readRegularFile } from './readGraphFile.ts';
import { caseCount, junitXml, tapLines, tapSummary, type FileOutcome } from './testReport.ts';
import { parseCliArgs } from './cliArgs.ts';

export const TEST_USAGE = `usage: statewire test [FILE|DIR …] [--junit FILE] [--plugins DIR] [--service NAME=URL]… [--services FILE] [--executor-port N]
  Runs graph tests (*.test.json): each names a graph (relative to the test file), runs it headless
  with the offline LLM provider for "steps" root steps (default: to the end) and checks its
  expectations on the state of given steps. With no FILE or DIR: every *.test.json under
  ./workspace/graphs/ (recursively). Prints TAP version 13.
  --junit FILE          also write a JUnit XML report to FILE
  --plugins DIR         node-type plugins (default: the nodes/ folder next to the graph's folder)
  --service NAME=URL    a running node service (repeatable)
  --services FILE       a services file instead of the workspace's services.json
  --executor-port N     where services call back (for a service started by hand with that URL)
  A test whose graph needs a node service that is not configured or not up fails with that reason.
  exit 0 = all pass, 1 = some expectation failed, 2 = invalid test file, graph or arguments`;

const DEFAULT_DIR = join('workspace', 'graphs');

const out = (l: string) => void process.stdout.write(`${l}\n`);
const err = (l: string) => void process.stderr.write(`${l}\n`);
const toPosix = (p: string) => p.split(sep).join('/');

/** Every `*.test.json` below `dir` (dot folders and node_modules skipped), sorted. */
function findTests(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    const entries = readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const abs = join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.isFile() && e.name.endsWith(GRAPH_TEST_SUFFIX)) found.push(abs);
    }
  };
  walk(dir);
  return found;
}

/** Test files named by the arguments: files as given, folders searched. A string is an error. */
function collect(targets: string[]): string[] | string {
  const files: string[] = [];
  for (const t of targets) {
    const st = statSync(t, { throwIfNoEntry: false });
    if (!st) return `${t}: no such file or folder`;
    if (st.isDirectory()) {
      const inDir = findTests(t);
      if (inDir.length === 0) return `${t}: no *${GRAPH_TEST_SUFFIX} files in this folder`;
      files.push(...inDir);
    } else files.push(t);
  }
  return [...new Set(files.map((f) => resolve(f)))];
}

/** Loads a test file, its graph and a registry, runs the graph and evaluates the expectations. */
async function runTestFile(
  abs: string,
  registries: Map<string, Promise<LoadedRegistry | string>>,
  pluginsOpt: string | undefined,
  services: CliServicesPool,
): Promise<FileOutcome> {
  const started = Date.now();
  const file = toPosix(relative(process.cwd(), abs)) || abs;
  const outcome: FileOutcome = { file, results: [], errors: [], durationMs: 0 };
  const finish = () => ({ ...outcome, durationMs: Date.now() - started });
  let text: string;
  try {
    text = await readRegularFile(abs);
  } catch (e) {
    outcome.errors.push(`${file}: $: cannot read test file: ${(e as Error).message}`);
    return finish();
  }
  const parsed = parseGraphTestText(text);
  if (!parsed.ok) {
    outcome.errors.push(...parsed.errors.map((i) => `${file}: ${i.path}: ${i.message}`));
    return finish();
  }
  const test: GraphTest = parsed.test;
  if (test.name !== undefined) outcome.name = test.name;
  const graphAbs = resolve(dirname(abs), test.graph);
  const graphFile = toPosix(relative(process.cwd(), graphAbs)) || graphAbs;
  outcome.graph = graphFile;
  const loaded = await readGraphFile(graphAbs);
  if (!loaded.ok) {
    outcome.errors.push(`${file}: $.graph: ${loaded.line.replace(graphAbs, graphFile)}`);
    return finish();
  }
  const pluginDir = pluginsOpt ?? defaultPluginDir(graphAbs);
  let reg = registries.get(pluginDir);
  if (!reg) registries.set(pluginDir, (reg = loadRegistry(pluginDir, pluginsOpt !== undefined)));
  const registry = await reg;
  if (typeof registry === 'string') {
    outcome.errors.push(`${file}: ${registry}`);
    return finish();
  }
  // Node services: started once for all tests of a workspace; a missing one fails this test only.
  let withServices;
  try {
    withServices = await services.for(loaded.graph, graphAbs, registry.registry);
  } catch (e) {
    outcome.errors.push(`${file}: ${(e as Error).message}`);
    return finish();
  }
  await withServices?.services.waitForStarting(allNodes(loaded.graph), (names) =>
    err(`waiting for service ${names.join(', ')} (starting)`),
  );
  const missing = serviceProblems(loaded.graph, registry.registry, withServices);
  if (missing) {
    outcome.run = { status: 'error', steps: 0, error: missing };
    outcome.results = evaluate(test, [], outcome.run);
    return finish();
  }
  const blockers = runBlockers(loaded.graph, loaded.warnings, registry.registry);
  if (blockers.length > 0) {
    outcome.errors.push(...blockers.map((i) => `${file}: $.graph: ${issueLine(graphFile, i)}`));
    return finish();
  }
  const recorder = new StepRecorder(stepsNeeded(test));
  let run;
  try {
    run = createHeadlessRun(
      loaded.graph,
      registry.registry,
      (e) => recorder.add(e),
      undefined,
      withServices?.services,
    );
  } catch (e) {
    const code = e instanceof BuildError ? 'build-failed' : 'internal-error';
    outcome.errors.push(`${file}: $.graph: ${graphFile}: error ${code} $ ${(e as Error).message}`);
    return finish();
  }
  let runOutcome: RunOutcome;
  try {
    await driveSteps(run, test.steps);
    const result = run.result();
    runOutcome = {
      status: result.status,
      steps: result.steps,
      ...(result.error ? { error: result.error } : {}),
    };
  } catch (e) {
    runOutcome = { status: 'error', steps: run.step, error: `engine failure: ${(e as Error).message}` };
  }
  outcome.run = runOutcome;
  outcome.results = evaluate(test, recorder.steps(), runOutcome);
  return finish();
}

export async function testCommand(argv: string[]): Promise<number> {
  let values: {
    junit?: string;
    plugins?: string;
    help?: boolean;
    service?: string[];
    services?: string;
    'executor-port'?: string;
  };
  let targets: string[];
  try {
    ({ values, positionals: targets } = parseCliArgs({
      args: argv,
      allowPositionals: true,
      options: {
        junit: { type: 'string' },
        plugins: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        service: { type: 'string', multiple: true },
        services: { type: 'string' },
        'executor-port': { type: 'string' },
      },
    }));
  } catch (e) {
    err(`statewire test: ${(e as Error).message}\n${TEST_USAGE}`);
    return 2;
  }
  const port = values['executor-port'] === undefined ? undefined : parseExecutorPort(values['executor-port']);
  if (typeof port === 'string') {
    err(`statewire test: ${port}\n${TEST_USAGE}`);
    return 2;
  }
  if (values.help) {
    out(TEST_USAGE);
    return 0;
  }
  const files = collect(targets.length > 0 ? targets : [DEFAULT_DIR]);
  if (typeof files === 'string') {
    err(`statewire test: ${files}`);
    return 2;
  }
  const registries = new Map<string, Promise<LoadedRegistry | string>>();
  const services = new CliServicesPool(
    { flags: values.service ?? [], file: values.services, executorPort: port },
    err,
  );
  const outcomes: FileOutcome[] = [];
  let next = 1;
  out('TAP version 13');
  try {
    for (const abs of files) {
      const o = await runTestFile(abs, registries, values.plugins, services);
      for (const e of o.errors) err(e);
      for (const l of tapLines(o, next)) out(l);
      next += caseCount(o);
      outcomes.push(o);
    }
  } finally {
    await services.close();
  }
  for (const l of tapSummary(outcomes)) out(l);
  // Plugins that failed to load are reported once, after the run (the other plugins still ran).
  for (const r of registries.values()) {
    const loaded = await r;
    if (typeof loaded !== 'string') for (const f of loaded.failures) err(`warning: ${f}`);
  }
  if (values.junit !== undefined) {
    try {
      await writeFile(values.junit, junitXml(outcomes));
    } catch (e) {
      err(`statewire test: --junit ${values.junit}: ${(e as Error).message}`);
      return 2;
    }
  }
  if (outcomes.some((o) => o.errors.length > 0)) return 2;
  return outcomes.some((o) => o.results.some((r) => !r.ok)) ? 1 : 0;
}
