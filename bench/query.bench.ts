// Batch queries over stored logs (`statewire query`, GET /api/batches/{id}/query): a batch of 1,000
// episodes × 50 steps of the demo graph (workspace/graphs/grid_navigator.json, step_budget 50), run
// for real by the embedded pool (2 child processes) into a SQLite file and compacted as a server's
// idle time would, then queried with nothing cached: every repetition opens the database afresh
// (the OS page cache stays warm, as it would be for a user who just ran the batch). Goal: the issue's
// figure, `graph_state.step_count >= 25` answered in under 2 s. The other condition kinds (a keyed
// slot's length, writes, clears) and the same batch copied into a real PostgreSQL are detail figures.
// Standalone: `npx tsx bench/query.bench.ts`. BENCH_QUERY_EPISODES=N changes the batch size;
// BENCH_QUERY_DB=FILE keeps the generated database there and reuses it when it exists (the batch
// alone takes minutes on 2 cores).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { applySets } from '../src/domain/batch/setPaths.ts';
import { parseGraphTextOrThrow } from '../src/domain/graph/graph.parse.ts';
import { BatchManager } from '../src/server/batch/batchManager.ts';
import { EmbeddedPool } from '../src/server/batch/embeddedPool.ts';
import { queryStoredBatch } from '../src/server/batch/evaluation.ts';
import { PgRunLog } from '../src/server/db/pgRunLog.ts';
import type { RunLog } from '../src/server/db/runLog.ts';
import { SqliteRunLog } from '../src/server/db/sqliteRunLog.ts';
import { startPostgres } from '../src/server/test/pgServer.ts';
import { figure, median, type BenchResult } from './figures.ts';

const EPISODES = Number(process.env.BENCH_QUERY_EPISODES ?? 1000);
const STEPS = 50;
const REPS = 5;
const HEADLINE = 'graph_state.step_count >= 25';
const OTHERS = ['memory.trail length> 5', 'write memory.scratch', 'clear memory.trail'];
const ROOT = join(import.meta.dirname, '..');

/** Runs the batch into `file` (compacted afterwards); returns its id. */
async function buildDatabase(file: string): Promise<string> {
  const text = readFileSync(join(ROOT, 'workspace/graphs/grid_navigator.json'), 'utf8');
  const set = applySets(parseGraphTextOrThrow(text), [`step_budget=${STEPS}`]);
  if (!set.ok) throw new Error(set.message);
  mkdirSync(dirname(file), { recursive: true });
  const log = SqliteRunLog.open(file);
  const manager = new BatchManager({
    log,
    executor: new EmbeddedPool({ log, pluginDir: null, onOutput: () => undefined }),
  });
  try {
    const { batchId, done } = await manager.start({
      graph: set.graph,
      episodes: EPISODES,
      workers: 2,
      seed: 1,
      sets: [`step_budget=${STEPS}`],
    });
    const record = await done;
    if (record.status !== 'done') throw new Error(`the bench batch ended ${record.status}`);
    // The form a database has once the server had idle time after the batch.
    log.store.compaction.drain(Number.POSITIVE_INFINITY);
    return batchId;
  } finally {
    await manager.close();
    await log.close();
  }
}

interface Timed {
  wall: number;
  cpu: number;
  hits: number;
}

async function timeQuery(open: () => Promise<RunLog>, batchId: string, condition: string): Promise<Timed> {
  const log = await open();
  try {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await queryStoredBatch(log, batchId, condition);
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    return { wall, cpu: (c.user + c.system) / 1000, hits: r.hits.length };
  } finally {
    await log.close();
  }
}

async function repeat(open: () => Promise<RunLog>, batchId: string, condition: string, reps: number) {
  const runs: Timed[] = [];
  for (let i = 0; i < reps; i++) runs.push(await timeQuery(open, batchId, condition));
  return {
    wall: runs.map((r) => r.wall),
    cpu: median(runs.map((r) => r.cpu)),
    hits: runs[0]!.hits,
  };
}

/** The batch, its episode rows and every episode's events, copied into PostgreSQL. */
async function copyToPostgres(from: SqliteRunLog, to: PgRunLog, batchId: string): Promise<void> {
  const batch = (await from.getBatch(batchId))!;
  await to.createBatch(batch);
  for (const row of await from.episodes(batchId)) {
    const run = (await from.getRun(row.run_id))!;
    await to.createRun({
      id: run.id,
      graphName: run.graph_name,
      graph: await from.graphOf(run.id),
      status: 'running',
      startedAt: run.started_at,
      parentRunId: null,
      parentStep: null,
      lineage: run.lineage,
      freshEffects: false,
      stepDelayMs: 0,
      graphVersion: run.graph_version,
    });
    const events = await from.events(run.id, 0, Number.MAX_SAFE_INTEGER);
    await to.commit(run.id, {
      events,
      steps: run.steps,
      status: run.status as 'done',
      endedAt: run.ended_at,
    });
    await to.recordEpisode(batchId, row);
  }
}

export async function run(): Promise<BenchResult> {
  const keep = process.env.BENCH_QUERY_DB;
  const dir = mkdtempSync(join(tmpdir(), 'statewire-query-bench-'));
  const file = keep ?? join(dir, 'runs.db');
  try {
    const built = !(keep && existsSync(keep));
    const started = performance.now();
    if (built) await buildDatabase(file);
    const buildSeconds = (performance.now() - started) / 1000;
    const probe = SqliteRunLog.open(file);
    const [batch] = await probe.listBatches(1);
    const episodes = (await probe.episodes(batch!.id)).length;
    await probe.close();
    // Queries read a copy, so a reused database is never changed by them (open() may migrate).
    const copy = join(dir, 'ws', '.statewire', 'runs.db');
    mkdirSync(dirname(copy), { recursive: true });
    copyFileSync(file, copy);
    const openSqlite = async () => SqliteRunLog.open(copy);

    const head = await repeat(openSqlite, batch!.id, HEADLINE, REPS);
    const detail: Record<string, number | string> = {
      query_episodes: episodes,
      query_steps_per_episode: STEPS,
      query_db_mb: +(readFileSync(copy).length / 2 ** 20).toFixed(1),
      query_batch_build_s: built ? +buildSeconds.toFixed(1) : 'reused',
      query_headline: HEADLINE,
      query_headline_hits: head.hits,
      query_headline_wall_ms: median(head.wall),
      query_headline_cpu_ms: head.cpu,
    };
    for (const q of OTHERS) {
      const r = await repeat(openSqlite, batch!.id, q, 3);
      detail[`query_sqlite_ms: ${q}`] = median(r.wall);
      detail[`query_sqlite_hits: ${q}`] = r.hits;
    }
    // The CLI end to end (a new process: loading the code counts too).
    const t0 = performance.now();
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'bin/statewire.js'),
        'query',
        batch!.id,
        HEADLINE,
        '--limit',
        '0',
        '--workspace',
        dirname(dirname(copy)),
      ],
      {
        env: { ...process.env, STATEWIRE_REDIS_URL: '', STATEWIRE_DATABASE_URL: '' },
        stdio: 'ignore',
      },
    );
    detail.query_cli_wall_ms = performance.now() - t0;

    const pg = await startPostgres();
    try {
      const target = await PgRunLog.connect(pg.url);
      const source = SqliteRunLog.open(copy);
      await copyToPostgres(source, target, batch!.id);
      await source.close();
      await target.close();
      const openPg = () => PgRunLog.connect(pg.url, { migrate: false });
      const p = await repeat(openPg, batch!.id, HEADLINE, 3);
      detail.query_postgres_ms = median(p.wall);
      detail.query_postgres_hits = p.hits;
      const trail = await repeat(openPg, batch!.id, OTHERS[0]!, 1);
      detail[`query_postgres_ms: ${OTHERS[0]}`] = median(trail.wall);
    } finally {
      await pg.stop();
    }

    return {
      ...detail,
      figures: [
        figure(
          `query.batch_${episodes}x${STEPS}`,
          'ms',
          { on: 'ours', op: '<', value: 2000 },
          head.wall,
          null,
          `\`${HEADLINE}\` over every stored step of a ${episodes}-episode batch (SQLite, compacted, nothing cached), median of ${REPS}`,
        ),
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await run();
  console.log(JSON.stringify(r, null, 2));
}
