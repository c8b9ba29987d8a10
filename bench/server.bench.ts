// Run-server figures, measured against a REAL `statewire serve` process on loopback with the demo
// graph (workspace/graphs/grid_navigator.json):
//  - db.bytes_per_step.demo: runs.db bytes per step of a demo run (after a graceful stop, WAL folded
//    in), next to the whole state as JSON per step (baseline: the mean JSON size of the checkpointed
//    state of every step of the same run, read back from that database);
//  - restore.p95.10k: restore latency p95 for random steps of a 10,000-step run (POST
//    /api/runs/{id}/restore: read the content-addressed checkpoint, build a new engine from it,
//    commit `restored`), one p95 of RESTORE_SAMPLES restores per repetition.
// The stream's events/s is bench/stream.bench.ts's. Standalone: `npx tsx bench/server.bench.ts`.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closeDatabase, openDatabase } from '../src/server/db/database.ts';
import { RunStore } from '../src/server/db/runStore.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../src/server/test/serverProcess.testutil.ts';
import { figure, median, percentile, type BenchResult } from './figures.ts';

const REPS = 3;
const SIZE_STEPS = 1000;
const LONG_STEPS = 10_000;
const RESTORE_SAMPLES = 60;

/** Starts a demo run of `steps` root steps and waits until it is done; returns its id and seconds. */
async function runDemo(server: ServerProcess, steps: number): Promise<{ runId: string; seconds: number }> {
  const t0 = performance.now();
  const start = await api(server.url, 'POST', '/api/navigate/run', {
    loop_definition: demoGraph(steps),
    step_delay_ms: 0,
  });
  const runId = start.body.execution_id as string;
  await waitFor(
    async () => (await api(server.url, 'GET', `/api/runs/${runId}`)).body.status === 'done',
    900_000,
    `${steps} steps`,
  );
  return { runId, seconds: (performance.now() - t0) / 1000 };
}

/** Mean JSON bytes of the full checkpointed state of each step, read back from the stopped database. */
function stateJsonPerStep(dbPath: string, runId: string): number {
  const db = openDatabase(dbPath);
  try {
    const store = new RunStore(db);
    const steps = store.checkpointSteps(runId);
    let bytes = 0;
    for (const s of steps) bytes += JSON.stringify(store.checkpoint(runId, s)?.state ?? null).length;
    return bytes / steps.length;
  } finally {
    closeDatabase(db);
  }
}

/** One repetition: database bytes per step and the state's JSON bytes per step of one demo run. */
async function dbSample(): Promise<{ dbPerStep: number; statePerStep: number; steps: number }> {
  const ws = tempWorkspace();
  const server = await startServer(ws.dir);
  try {
    const { runId } = await runDemo(server, SIZE_STEPS);
    const steps = (await api(server.url, 'GET', `/api/runs/${runId}`)).body.steps as number;
    await server.stop();
    const dbPath = join(ws.dir, '.statewire', 'runs.db');
    const dbBytes = statSync(dbPath).size;
    return { dbPerStep: dbBytes / steps, statePerStep: stateJsonPerStep(dbPath, runId), steps };
  } finally {
    await server.stop();
    ws.cleanup();
  }
}

async function restoreSamples(): Promise<{ p95s: number[]; details: Record<string, number> }> {
  const ws = tempWorkspace();
  const server = await startServer(ws.dir);
  try {
    const { runId, seconds } = await runDemo(server, LONG_STEPS);
    const steps = (await api(server.url, 'GET', `/api/runs/${runId}`)).body.steps as number;
    // Deterministic pseudo-random sample of steps across the whole run.
    let x = 12345;
    const pick = () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return 1 + (x % steps);
    };
    const p95s: number[] = [];
    const p50s: number[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      const times: number[] = [];
      for (let i = 0; i < RESTORE_SAMPLES; i++) {
        const step = pick();
        const t = performance.now();
        const r = await api(server.url, 'POST', `/api/runs/${runId}/restore`, { step });
        times.push(performance.now() - t);
        if (r.status !== 200) throw new Error(`restore ${step} failed: ${JSON.stringify(r.body)}`);
      }
      times.sort((a, b) => a - b);
      p95s.push(percentile(times, 95));
      p50s.push(percentile(times, 50));
    }
    const stateTimes: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      await api(server.url, 'GET', `/api/runs/${runId}/state?step=${pick()}`);
      stateTimes.push(performance.now() - t);
    }
    stateTimes.sort((a, b) => a - b);
    await server.stop();
    return {
      p95s,
      details: {
        long_run_steps: steps,
        long_run_seconds: seconds,
        restore_ms_p50: median(p50s),
        state_at_step_ms_p50: percentile(stateTimes, 50),
        state_at_step_ms_p95: percentile(stateTimes, 95),
        db_bytes_per_step_long_run: statSync(join(ws.dir, '.statewire', 'runs.db')).size / steps,
      },
    };
  } finally {
    await server.stop();
    ws.cleanup();
  }
}

export async function run(): Promise<BenchResult> {
  const db: number[] = [];
  const state: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const s = await dbSample();
    db.push(s.dbPerStep);
    state.push(s.statePerStep);
  }
  const restore = await restoreSamples();
  return {
    ...restore.details,
    db_steps_per_sample: SIZE_STEPS,
    figures: [
      figure(
        'db.bytes_per_step.demo',
        'bytes',
        { on: 'ratio', op: '<=', value: 1 },
        db,
        state,
        `runs.db bytes per step of a ${SIZE_STEPS}-step demo run on statewire serve (graceful stop) vs the mean JSON size of the full state of a step of the same run`,
      ),
      figure(
        'restore.p95.10k',
        'ms',
        { on: 'ours', op: '<', value: 100 },
        restore.p95s,
        null,
        `POST /api/runs/{id}/restore p95 over ${RESTORE_SAMPLES} random steps of a ${LONG_STEPS}-step demo run, per repetition`,
      ),
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(JSON.stringify(result, null, 2));
}
