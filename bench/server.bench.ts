// Run-server figures, measured against a REAL `statewire serve` process on loopback with the demo
// graph (workspace/graphs/grid_navigator.json):
//  - events/s delivered to one socket.io client at step_delay_ms 0 (first event → nav_complete);
//  - database size per 1,000 demo steps (runs.db after a graceful stop, WAL folded in);
//  - restore latency p50/p95 for random steps of a 10,000-step run (POST /api/runs/{id}/restore,
//    i.e. read the content-addressed checkpoint, build a new engine from it, commit `restored`).
// Standalone: `npx tsx bench/server.bench.ts`.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { io } from 'socket.io-client';
import type { EventEnvelope } from '../src/domain/protocol/protocol.ts';
import { EVENT_TYPES } from '../src/domain/protocol/protocol.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
} from '../src/server/test/serverProcess.testutil.ts';

const STREAM_STEPS = 2000;
const LONG_STEPS = 10_000;
const RESTORE_SAMPLES = 60;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function streamAndSize(): Promise<Record<string, number>> {
  const ws = tempWorkspace();
  const server = await startServer(ws.dir);
  try {
    const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((res, rej) => {
      socket.once('connect', () => res());
      socket.once('connect_error', rej);
    });
    let received = 0;
    let gaps = 0;
    let first = 0;
    let last = 0;
    let complete = false;
    for (const type of EVENT_TYPES)
      socket.on(type, (_e: EventEnvelope) => {
        if (received === 0) first = performance.now();
        received++;
        if (type === 'gap') gaps++;
        if (type === 'nav_complete') {
          complete = true;
          last = performance.now();
        }
      });
    await socket.timeout(5000).emitWithAck('subscribe', {});
    const start = await api(server.url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(STREAM_STEPS),
      step_delay_ms: 0,
    });
    const runId = start.body.execution_id as string;
    await waitFor(() => complete, 300_000, 'nav_complete');
    socket.close();
    const row = (await api(server.url, 'GET', `/api/runs/${runId}`)).body;
    await server.stop();
    const dbBytes = statSync(join(ws.dir, '.statewire', 'runs.db')).size;
    const seconds = (last - first) / 1000;
    return {
      stream_steps: row.steps,
      stream_events_logged: row.last_seq,
      stream_events_received: received,
      stream_gap_notices: gaps,
      stream_events_per_s: received / seconds,
      stream_steps_per_s: row.steps / seconds,
      db_mb_per_1000_steps: dbBytes / 1024 / 1024 / (row.steps / 1000),
      db_events_per_1000_steps: row.last_seq / (row.steps / 1000),
    };
  } finally {
    await server.stop();
    ws.cleanup();
  }
}

async function restoreLatency(): Promise<Record<string, number>> {
  const ws = tempWorkspace();
  const server = await startServer(ws.dir);
  try {
    const start = await api(server.url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(LONG_STEPS),
      step_delay_ms: 0,
    });
    const runId = start.body.execution_id as string;
    const t0 = performance.now();
    await waitFor(
      async () => (await api(server.url, 'GET', `/api/runs/${runId}`)).body.status === 'done',
      900_000,
      '10k steps',
    );
    const runSeconds = (performance.now() - t0) / 1000;
    const steps = (await api(server.url, 'GET', `/api/runs/${runId}`)).body.steps as number;
    // Deterministic pseudo-random sample of steps across the whole run.
    let x = 12345;
    const pick = () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return 1 + (x % steps);
    };
    const times: number[] = [];
    for (let i = 0; i < RESTORE_SAMPLES; i++) {
      const step = pick();
      const t = performance.now();
      const r = await api(server.url, 'POST', `/api/runs/${runId}/restore`, { step });
      times.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`restore ${step} failed: ${JSON.stringify(r.body)}`);
    }
    times.sort((a, b) => a - b);
    const stateTimes: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      await api(server.url, 'GET', `/api/runs/${runId}/state?step=${pick()}`);
      stateTimes.push(performance.now() - t);
    }
    stateTimes.sort((a, b) => a - b);
    return {
      long_run_steps: steps,
      long_run_seconds: runSeconds,
      restore_ms_p50: percentile(times, 50),
      restore_ms_p95: percentile(times, 95),
      state_at_step_ms_p50: percentile(stateTimes, 50),
      state_at_step_ms_p95: percentile(stateTimes, 95),
      db_mb_long_run: statSync(join(ws.dir, '.statewire', 'runs.db')).size / 1024 / 1024,
    };
  } finally {
    await server.stop();
    ws.cleanup();
  }
}

export async function run(): Promise<Record<string, number | string>> {
  return { ...(await streamAndSize()), ...(await restoreLatency()) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await run();
  for (const [k, v] of Object.entries(figures))
    console.log(`${k}: ${typeof v === 'number' ? +v.toFixed(3) : v}`);
}
