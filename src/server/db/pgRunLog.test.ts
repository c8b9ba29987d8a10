// The shared RunLog suite against a REAL PostgreSQL (started from the Debian binaries by
// test/pgServer.ts; no mocks), plus what only the distributed store has: migrations applied once
// however many processes start together, and several workers writing at the same time.
// Without the binaries these tests FAIL (install the Debian package postgresql); they never skip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { deepFreeze } from '../../engine/freeze.ts';
import { MISSING_POSTGRES, startPostgres, type PgServer } from '../test/pgServer.ts';
import { loadMigrations, migrate } from './pg/migrate.ts';
import { PgRunLog } from './pgRunLog.ts';
import { runLogSuite } from './runLog.suite.ts';

let started: PgServer | undefined;
let startError: Error | undefined;
beforeAll(async () => {
  try {
    started = await startPostgres();
  } catch (err) {
    startError = err as Error;
  }
}, 120_000);
afterAll(async () => {
  await started?.stop();
});
/** The server, or the reason there is none: every test then FAILS with it (none is skipped). */
const pgServer = (): PgServer => {
  if (!started) throw startError ?? new Error(MISSING_POSTGRES);
  return started;
};

it('has a real PostgreSQL server to run against', () => {
  expect(startError?.message ?? 'started').toBe('started');
});

runLogSuite('postgres', () => PgRunLog.connect(pgServer().url, { max: 4 }));

let dbs = 0;
/** A database of its own (fresh schema) on the test server. */
const freshDb = () => pgServer().createDatabase(`t${process.pid}_${++dbs}`);

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const c = new pg.Client(url);
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

const newRun = (id: string) => ({
  id,
  graphName: 'g',
  graph: { name: 'g' },
  status: 'running' as const,
  startedAt: '2026-03-01T10:00:00.000Z',
  parentRunId: null,
  parentStep: null,
  lineage: id,
  freshEffects: false,
  stepDelayMs: 0,
});
const ev = (runId: string, seq: number, type: EventEnvelope['type'], data: unknown): EventEnvelope => ({
  type,
  runId,
  seq,
  ts: '2026-03-01T10:00:00.000Z',
  data,
});

const VERSIONS = loadMigrations().map((m) => m.version);
const LATEST = VERSIONS.length;

describe('PostgreSQL migrations', () => {
  it('apply once, in order, and are a no-op the second time', async () => {
    const url = await freshDb();
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    try {
      expect(await migrate(pool)).toEqual({ applied: VERSIONS, version: LATEST });
      expect(await migrate(pool)).toEqual({ applied: [], version: LATEST });
    } finally {
      await pool.end();
    }
    const rows = await query<{ version: number; name: string }>(
      url,
      'SELECT version, name FROM schema_migrations ORDER BY version',
    );
    expect(rows).toEqual([
      { version: 1, name: 'init' },
      { version: 2, name: 'batches' },
      { version: 3, name: 'graph_versions' },
      ...loadMigrations()
        .slice(3)
        .map((m) => ({ version: m.version, name: m.name })),
    ]);
    const tables = await query<{ t: string }>(
      url,
      "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    expect(tables.map((r) => r.t)).toEqual([
      'batch_episodes',
      'batch_leases',
      'batches',
      'blobs',
      'checkpoints',
      'effects',
      'events',
      'graph_folders',
      'graph_versions',
      'graphs',
      'runs',
      'schema_migrations',
    ]);
  });

  it('are safe when several servers connect at the same moment', async () => {
    const url = await freshDb();
    const pools = Array.from({ length: 6 }, () => new pg.Pool({ connectionString: url, max: 1 }));
    try {
      const results = await Promise.all(pools.map((p) => migrate(p)));
      // exactly one of them applied each migration; the others found it done
      expect(results.flatMap((r) => r.applied).sort((x, y) => x - y)).toEqual(VERSIONS);
      expect(results.every((r) => r.version === LATEST)).toBe(true);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
    // and through connect(), racing on an already migrated database
    const logs = await Promise.all(Array.from({ length: 4 }, () => PgRunLog.connect(url, { max: 1 })));
    await Promise.all(logs.map((l) => l.close()));
    expect(await query(url, 'SELECT version FROM schema_migrations ORDER BY version')).toEqual(
      VERSIONS.map((version) => ({ version })),
    );
  });

  it('refuse a database newer than the code, and an applied migration whose file changed', async () => {
    const url = await freshDb();
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await migrate(pool);
      const edited = loadMigrations().map((m) =>
        m.version === 2 ? { ...m, sql: `${m.sql}\n-- edited`, checksum: 'different' } : m,
      );
      await expect(migrate(pool, edited)).rejects.toThrow(
        /migration 2 \(batches\) was applied from a different file/,
      );
      await expect(migrate(pool, loadMigrations().slice(0, 1))).rejects.toThrow(/newer than this statewire/);
    } finally {
      await pool.end();
    }
    await query(
      url,
      `INSERT INTO schema_migrations (version, name, checksum) VALUES (${LATEST + 1}, 'future', 'x')`,
    );
    await expect(PgRunLog.connect(url)).rejects.toThrow(new RegExp(`schema version ${LATEST + 1} is newer`));
  });

  it('roll a failing migration back whole', async () => {
    const url = await freshDb();
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const broken = [
        ...loadMigrations(),
        {
          version: LATEST + 1,
          name: 'broken',
          sql: 'CREATE TABLE half (x int); SELECT nope;',
          checksum: 'c',
        },
      ];
      await expect(migrate(pool, broken)).rejects.toThrow(
        new RegExp(`migration ${LATEST + 1} \\(broken\\) failed`),
      );
      const tables = await query<{ t: string }>(
        url,
        "SELECT tablename AS t FROM pg_tables WHERE tablename = 'half'",
      );
      expect(tables).toEqual([]);
      expect((await query(url, 'SELECT version FROM schema_migrations')).length).toBe(LATEST);
    } finally {
      await pool.end();
    }
  });
});

describe('PgRunLog (distributed)', () => {
  const bigState = (n: number, shared: unknown) =>
    deepFreeze({
      shared,
      mine: { n, text: `step ${n} `.repeat(20) },
      trail: Array.from({ length: 40 + n }, (_, i) => ({ i, at: [i, i] })),
    });

  it('two workers commit to their own runs at once; each reads the other’s log', async () => {
    const url = await freshDb();
    const [w1, w2] = await Promise.all([
      PgRunLog.connect(url, { max: 3 }),
      PgRunLog.connect(url, { max: 3 }),
    ]);
    try {
      // the same big constant in both workers' states: both insert its blobs at the same moment
      const shared = deepFreeze({ config: 'c'.repeat(500), table: Array.from({ length: 100 }, (_, i) => i) });
      const work = async (w: PgRunLog, runId: string) => {
        await w.createRun(newRun(runId));
        let seq = 1;
        for (let n = 1; n <= 40; n++) {
          const st = bigState(n, shared);
          const events = [
            ev(runId, seq, 'nav_step', { step: n, containers: st }),
            ...Array.from({ length: 9 }, (_, i) => ev(runId, seq + 1 + i, 'exec_log', { step: n, i })),
          ];
          seq += events.length;
          await w.commit(runId, { events, checkpoint: { step: n, state: st }, steps: n });
        }
      };
      await Promise.all([work(w1, 'worker1_run'), work(w1, 'worker1_run2'), work(w2, 'worker2_run')]);
      for (const [reader, runId] of [
        [w2, 'worker1_run'],
        [w2, 'worker1_run2'],
        [w1, 'worker2_run'],
      ] as const) {
        expect(await reader.getRun(runId)).toMatchObject({ steps: 40, last_seq: 400 });
        const events = await reader.events(runId, 0, 1000);
        expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
        expect(await reader.lastCheckpoint(runId)).toEqual({
          step: 40,
          seq: 400,
          state: bigState(40, shared),
        });
        expect((await reader.checkpoint(runId, 7))?.state).toEqual(bigState(7, shared));
      }
      // the shared constant is stored once, not once per worker or per step
      const hashes = await query<{ n: number }>(
        url,
        `SELECT count(*)::int AS n FROM blobs WHERE json LIKE '%' || repeat('c', 500) || '%'`,
      );
      expect(hashes).toEqual([{ n: 1 }]);
    } finally {
      await Promise.all([w1.close(), w2.close()]);
    }
  });

  it('stores unchanged sub-state once (content-addressed checkpoints)', async () => {
    const url = await freshDb();
    const log = await PgRunLog.connect(url, { max: 2 });
    const blobs = async () => (await query<{ n: number }>(url, 'SELECT count(*)::int AS n FROM blobs'))[0]!.n;
    /** One step: a small event (checkpoints are keyed by the seq they follow) and the checkpoint. */
    const at = (runId: string, n: number, state: unknown) => ({
      events: [ev(runId, n, 'exec_log', { step: n })],
      checkpoint: { step: n, state },
    });
    try {
      await log.createRun(newRun('dedup'));
      const base = deepFreeze({
        a: 'x'.repeat(300),
        b: { deep: 'y'.repeat(300) },
        list: Array.from({ length: 64 }, (_, i) => `item ${i} `.repeat(4)),
      });
      await log.commit('dedup', at('dedup', 1, base));
      const after1 = await blobs();
      // the identical value again (a fresh, equal copy: no identity cache can help): nothing new
      await log.commit('dedup', at('dedup', 2, deepFreeze(structuredClone(base))));
      expect(await blobs()).toBe(after1);
      // one slot changes: only the path to it is new (root + the changed value)
      await log.commit('dedup', at('dedup', 3, deepFreeze({ ...base, a: 'z'.repeat(300) })));
      expect((await blobs()) - after1).toBeLessThanOrEqual(2);
      // a second process writing the same value adds nothing either
      const other = await PgRunLog.connect(url, { max: 1 });
      await other.createRun(newRun('dedup2'));
      await other.commit('dedup2', at('dedup2', 1, structuredClone(base)));
      await other.close();
      expect((await blobs()) - after1).toBeLessThanOrEqual(2);
    } finally {
      await log.close();
    }
  });

  it('refuses a commit to a run that does not exist (or was deleted by another worker)', async () => {
    const url = await freshDb();
    const [a, b] = await Promise.all([PgRunLog.connect(url, { max: 1 }), PgRunLog.connect(url, { max: 1 })]);
    try {
      await expect(a.commit('ghost', { events: [ev('ghost', 1, 'exec_log', { x: 1 })] })).rejects.toThrow(
        /unknown run ghost/,
      );
      await a.createRun(newRun('gone'));
      await a.commit('gone', { events: [ev('gone', 1, 'exec_log', { x: 1 })] });
      await b.deleteRun('gone');
      await expect(a.commit('gone', { events: [ev('gone', 2, 'exec_log', { x: 2 })] })).rejects.toThrow(
        /unknown run gone/,
      );
      expect(await query(url, 'SELECT count(*)::int AS n FROM events')).toEqual([{ n: 0 }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('returns bigint columns as numbers and keeps the pg defaults of other pools', async () => {
    const log = await PgRunLog.connect(pgServer().url, { max: 1 });
    try {
      await log.createRun(newRun(`types_${process.pid}`));
      const r = await log.getRun(`types_${process.pid}`);
      expect(typeof r?.last_seq).toBe('number');
      expect(typeof r?.steps).toBe('number');
    } finally {
      await log.close();
    }
    expect(await query(pgServer().url, 'SELECT 1::bigint AS n')).toEqual([{ n: '1' }]);
  });
});
