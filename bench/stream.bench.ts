// Live stream figures, side by side: a REAL `statewire serve` process on loopback running the demo
// graph (workspace/graphs/grid_navigator.json) against a bare socket.io server (bench/stream.bareServer.ts,
// its own process) pushing the same recorded events, one socket.io message per event.
// The client is a socket.io-client in this process in both cases; ours subscribes the way the app
// does (`batch: true`: packed `events` batches, unpacked and counted per event).
//  - live.events_per_s: events received per second, first event → last, demo at step_delay_ms 0
//    (STEPS steps) vs the bare server pushing that run's recorded events as fast as it can.
//  - live.latency_p50 / p99: ms from the step's end to the client receiving its nav_step, at
//    step_delay_ms PACED_DELAY_MS. "Step's end" is the nav_step's own `ts` (stamped by the server
//    when the engine emits nav_step, the step boundary; ms resolution, so both sides read up to 1 ms
//    late); the bare server stamps `ts` right before it pushes the step. One machine, one wall clock:
//    receive time = performance.timeOrigin + performance.now().
// Standalone: `npx tsx bench/stream.bench.ts`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import type { EventEnvelope } from '../src/domain/protocol/protocol.ts';
import { unpackEvents } from '../src/domain/protocol/packedEvents.ts';
import { EVENT_TYPES } from '../src/domain/protocol/protocol.ts';
import {
  api,
  demoGraph,
  REPO,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../src/server/test/serverProcess.testutil.ts';
import { figure, measureAB, percentile, type BenchResult } from './figures.ts';

const STEPS = 2000;
const PACED_STEPS = 200;
const PACED_DELAY_MS = 20;
/** The first paced steps are left out (JIT warm-up, socket setup). */
const WARMUP_STEPS = 10;
const REPS = 3;

const wallNow = () => performance.timeOrigin + performance.now();

async function connect(url: string): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((res, rej) => {
    socket.once('connect', () => res());
    socket.once('connect_error', rej);
  });
  return socket;
}

/** Calls `fn` for every run event a socket receives, per-event messages and `events` batches alike. */
function onEvents(socket: Socket, fn: (e: EventEnvelope) => void): void {
  for (const type of EVENT_TYPES) socket.on(type, (e: EventEnvelope) => fn(e));
  socket.on('events', (batch: unknown, ack?: () => void) => {
    const r = unpackEvents(batch);
    if (!r.ok) throw new Error(r.error);
    for (const e of r.events) fn(e);
    ack?.();
  });
}

interface Trial {
  received: number;
  first: number;
  last: number;
  navLatencies: number[];
}

/** Receives one run (ours: until its run_result; bare: until push_done), timing every event. */
function collect(
  socket: Socket,
  runId: () => string | undefined,
  endType: string,
): {
  trial: Trial;
  ended: () => boolean;
} {
  const trial: Trial = { received: 0, first: 0, last: 0, navLatencies: [] };
  let ended = false;
  onEvents(socket, (e) => {
    const id = runId();
    if (id !== undefined && e.runId !== id) return;
    const now = wallNow();
    if (trial.received === 0) trial.first = now;
    trial.received++;
    trial.last = now;
    if (e.type === 'nav_step') trial.navLatencies.push(now - Date.parse(e.ts));
    if (e.type === endType) ended = true;
  });
  if (endType === 'push_done') socket.on('push_done', () => (ended = true));
  return { trial, ended: () => ended };
}

async function oursRun(
  server: ServerProcess,
  steps: number,
  delayMs: number,
): Promise<Trial & { runId: string }> {
  const socket = await connect(server.url);
  try {
    const runIdSet = `bench_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    const { trial, ended } = collect(socket, () => runIdSet, 'run_result');
    // Every run, live (the run does not exist yet), in batches as the app asks.
    await socket.timeout(5000).emitWithAck('subscribe', { batch: true });
    const start = await api(server.url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(steps),
      execution_id: runIdSet,
      step_delay_ms: delayMs,
    });
    if (start.status !== 200) throw new Error(`run start failed: ${JSON.stringify(start.body)}`);
    await waitFor(ended, 300_000, 'run_result');
    const row = (await api(server.url, 'GET', `/api/runs/${runIdSet}`)).body as { last_seq: number };
    if (trial.received !== row.last_seq)
      console.warn(`stream bench: received ${trial.received} of ${row.last_seq} events (gap notices?)`);
    return { ...trial, runId: runIdSet };
  } finally {
    socket.close();
  }
}

async function recordEvents(url: string, runId: string): Promise<EventEnvelope[]> {
  const out: EventEnvelope[] = [];
  let after = 0;
  for (;;) {
    const page = (await api(url, 'GET', `/api/runs/${runId}/events?after=${after}&limit=5000`)).body as {
      events: EventEnvelope[];
      next_after: number;
    };
    out.push(...page.events);
    if (page.events.length < 5000) return out;
    after = page.next_after;
  }
}

function startBare(eventsFile: string): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', join(REPO, 'bench/stream.bareServer.ts'), eventsFile],
    {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((res, rej) => {
    let out = '';
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /port (\d+)/.exec(out);
      if (m) res({ url: `http://127.0.0.1:${m[1]}`, proc });
    });
    proc.once('exit', (code) => rej(new Error(`bare server exited (${code}): ${out}`)));
  });
}

async function bareRun(url: string, mode: 'burst' | 'paced', steps: number): Promise<Trial> {
  const socket = await connect(url);
  try {
    const { trial, ended } = collect(socket, () => undefined, 'push_done');
    socket.emit('push', { mode, delayMs: PACED_DELAY_MS, steps });
    await waitFor(ended, 300_000, 'push_done');
    return trial;
  } finally {
    socket.close();
  }
}

/** CPU ms (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuMsOf(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/**
 * Waits until our server is idle (under 5 % of a core over 200 ms, at most 20 s): a finished run is
 * compacted in the server's idle time, and that work must not overlap the next measurement — the
 * bare server's as much as our next run's.
 */
async function quiesce(server: ServerProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const before = cpuMsOf(server.proc.pid);
    await new Promise((r) => setTimeout(r, 200));
    const after = cpuMsOf(server.proc.pid);
    if (before === undefined || after === undefined) return;
    if (after - before <= 10) return;
  }
}

const rate = (t: Trial) => t.received / ((t.last - t.first) / 1000);
const steady = (t: Trial) => t.navLatencies.slice(WARMUP_STEPS);

export async function run(): Promise<BenchResult> {
  const ws = tempWorkspace();
  const tmp = mkdtempSync(join(tmpdir(), 'statewire-stream-bench-'));
  const server = await startServer(ws.dir);
  let bare: { url: string; proc: ChildProcess } | undefined;
  try {
    // Warm-up run (JIT, SQLite pages), and the events the baseline replays.
    await oursRun(server, 200, 0);
    const rec = await oursRun(server, STEPS, 0);
    await quiesce(server);
    const recorded = await recordEvents(server.url, rec.runId);
    const eventsFile = join(tmp, 'events.json');
    writeFileSync(eventsFile, JSON.stringify(recorded));
    bare = await startBare(eventsFile);
    const bareUrl = bare.url;
    await bareRun(bareUrl, 'burst', 200); // warm-up

    // At saturation (step_delay_ms 0 / burst) the same runs also give the step-end → receive latency.
    const sat50 = { ours: [] as number[], baseline: [] as number[] };
    const sat99 = { ours: [] as number[], baseline: [] as number[] };
    const saturated = (side: 'ours' | 'baseline', t: Trial) => {
      sat50[side].push(percentile(steady(t), 50));
      sat99[side].push(percentile(steady(t), 99));
      return rate(t);
    };
    const throughput = await measureAB(
      REPS,
      async () => {
        const r = saturated('ours', await oursRun(server, STEPS, 0));
        await quiesce(server);
        return r;
      },
      async () => saturated('baseline', await bareRun(bareUrl, 'burst', STEPS)),
    );
    const p50 = { ours: [] as number[], baseline: [] as number[] };
    const p99 = { ours: [] as number[], baseline: [] as number[] };
    await measureAB(
      REPS,
      async () => {
        const l = steady(await oursRun(server, PACED_STEPS, PACED_DELAY_MS));
        await quiesce(server);
        p50.ours.push(percentile(l, 50));
        p99.ours.push(percentile(l, 99));
        return 0;
      },
      async () => {
        const l = steady(await bareRun(bareUrl, 'paced', PACED_STEPS));
        p50.baseline.push(percentile(l, 50));
        p99.baseline.push(percentile(l, 99));
        return 0;
      },
    );
    return {
      stream_steps: STEPS,
      stream_events_per_run: recorded.length,
      recorded_run_events_per_s: rate(rec),
      paced_steps: PACED_STEPS,
      paced_delay_ms: PACED_DELAY_MS,
      figures: [
        figure(
          'live.events_per_s',
          'events/s',
          { on: 'ratio', op: '>=', value: 1 },
          throughput.ours,
          throughput.baseline,
          `demo at step_delay_ms 0, ${STEPS} steps, one socket.io client subscribed with packed batches vs a bare socket.io server pushing the same recorded events one message each`,
        ),
        figure(
          'live.latency_p50',
          'ms',
          { on: 'ours', op: '<=', value: 5 },
          p50.ours,
          p50.baseline,
          `nav_step ts (engine step end) → client receive, step_delay_ms ${PACED_DELAY_MS}, ${PACED_STEPS} steps; baseline stamps then pushes at the same rate`,
        ),
        figure(
          'live.latency_p99',
          'ms',
          { on: 'ours', op: '<=', value: 20 },
          p99.ours,
          p99.baseline,
          `as live.latency_p50, 99th percentile`,
        ),
        figure(
          'live.latency_p50_saturated',
          'ms',
          { on: 'ours', op: '<=', value: 20 },
          sat50.ours,
          sat50.baseline,
          `nav_step ts → client receive during the live.events_per_s runs (step_delay_ms 0, ${STEPS} steps); the bare server stamps each nav_step right before it pushes its step`,
        ),
        figure(
          'live.latency_p99_saturated',
          'ms',
          { on: 'ours', op: '<=', value: 50 },
          sat99.ours,
          sat99.baseline,
          `as live.latency_p50_saturated, 99th percentile`,
        ),
      ],
    };
  } finally {
    bare?.proc.kill('SIGTERM');
    await server.stop();
    ws.cleanup();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await run();
  console.log(JSON.stringify(r, null, 2));
}
