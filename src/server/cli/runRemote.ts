// `statewire run FILE --server URL [--steps N] [--json] [--delay MS] [--token T]`: the run happens
// on a running `statewire serve`, so it lands in that server's history like any editor run (live
// in every open editor, restorable, forkable, exportable). The CLI posts the graph to
// POST /api/navigate/run and follows the run's log through GET /api/runs/{id}/events, paged by seq
// (nothing missed, nothing twice, no socket needed), printing what `statewire run` prints locally.
// With --steps N it starts the run paused and steps it exactly N times, then stops it.
// Exit codes as for a local run: 0 completed (or N steps), 1 the run ended in error (or was
// replaced by another start), 2 invalid graph or arguments, or the server cannot be reached.
import type { EngineEvent } from '../../domain/protocol/protocol.ts';
import type { Issue } from '../../domain/validate/issues.ts';
import { issueLine, readGraphFile } from './readGraphFile.ts';
import { StepSummary, type CliIo } from './run.ts';

const USAGE = 'usage: statewire run FILE --server URL [--steps N] [--json] [--delay MS] [--token T]';
const POLL_MS = 100;
const PAGE = 1000;

interface RemoteArgs {
  file: string;
  server: string;
  steps?: number;
  json: boolean;
  delayMs: number;
  token?: string;
}

function parseRemoteArgs(argv: string[]): RemoteArgs | string {
  const rest = [...argv];
  let file: string | undefined;
  const a: Partial<RemoteArgs> = { json: false, delayMs: 0, token: process.env.STATEWIRE_TOKEN };
  while (rest.length > 0) {
    const x = rest.shift()!;
    if (x === '--json') a.json = true;
    else if (x === '--server') {
      const v = rest.shift();
      if (!v || !/^https?:\/\//.test(v)) return '--server needs a URL, e.g. http://127.0.0.1:5177';
      a.server = v.replace(/\/+$/, '');
    } else if (x === '--steps') {
      const n = Number(rest.shift());
      if (!Number.isInteger(n) || n < 1) return '--steps needs a positive integer';
      a.steps = n;
    } else if (x === '--delay') {
      const n = Number(rest.shift());
      if (!Number.isInteger(n) || n < 0 || n > 60_000) return '--delay needs milliseconds (0–60000)';
      a.delayMs = n;
    } else if (x === '--token') {
      const v = rest.shift();
      if (!v) return '--token needs a value';
      a.token = v;
    } else if (x.startsWith('--'))
      return `${x} is not available with --server (the server's plugins, services and LLM provider run the graph)`;
    else if (file === undefined) file = x;
    else return `unexpected argument ${x}`;
  }
  if (!file) return 'missing FILE';
  return { ...a, file } as RemoteArgs;
}

interface Envelope {
  type: string;
  runId: string;
  seq: number;
  ts: string;
  data: Record<string, unknown>;
}

class Server {
  constructor(
    private readonly base: string,
    private readonly token: string | undefined,
  ) {}

  async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const res = await fetch(this.base + path, {
      method,
      headers: {
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed };
  }
}

const errorOf = (body: unknown) =>
  (body as { error?: { code?: string; message?: string; path?: string; issues?: Issue[] } } | undefined)
    ?.error;

export async function runOnServer(argv: string[], io: CliIo): Promise<number> {
  const args = parseRemoteArgs(argv);
  if (typeof args === 'string') {
    io.err(`${args}\n${USAGE}`);
    return 2;
  }
  const loaded = await readGraphFile(args.file);
  if (!loaded.ok) {
    for (const i of loaded.errors) io.err(issueLine(args.file, i));
    return 2;
  }
  const text = loaded.text;
  const srv = new Server(args.server, args.token);
  let started: { status: number; body: unknown };
  try {
    started = await srv.call('POST', '/api/navigate/run', {
      loop_definition: JSON.parse(text) as unknown,
      step_delay_ms: args.delayMs,
      paused: args.steps !== undefined,
    });
  } catch (e) {
    io.err(`cannot reach ${args.server}: ${(e as Error).message}`);
    return 2;
  }
  if (started.status !== 200) {
    const err = errorOf(started.body);
    if (err?.issues?.length) for (const i of err.issues) io.err(issueLine(args.file, i));
    else
      io.err(
        `${args.file}: error ${err?.code ?? `http-${started.status}`} ${err?.path ?? '$'} ${err?.message ?? ''}`,
      );
    return started.status === 400 ? 2 : 1;
  }
  const runId = (started.body as { execution_id: string }).execution_id;
  io.err(`run ${runId} on ${args.server} (open ${args.server}/?run=${encodeURIComponent(runId)})`);
  const follow = followRun(srv, runId, args, io);
  const driving = args.steps !== undefined ? stepRun(srv, runId, args.steps, io) : Promise.resolve(0);
  const [result, drive] = await Promise.all([follow, driving]);
  if (drive !== 0) return drive;
  return result;
}

/** Steps the paused run exactly `steps` times (while it is still the server's current run), then stops it. */
async function stepRun(srv: Server, runId: string, steps: number, io: CliIo): Promise<number> {
  for (let i = 0; i < steps; i++) {
    const st = await srv.call('GET', '/api/navigate/run/status');
    const s = st.body as { execution_id: string | null; status: string };
    if (s.execution_id !== runId) {
      io.err(
        `run ${runId} was replaced on the server by ${s.execution_id ?? 'nothing'}; stopped following it`,
      );
      return 1;
    }
    if (s.status !== 'paused') return 0; // it ended by itself (done, error)
    const r = await srv.call('POST', '/api/navigate/run/step');
    if (r.status !== 200) {
      io.err(`step ${i + 1}: ${errorOf(r.body)?.message ?? `HTTP ${r.status}`}`);
      break;
    }
  }
  const st = (await srv.call('GET', '/api/navigate/run/status')).body as { execution_id: string | null };
  if (st.execution_id === runId) await srv.call('POST', '/api/navigate/run/stop');
  return 0;
}

/** Prints the run's log from seq 1 until its run_result; returns the exit code that result implies. */
async function followRun(srv: Server, runId: string, args: RemoteArgs, io: CliIo): Promise<number> {
  const summary = new StepSummary(io);
  let after = 0;
  let lastStep = 0;
  for (;;) {
    const r = await srv.call(
      'GET',
      `/api/runs/${encodeURIComponent(runId)}/events?after=${after}&limit=${PAGE}`,
    );
    if (r.status !== 200) {
      io.err(`events of ${runId}: ${errorOf(r.body)?.message ?? `HTTP ${r.status}`}`);
      return 1;
    }
    const page = r.body as { events: Envelope[] };
    for (const e of page.events) {
      after = e.seq;
      if (args.json) io.out(JSON.stringify(e));
      else summary.add(e as unknown as EngineEvent);
      if (e.type === 'nav_step') lastStep = Number(e.data.step ?? lastStep);
      if (e.type === 'run_result') {
        const status = String(e.data.status);
        if (!args.json) summary.end(status, Number(e.data.steps ?? lastStep));
        return status === 'error' ? 1 : 0;
      }
    }
    if (page.events.length < PAGE) await new Promise((res) => setTimeout(res, POLL_MS));
  }
}
