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
// plus the per-worker rate (episodes/s ÷ K: flat = linear scaling until the cores run out) and the
// distributed/embedded ratio at 1 worker. The 1-worker pair is measured twice (before and after the
// scaling runs) and averaged, so drift of a shared machine shows as the spread of the two.
// Timing: from the batch start to its last row (worker processes are started before, not timed).
// Standalone: `npx tsx bench/batch.bench.ts` (BENCH_BATCH_EPISODES=N to change the batch size).
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

const STEP_BUDGET = 50;
const EPISODES = Number(process.env.BENCH_BATCH_EPISODES ?? 40);

function graph(): GraphDef {
  const r = decodeGraph(demoGraph(STEP_BUDGET));
  if (!r.ok) throw new Error('the demo graph does not decode');
  return r.graph;
}

/** Episodes/s of one batch of EPISODES on `executor` (start → last row). */
async function timeBatch(
  log: RunLog,
  executor: BatchExecutor,
  workers: number,
  mode: 'embedded' | 'distributed',
) {
  const manager = new BatchManager({ log, executor, mode });
  try {
    const started = performance.now();
    const { batchId, done } = await manager.start({
      graph: graph(),
      episodes: EPISODES,
      workers,
      seed: 1,
      sets: [],
    });
    const record = await done;
    const seconds = (performance.now() - started) / 1000;
    const rows = await log.episodes(batchId);
    const ok = rows.filter((r) => r.status === 'done').length;
    if (record.status !== 'done' || ok !== EPISODES)
      throw new Error(`batch ${batchId}: ${record.status}, ${ok}/${EPISODES} episodes done`);
    return EPISODES / seconds;
  } finally {
    await manager.close();
  }
}

export async function run(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'statewire-batch-bench-'));
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
    const e1a = await embedded();
    const d1a = await distributed(1);
    const e2 = await embedded(2);
    const d2 = await distributed(2);
    const e4 = await embedded(4);
    const d4 = await distributed(4);
    const d1b = await distributed(1);
    const e1b = await embedded();
    const d1sync = await distributed(1, pg.url);
    const e1 = (e1a + e1b) / 2;
    const d1 = (d1a + d1b) / 2;
    return {
      batch_episodes: EPISODES,
      batch_step_budget: STEP_BUDGET,
      embedded_1_worker_eps: e1,
      embedded_1_worker_eps_runs: `${e1a.toFixed(2)} / ${e1b.toFixed(2)}`,
      embedded_2_workers_eps: e2,
      embedded_4_workers_eps: e4,
      embedded_per_worker_eps_2: e2 / 2,
      embedded_per_worker_eps_4: e4 / 4,
      distributed_1_worker_eps: d1,
      distributed_1_worker_eps_runs: `${d1a.toFixed(2)} / ${d1b.toFixed(2)}`,
      distributed_2_workers_eps: d2,
      distributed_4_workers_eps: d4,
      distributed_per_worker_eps_1: d1,
      distributed_per_worker_eps_2: d2 / 2,
      distributed_per_worker_eps_4: d4 / 4,
      distributed_vs_embedded_at_1_worker: d1 / e1,
      distributed_1_worker_eps_fsync_per_commit: d1sync,
      distributed_fsync_per_commit_vs_embedded_at_1_worker: d1sync / e1,
    };
  } finally {
    await pgLog.close();
    await sqlite.close();
    await Promise.allSettled([redis.stop(), pg.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await run();
  for (const [k, v] of Object.entries(figures))
    console.log(`${k}: ${typeof v === 'number' ? +v.toFixed(3) : v}`);
}
