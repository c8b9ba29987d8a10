// Many viewers on a fast run, against a REAL `statewire serve` process (the demo graph
// workspace/graphs/grid_navigator.json at step_delay_ms 0):
//  - one long run, alternating phases A (no viewer) and B (200 socket.io-client viewers that connect
//    within ~1.5 s and subscribe from seq 0, batch mode), A B A B A, in the same run; per phase: run
//    speed (steps/s from the run's step counter) and /api/health latency p50/p95; `speed_ratio` is
//    each B against the mean of its two neighbouring A phases (the run slows as its database grows);
//  - every B viewer's stream is checked as it arrives: seqs strictly consecutive from 1 (no hole, no
//    duplicate), `gap` notices counted separately;
//  - delivery: a second, short run (400 steps) with 200 viewers subscribing from seq 0 right after its
//    start; every viewer must receive the whole log (1…last_seq) with no hole, duplicate or gap.
// The viewers live in this process; health and speed are sampled by a worker thread, so this
// process's busy event loop (200 clients decoding) does not inflate the server's latency figures.
// Standalone: `npx tsx bench/viewers.bench.ts` (~45 s).
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import { unpackEvents } from '../src/domain/protocol/packedEvents.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
} from '../src/server/test/serverProcess.testutil.ts';

const VIEWERS = 200;
const CONNECT_SPREAD_MS = 1500;
const A_MS = 3000;
/** How long the 200 viewers stay subscribed (after all have subscribed). */
const B_HOLD_MS = 5000;
const DELIVERY_STEPS = 400;
const WARM_UP_MS = 3000;

const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Samples GET /api/health back to back (one in flight) and the run's step every 200 ms.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
// The server's CPU time (user + system, ms) from /proc; NaN where there is no /proc.
const serverCpu = () => {
  try {
    const f = readFileSync('/proc/' + workerData.pid + '/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch { return NaN; }
};
const clock = () => performance.timeOrigin + performance.now();
let stop = false;
parentPort.on('message', (m) => { if (m === 'stop') stop = true; });
const health = [];
const steps = [];
(async () => {
  let nextStatus = 0;
  while (!stop) {
    const t0 = clock();
    const r = await fetch(workerData.base + '/api/health');
    await r.text();
    health.push([t0, clock() - t0]);
    if (t0 >= nextStatus) {
      nextStatus = t0 + 200;
      const s = await fetch(workerData.base + '/api/navigate/run/status');
      const body = await s.json();
      steps.push([clock(), body.step, body.execution_id, serverCpu()]);
    }
    await new Promise((res) => setTimeout(res, 20));
  }
  parentPort.postMessage({ health, steps });
})();
`;

interface Viewer {
  socket: Socket;
  subscribed: boolean;
  next: number;
  received: number;
  holes: number;
  dups: number;
  gaps: number;
  /** Why the connection ended early, if it did (the bench does not reconnect). */
  lost?: string;
}

function viewer(base: string): Viewer {
  const socket = io(base, { transports: ['websocket'], reconnection: false, forceNew: true });
  const v: Viewer = { socket, subscribed: false, next: 1, received: 0, holes: 0, dups: 0, gaps: 0 };
  socket.on('disconnect', (reason) => {
    if (reason !== 'io client disconnect') v.lost = reason;
  });
  socket.on('events', (batch: unknown, ack?: () => void) => {
    ack?.(); // replay batches ask for an ack: the server sends the next ones as the viewer takes them
    const r = unpackEvents(batch);
    if (!r.ok) throw new Error(r.error);
    for (const e of r.events) {
      if (e.type === 'gap') {
        v.gaps++;
        const d = e.data as { toSeq: number };
        v.next = Math.max(v.next, d.toSeq + 1);
        continue;
      }
      v.received++;
      if (e.seq < v.next) v.dups++;
      else if (e.seq > v.next) v.holes++;
      v.next = Math.max(v.next, e.seq + 1);
    }
  });
  return v;
}

/**
 * Connects VIEWERS clients spread over CONNECT_SPREAD_MS, then subscribes them all from seq 0. (Connect
 * first: the clients share this one process, and one busy decoding replay pages would delay the later
 * handshakes — a limit of this bench, not of the server.)
 */
async function connectViewers(
  base: string,
  runId: string,
): Promise<{ viewers: Viewer[]; connectMs: number; subscribeMs: number }> {
  const t0 = clock();
  const viewers: Viewer[] = [];
  const connected: Promise<boolean>[] = [];
  for (let i = 0; i < VIEWERS; i++) {
    const v = viewer(base);
    viewers.push(v);
    connected.push(
      new Promise<boolean>((res) => {
        v.socket.once('connect', () => res(true));
        v.socket.once('connect_error', () => res(false));
      }),
    );
    await sleep(CONNECT_SPREAD_MS / VIEWERS);
  }
  await Promise.race([Promise.all(connected), sleep(20_000)]);
  const connectMs = clock() - t0;
  const t1 = clock();
  await Promise.race([
    Promise.all(
      viewers.map(
        (v) =>
          new Promise<void>((res) => {
            if (!v.socket.connected) return res();
            v.socket.emit('subscribe', { runId, afterSeq: 0, batch: true }, (ack: { ok: boolean }) => {
              v.subscribed = ack.ok;
              res();
            });
          }),
      ),
    ),
    sleep(20_000),
  ]);
  return { viewers, connectMs, subscribeMs: clock() - t1 };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const median = (xs: number[]) => pct(xs, 50);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

interface Window {
  kind: 'A' | 'B';
  from: number;
  to: number;
}

/** [time, step, run id, server CPU ms] */
type Sample = [number, number, string, number];

/** Steps/s and server CPU ms per step inside a window (first and last samples that fall in it). */
function speed(samples: Sample[], runId: string, w: Window): { stepsPerS: number; cpuPerStep: number } {
  const inside = samples.filter(([t, , id]) => id === runId && t >= w.from && t <= w.to);
  const first = inside[0];
  const last = inside[inside.length - 1];
  if (!first || !last || last[0] <= first[0] || last[1] <= first[1])
    return { stepsPerS: NaN, cpuPerStep: NaN };
  return {
    stepsPerS: (last[1] - first[1]) / ((last[0] - first[0]) / 1000),
    cpuPerStep: (last[3] - first[3]) / (last[1] - first[1]),
  };
}

export async function run(): Promise<Record<string, number | string>> {
  const ws = tempWorkspace();
  const server = await startServer(ws.dir);
  const base = server.url;
  const probe = new Worker(PROBE, { eval: true, workerData: { base, pid: server.proc.pid } });
  const probed = new Promise<{ health: Array<[number, number]>; steps: Sample[] }>((res) =>
    probe.once('message', res),
  );
  const figures: Record<string, number | string> = {};
  try {
    const start = await api(base, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(10_000_000),
      step_delay_ms: 0,
    });
    const runId = start.body.execution_id as string;
    await sleep(WARM_UP_MS); // warm-up (JIT, SQLite cache, the first fast seconds of a fresh database)

    const windows: Window[] = [];
    const bViewers: Viewer[] = [];
    const connectTimes: number[] = [];
    const subscribeTimes: number[] = [];
    for (const kind of ['A', 'B', 'A', 'B', 'A'] as const) {
      const from = clock();
      if (kind === 'A') {
        await sleep(A_MS);
        windows.push({ kind, from, to: clock() });
        continue;
      }
      const { viewers, connectMs, subscribeMs } = await connectViewers(base, runId);
      connectTimes.push(connectMs);
      subscribeTimes.push(subscribeMs);
      await sleep(B_HOLD_MS);
      windows.push({ kind, from, to: clock() });
      for (const v of viewers) v.socket.close();
      bViewers.push(...viewers);
      await sleep(300); // let the server see 200 disconnects before the next A phase
    }
    await api(base, 'POST', '/api/navigate/run/stop', {});

    // Delivery: a short run, 200 viewers from seq 0 right after its start, each must get everything.
    const short = await api(base, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(DELIVERY_STEPS),
      step_delay_ms: 0,
    });
    const shortId = short.body.execution_id as string;
    const t0 = clock();
    const { viewers: dViewers } = await connectViewers(base, shortId);
    const done = await waitFor(
      async () => {
        const row = (await api(base, 'GET', `/api/runs/${shortId}`)).body as {
          status: string;
          last_seq: number;
        };
        return row.status === 'done' ? row : undefined;
      },
      60_000,
      'the delivery run to finish',
    );
    const complete = () => dViewers.filter((v) => v.next > done.last_seq).length;
    await waitFor(() => complete() === VIEWERS, 60_000, 'every viewer to receive the whole log').catch(
      () => undefined,
    );
    const deliverySeconds = (clock() - t0) / 1000;
    for (const v of dViewers) v.socket.close();

    probe.postMessage('stop');
    const { health, steps } = await probed;
    const inKind = (kind: 'A' | 'B') => windows.filter((w) => w.kind === kind);
    const latencies = (kind: 'A' | 'B') =>
      health.filter(([t]) => inKind(kind).some((w) => t >= w.from && t <= w.to)).map(([, ms]) => ms);
    const speeds = (kind: 'A' | 'B') => inKind(kind).map((w) => speed(steps, runId, w).stepsPerS);
    const cpu = (kind: 'A' | 'B') => mean(inKind(kind).map((w) => speed(steps, runId, w).cpuPerStep));
    const sA = speeds('A');
    const sB = speeds('B');
    const hA = latencies('A');
    const hB = latencies('B');
    Object.assign(figures, {
      viewers: VIEWERS,
      steps_per_s_no_viewer: mean(sA),
      steps_per_s_200_viewers: mean(sB),
      // Each B phase against the mean of the A phases on either side: the run slows down by itself as
      // its database grows (with or without viewers), so a B is compared with its own neighbours.
      speed_ratio: mean(sB.map((b, i) => b / mean([sA[i]!, sA[i + 1]!]))),
      speed_ratio_plain: mean(sB) / mean(sA),
      phase_speeds: windows.map((w) => `${w.kind}:${Math.round(speed(steps, runId, w).stepsPerS)}`).join(' '),
      // Load-independent: the server's own CPU per step. Their ratio is the speed ratio the server
      // would reach with a core to itself (the viewers here share the machine with it).
      server_cpu_ms_per_step_no_viewer: cpu('A'),
      server_cpu_ms_per_step_200_viewers: cpu('B'),
      cpu_ratio: cpu('A') / cpu('B'),
      health_ms_p50_no_viewer: pct(hA, 50),
      health_ms_p95_no_viewer: pct(hA, 95),
      health_ms_p50_200_viewers: pct(hB, 50),
      health_ms_p95_200_viewers: pct(hB, 95),
      health_ms_max_200_viewers: Math.max(...hB),
      health_samples: `${hA.length}/${hB.length}`,
      connect_all_ms: Math.max(...connectTimes),
      subscribe_all_ms: Math.max(...subscribeTimes),
      b_viewers_subscribed: `${bViewers.filter((v) => v.subscribed).length}/${bViewers.length}`,
      b_events_per_viewer_median: median(bViewers.map((v) => v.received)),
      b_connections_lost: bViewers.filter((v) => v.lost).length,
      b_holes: bViewers.reduce((n, v) => n + v.holes, 0),
      b_duplicates: bViewers.reduce((n, v) => n + v.dups, 0),
      b_gap_notices: bViewers.reduce((n, v) => n + v.gaps, 0),
      delivery_run_events: done.last_seq,
      delivery_viewers_complete: `${complete()}/${VIEWERS}`,
      delivery_seconds: deliverySeconds,
      delivery_connections_lost: [...new Set(dViewers.map((v) => v.lost).filter(Boolean))].join(',') || 0,
      delivery_holes: dViewers.reduce((n, v) => n + v.holes, 0),
      delivery_duplicates: dViewers.reduce((n, v) => n + v.dups, 0),
      delivery_gap_notices: dViewers.reduce((n, v) => n + v.gaps, 0),
    });
    return figures;
  } finally {
    probe.postMessage('stop');
    await probe.terminate();
    await server.stop();
    ws.cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await run();
  for (const [k, v] of Object.entries(figures))
    console.log(`${k}: ${typeof v === 'number' ? +v.toFixed(3) : v}`);
}
