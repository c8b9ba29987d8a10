// Batch throughput, measured side by side in one process on this machine: episodes/s of the demo
// graph (workspace/graphs/grid_navigator.json, step_budget 50)
//  - embedded: `statewire batch`'s executor (EmbeddedPool child processes, SQLite run log), K = 1, 2, 4;
//  - distributed: K REAL `statewire worker` processes (BullMQ on a real Redis, a real PostgreSQL with
//    fsync and full-page writes on), K = 1, 2, 4, each worker at --concurrency 1. The workers'
//    sessions run with `synchronous_commit=off`, which is what the embedded store does: SQLite in
//    WAL mode with `synchronous=NORMAL` does not fsync at each commit either (both keep every
//    commit through a crash of a worker or server; a database or OS crash may lose the last
//    fraction of a second). The 1-worker case is also measured with `synchronous_commit=on` (an
//    fsync per step commit);
// plus the per-worker rate (episodes/s ÷ K: flat = linear scaling until the cores run out). Two
// side-by-side figures (alternating, median of 3):
//  - batch.distributed_vs_embedded: episodes/s of 1 distributed worker ÷ the embedded pool with 1 child;
//  - batch.durable_vs_engine: root steps/s of a 1-worker embedded batch (every step durable, group
//    commits) ÷ the bare engine running the same seeded episodes in this process, nothing persisted.
// Timing: from the batch start to its last row (distributed workers are started before, not timed;
// the embedded child is forked inside the timing, as `statewire batch` does).
// Standalone: `npx tsx bench/batch.bench.ts` (BENCH_BATCH_EPISODES=N to change the batch size);
// `npx tsx bench/batch.bench.ts durable` measures only batch.durable_vs_engine (no Redis/PostgreSQL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GraphDef } from '../src/domain/graph/graph.schema.ts';
import { BatchManager, type BatchExecutor } from '../src/server/batch/batchManager.ts';
import { EmbeddedPool } from '../src/server/batch/embeddedPool.ts';
import { PgRunLog } from '../src/server/db/pgRunLog.ts';
import type { RunLog } from '../src/server/db/runLog.ts';
import { SqliteRunLog } from '../src/server/db/sqliteRunLog.ts';
import { BullExecutor } from '../src/server/distributed/bullExecutor.ts';
import { startPostgres } from '../src/server/test/pgServer.ts';
import { startRedis } from '../src/server/test/redisServer.ts';
import { demoGraph } from '../src/server/test/serverProcess.testutil.ts';
import { startWorkerProcess } from '../src/server/test/workerProcess.testutil.ts';
import { decodeGraph } from '../src/server/workspace/graphCodec.ts';
import { buildJobs } from '../src/server/batch/batchManager.ts';
import { createRun } from '../src/engine/createRun.ts';
import { offlineProvider } from '../src/engine/llm.providers.ts';
import { createRegistry } from '../src/engine/registry.ts';
import { figure, measureAB, type BenchResult, type Figure } from './figures.ts';

const STEP_BUDGET = 50;
const EPISODES = Number(process.env.BENCH_BATCH_EPISODES ?? 40);
/** Episodes of each `batch.durable_vs_engine` sample (enough that the child's start is a small share). */
const DURABLE_EPISODES = Number(process.env.BENCH_BATCH_DURABLE_EPISODES ?? 100);
const REPS = 3;

function graph(): GraphDef {
  const r = decodeGraph(demoGraph(STEP_BUDGET));
  if (!r.ok) throw new Error('the demo graph does not decode');
  return r.graph;
}

/** Episodes/s and root steps/s of one batch of `episodes` on `executor` (start → last row). */
async function timeBatch(
  log: RunLog,
  executor: BatchExecutor,
  workers: number,
  mode: 'embedded' | 'distributed',
  episodes = EPISODES,
): Promise<number> {
  return (await timeBatchSteps(log, executor, workers, mode, episodes)).eps;
}

async function timeBatchSteps(
  log: RunLog,
  executor: BatchExecutor,
  workers: number,
  mode: 'embedded' | 'distributed',
  episodes: number,
): Promise<{ eps: number; stepsPerS: number }> {
  const manager = new BatchManager({ log, executor, mode });
  try {
    const started = performance.now();
    const { batchId, done } = await manager.start({
      graph: graph(),
      episodes,
      workers,
      seed: 1,
      sets: [],
    });
    const record = await done;
    const seconds = (performance.now() - started) / 1000;
    const rows = await log.episodes(batchId);
    const ok = rows.filter((r) => r.status === 'done').length;
    if (record.status !== 'done' || ok !== episodes)
      throw new Error(`batch ${batchId}: ${record.status}, ${ok}/${episodes} episodes done`);
    const steps = rows.reduce((n, r) => n + r.steps, 0);
    return { eps: episodes / seconds, stepsPerS: steps / seconds };
  } finally {
    await manager.close();
  }
}

/**
 * Baseline of `batch.durable_vs_engine`: the bare engine in this process running the same episode
 * graphs (the batch's seeded jobs) one after another to their end, no-op sink, nothing persisted.
 */
async function bareEngineStepsPerS(episodes: number): Promise<number> {
  const registry = createRegistry();
  const graphs = buildJobs('bench', graph(), episodes, 1).map((j) => {
    const r = decodeGraph(j.graph);
    if (!r.ok) throw new Error('an episode graph does not decode');
    return r.graph;
  });
  const t0 = performance.now();
  let steps = 0;
  for (const [i, g] of graphs.entries()) {
    const engine = createRun(g, { runId: `bare_e${i}`, registry, llm: offlineProvider }, () => undefined);
    while (!(await engine.stepOnce()).done);
    steps += engine.step;
  }
  return steps / ((performance.now() - t0) / 1000);
}

/**
 * `batch.durable_vs_engine`: root steps/s of a 1-worker embedded batch (child process, SQLite, every
 * step committed) against the bare engine on the same episodes in this process, alternating, median
 * of REPS. Each batch sample gets a fresh database, so no sample writes into a bigger file than another.
 */
async function durableVsEngine(dir: string): Promise<{ figure: Figure; detail: Record<string, number> }> {
  let n = 0;
  const embeddedSteps = async () => {
    const log = SqliteRunLog.open(join(dir, `durable-${++n}.db`));
    try {
      const pool = new EmbeddedPool({ log, pluginDir: null, onOutput: () => undefined });
      return (await timeBatchSteps(log, pool, 1, 'embedded', DURABLE_EPISODES)).stepsPerS;
    } finally {
      await log.close();
    }
  };
  await bareEngineStepsPerS(DURABLE_EPISODES); // JIT warm-up of the in-process side
  const ab = await measureAB(REPS, embeddedSteps, () => bareEngineStepsPerS(DURABLE_EPISODES));
  const f = figure(
    'batch.durable_vs_engine',
    'steps/s',
    { on: 'ratio', op: '>=', value: 0.5 },
    ab.ours,
    ab.baseline,
    `demo step_budget ${STEP_BUDGET}, ${DURABLE_EPISODES} episodes: a 1-worker embedded batch (child process, SQLite, batch start to last row) vs the bare engine in-process, no persistence`,
  );
  return { figure: f, detail: { durable_episodes: DURABLE_EPISODES } };
}

export async function run(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'statewire-batch-bench-'));
  const durable = await durableVsEngine(dir);
  if (process.argv.includes('durable')) {
    rmSync(dir, { recursive: true, force: true });
    return { ...durable.detail, figures: [durable.figure] };
  }
  const [redis, pg] = await Promise.all([startRedis(), startPostgres({ durable: true })]);
  const pgLog = await PgRunLog.connect(pg.url);
  const sqlite = SqliteRunLog.open(join(dir, 'runs.db'));
  // Session option in the URL (node-postgres passes `options` to the server).
  const asSqlite = `${pg.url}?options=${encodeURIComponent('-c synchronous_commit=off')}`;

  const embedded = (k = 1) =>
    timeBatch(
      sqlite,
      new EmbeddedPool({ log: sqlite, pluginDir: null, onOutput: () => undefined }),
      k,
      'embedded',
    );
  const distributed = async (k: number, databaseUrl = asSqlite) => {
    const workers = await Promise.all(
      Array.from({ length: k }, (_, i) =>
        startWorkerProcess({ redisUrl: redis.url, databaseUrl }, `bench-${k}-${i + 1}`),
      ),
    );
    try {
      return await timeBatch(
        pgLog,
        new BullExecutor({ redisUrl: redis.url, log: pgLog, pollMs: 250 }),
        k,
        'distributed',
      );
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  };

  try {
    // The 1-worker pair, alternating (d e e d d e), median of 3: `batch.distributed_vs_embedded`.
    const one = await measureAB(
      REPS,
      () => distributed(1),
      () => embedded(),
    );
    const e2 = await embedded(2);
    const d2 = await distributed(2);
    const e4 = await embedded(4);
    const d4 = await distributed(4);
    const d1sync = await distributed(1, pg.url);
    const pair = figure(
      'batch.distributed_vs_embedded',
      'episodes/s',
      { on: 'ratio', op: '>=', value: 0.9 },
      one.ours,
      one.baseline,
      `1 worker, demo step_budget ${STEP_BUDGET}, ${EPISODES} episodes: a statewire worker (BullMQ + PostgreSQL) vs the embedded pool (child process + SQLite), batch start to last row`,
    );
    const e1 = pair.baseline ?? NaN;
    const d1 = pair.ours;
    const runs = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
    return {
      batch_episodes: EPISODES,
      batch_step_budget: STEP_BUDGET,
      embedded_1_worker_eps: e1,
      embedded_1_worker_eps_runs: runs(one.baseline),
      embedded_2_workers_eps: e2,
      embedded_4_workers_eps: e4,
      embedded_per_worker_eps_2: e2 / 2,
      embedded_per_worker_eps_4: e4 / 4,
      distributed_1_worker_eps: d1,
      distributed_1_worker_eps_runs: runs(one.ours),
      distributed_2_workers_eps: d2,
      distributed_4_workers_eps: d4,
      distributed_per_worker_eps_1: d1,
      distributed_per_worker_eps_2: d2 / 2,
      distributed_per_worker_eps_4: d4 / 4,
      distributed_vs_embedded_at_1_worker: d1 / e1,
      distributed_1_worker_eps_fsync_per_commit: d1sync,
      distributed_fsync_per_commit_vs_embedded_at_1_worker: d1sync / e1,
      ...durable.detail,
      figures: [durable.figure, pair],
    };
  } finally {
    await pgLog.close();
    await sqlite.close();
    await Promise.allSettled([redis.stop(), pg.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { figures, ...detail } = await run();
  for (const [k, v] of Object.entries(detail))
    console.log(`${k}: ${typeof v === 'number' ? +v.toFixed(3) : v}`);
  for (const f of figures ?? [])
    console.log(
      `${f.name}: ours ${f.ours.toFixed(1)}, baseline ${f.baseline?.toFixed(1)}, ratio ${f.ratio?.toFixed(3)} (${f.goal}); ours ${f.ours_min.toFixed(1)}–${f.ours_max.toFixed(1)}, baseline ${f.baseline_min?.toFixed(1)}–${f.baseline_max?.toFixed(1)}`,
    );
}
