// runs.list_100k: one page of `GET /api/runs` over 100,000 run rows — PostgreSQL (distributed mode,
// PgRunLog.listPage) side by side with the embedded SQLite store (RunStore.listPage), the same
// query on the same rows. Three figures, each the median of REPS alternated samples (ms):
//  - runs.list_100k.first_page: the newest 50 runs;
//  - runs.list_100k.by_graph: the newest 50 runs of one graph (1 in 50 rows);
//  - runs.list_100k.by_status: the newest 50 runs in status `error` (1 in 20 rows).
// Details: a page deep in the list (keyset `before` at the 60,000th row) on both stores.
// Rows are bulk-inserted (PostgreSQL: one INSERT … SELECT over generate_series; SQLite: one
// transaction), then ANALYZEd, as a database that grew over months would be.
// `npx tsx bench/run-all.ts runs` runs only this one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase, openDatabase } from '../src/server/db/database.ts';
import { PgRunLog } from '../src/server/db/pgRunLog.ts';
import type { RunListQuery } from '../src/server/db/runList.ts';
import { RunStore } from '../src/server/db/runStore.ts';
import { startPostgres } from '../src/server/test/pgServer.ts';
import { figure, measureAB, type BenchResult } from './figures.ts';

const ROWS = 100_000;
const GRAPHS = 50;
const REPS = 7;
/** What a page of the list must take at 100,000 runs on either store (ms). */
const GOAL_MS = 20;

/** Row i: started one second after row i-1; graph g<i mod 50>; every 20th in error, every 10th a fork. */
const startedAt = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
const statusOf = (i: number) => (i % 20 === 7 ? 'error' : i % 20 === 3 ? 'interrupted' : 'done');

async function fillPostgres(log: PgRunLog): Promise<void> {
  await log.pool.query(
    `INSERT INTO runs (id, graph_name, graph_hash, status, steps, last_seq, started_at, ended_at, lineage, kind)
     SELECT 'run_' || lpad(i::text, 6, '0'), 'g' || (i % ${GRAPHS}), '"bench"',
       CASE WHEN i % 20 = 7 THEN 'error' WHEN i % 20 = 3 THEN 'interrupted' ELSE 'done' END,
       50, 400, to_char(timestamp '2026-01-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       NULL, 'run_' || i, CASE WHEN i % 10 = 0 THEN 'fork' ELSE 'run' END
     FROM generate_series(0, ${ROWS - 1}) AS i`,
  );
  await log.pool.query('ANALYZE runs');
}

function fillSqlite(store: RunStore): void {
  const insert = store.db.prepare(
    `INSERT INTO runs (id, graph_name, graph_hash, status, steps, last_seq, started_at, lineage, kind)
     VALUES (?, ?, '"bench"', ?, 50, 400, ?, ?, ?)`,
  );
  store.db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const id = `run_${String(i).padStart(6, '0')}`;
      insert.run(id, `g${i % GRAPHS}`, statusOf(i), startedAt(i), `run_${i}`, i % 10 === 0 ? 'fork' : 'run');
    }
  })();
  store.db.exec('ANALYZE');
}

async function timed(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  const rows = (await fn()) as unknown[];
  const ms = performance.now() - t0;
  if (rows.length !== 50) throw new Error(`expected a page of 50 rows, got ${rows.length}`);
  return ms;
}

export async function run(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'statewire-runs-bench-'));
  const pg = await startPostgres({ durable: true });
  const log = await PgRunLog.connect(pg.url);
  const db = openDatabase(join(dir, 'runs.db'));
  try {
    const store = new RunStore(db);
    await fillPostgres(log);
    fillSqlite(store);
    const deep = { startedAt: startedAt(ROWS - 60_000), id: `run_${String(ROWS - 60_000).padStart(6, '0')}` };
    const queries: [string, RunListQuery][] = [
      ['first_page', { limit: 50 }],
      ['by_graph', { limit: 50, graph: 'g7' }],
      ['by_status', { limit: 50, status: 'error' }],
      ['deep_page', { limit: 50, before: deep }],
    ];
    // Same answers on both stores (the figures compare the same work).
    for (const [name, q] of queries) {
      const [a, b] = [await log.listPage(q), store.listPage(q)];
      if (JSON.stringify(a.map((r) => r.id)) !== JSON.stringify(b.map((r) => r.id)))
        throw new Error(`${name}: PostgreSQL and SQLite list different runs`);
    }
    const figures = [];
    const detail: Record<string, number> = { rows: ROWS };
    for (const [name, q] of queries) {
      // One untimed round each: PostgreSQL plans and caches, SQLite prepares.
      await log.listPage(q);
      store.listPage(q);
      const s = await measureAB(
        REPS,
        () => timed(() => log.listPage(q)),
        () => timed(() => store.listPage(q)),
      );
      const f = figure(
        `runs.list_100k.${name}`,
        'ms',
        { on: 'ours', op: '<', value: GOAL_MS },
        s.ours,
        s.baseline,
        `GET /api/runs page of 50 (${JSON.stringify({ ...q, before: q.before ? '60,000th row' : undefined })}) among ${ROWS} runs: PostgreSQL (ours, distributed) vs SQLite (baseline, embedded), median of ${REPS}`,
      );
      detail[`${name}_pg_ms`] = +f.ours.toFixed(2);
      detail[`${name}_sqlite_ms`] = +(f.baseline ?? NaN).toFixed(2);
      if (name !== 'deep_page') figures.push(f);
    }
    return { ...detail, figures };
  } finally {
    closeDatabase(db);
    await log.close();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
