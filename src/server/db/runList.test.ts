// The run list of the embedded store (RunStore.listPage, GET /api/runs in embedded mode): newest
// first, keyset pages that neither skip nor repeat a row (ties on started_at broken by id), exact
// filters by graph, status, kind and batch, each row's kind and batch; and the route's 400s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRunCursor } from '../../domain/protocol/protocol.rest.ts';
import { createServer, type StatewireServer } from '../app.ts';
import { closeDatabase, openDatabase, type Db } from './database.ts';
import { dropColumnsOfVersion6AndLater } from './oldSchema.testutil.ts';
import type { RunListQuery } from './runList.ts';
import type { BatchRecord } from '../../domain/batch/batch.types.ts';
import { hasPostgres, startPostgres } from '../test/pgServer.ts';
import { PgRunLog } from './pgRunLog.ts';
import { RunStore, type NewRun } from './runStore.ts';
import { testRun } from './testRun.testutil.ts';

describe('RunStore.listPage', () => {
  let db: Db;
  let store: RunStore;
  beforeAll(() => {
    db = openDatabase(':memory:');
    store = new RunStore(db);
    // 30 runs; three share each started_at (ties), graphs a/b/c, every 4th failed.
    for (let i = 0; i < 30; i++)
      store.createRun({
        ...testRun(`r${String(i).padStart(2, '0')}`),
        graphName: ['a', 'b', 'c'][i % 3]!,
        status: i % 4 === 0 ? 'error' : 'done',
        startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3))).toISOString(),
        parentRunId: i % 5 === 0 && i > 0 ? 'r00' : null,
      });
    store.createRun({ ...testRun('imp'), kind: 'imported', startedAt: '2025-01-01T00:00:00.000Z' });
    db.prepare(
      `INSERT INTO batches (id, graph_name, graph, episodes, workers, seed, sets, mode, status, created_at)
       VALUES ('batch_x', 'g', '{}', 2, 1, 1, '[]', 'embedded', 'done', '2025-01-01T00:00:00.000Z')`,
    ).run();
    for (const e of [1, 2])
      store.createRun({ ...testRun(`batch_x_e${e}`), startedAt: `2025-01-0${e}T00:00:00.000Z` });
  });
  afterAll(() => closeDatabase(db));

  const ids = (q: Partial<RunListQuery>) => store.listPage({ limit: 500, ...q }).map((r) => r.id);

  it('pages newest first by (started_at, id) without skipping or repeating a row', () => {
    const all = ids({});
    expect(all).toHaveLength(33);
    expect(all.slice(0, 4)).toEqual(['r29', 'r28', 'r27', 'r26']);
    const paged: string[] = [];
    let before: RunListQuery['before'];
    for (;;) {
      const page = store.listPage({ limit: 4, ...(before ? { before } : {}) });
      paged.push(...page.map((r) => r.id));
      const last = page[page.length - 1];
      if (page.length < 4 || !last) break;
      before = { startedAt: last.started_at, id: last.id };
    }
    expect(paged).toEqual(all);
  });

  it('filters by graph, status, kind and batch, and says each row’s kind and batch', () => {
    expect(ids({ graph: 'b' })).toEqual(
      all(30)
        .filter((i) => i % 3 === 1)
        .map(rid),
    );
    expect(ids({ status: 'error', graph: 'a' })).toEqual(
      all(30)
        .filter((i) => i % 3 === 0 && i % 4 === 0)
        .map(rid),
    );
    expect(ids({ kind: 'fork' })).toEqual(['r25', 'r20', 'r15', 'r10', 'r05']);
    expect(ids({ kind: 'imported' })).toEqual(['imp']);
    expect(ids({ kind: 'episode' })).toEqual(['batch_x_e2', 'batch_x_e1']);
    const episodes = store.listPage({ limit: 10, batch: 'batch_x' });
    expect(episodes.map((r) => [r.id, r.kind, r.batch])).toEqual([
      ['batch_x_e2', 'episode', { id: 'batch_x', episode: 2, episodes: 2, status: 'done' }],
      ['batch_x_e1', 'episode', { id: 'batch_x', episode: 1, episodes: 2, status: 'done' }],
    ]);
    expect(store.listPage({ limit: 1, graph: 'c' })[0]).toMatchObject({ kind: 'run', batch: null });
  });
});

describe.skipIf(!hasPostgres())('PgRunLog.listPage', () => {
  it('lists the same pages as the SQLite store for the same runs (filters, kinds, batches, cursors)', async () => {
    const pg = await startPostgres();
    const log = await PgRunLog.connect(pg.url);
    const db = openDatabase(':memory:');
    try {
      const store = new RunStore(db);
      const runs: NewRun[] = [];
      for (let i = 0; i < 24; i++)
        runs.push({
          ...testRun(i % 6 === 5 ? `batch_q_e${i}` : `r${String(i).padStart(2, '0')}`),
          graphName: ['a', 'b'][i % 2]!,
          status: i % 3 === 0 ? 'error' : 'done',
          startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 4))).toISOString(),
          parentRunId: i % 7 === 3 ? 'r00' : null,
          ...(i === 2 ? { kind: 'imported' as const } : i === 4 ? { kind: 'branch' as const } : {}),
        });
      const batch = {
        id: 'batch_q',
        graph_name: 'g',
        graph: {},
        episodes: 4,
        workers: 1,
        seed: 1,
        sets: [],
        mode: 'distributed',
        status: 'running',
        created_at: '2026-01-01T00:00:00.000Z',
        ended_at: null,
        error: null,
      } as unknown as BatchRecord;
      await log.createBatch(batch);
      db.prepare(
        `INSERT INTO batches (id, graph_name, graph, episodes, workers, seed, sets, mode, status, created_at)
         VALUES ('batch_q', 'g', '{}', 4, 1, 1, '[]', 'distributed', 'running', '2026-01-01T00:00:00.000Z')`,
      ).run();
      for (const r of runs) {
        store.createRun(r);
        await log.createRun(r);
      }
      const mid = store.listPage({ limit: 9 })[8]!;
      const queries: RunListQuery[] = [
        { limit: 100 },
        { limit: 5 },
        { limit: 7, before: { startedAt: mid.started_at, id: mid.id } },
        { limit: 100, graph: 'a', status: 'error' },
        { limit: 100, kind: 'fork' },
        { limit: 100, kind: 'imported' },
        { limit: 100, kind: 'branch' },
        { limit: 100, kind: 'episode' },
        { limit: 2, batch: 'batch_q' },
      ];
      for (const q of queries) {
        const [fromPg, fromSqlite] = [await log.listPage(q), store.listPage(q)];
        expect(fromPg.length, JSON.stringify(q)).toBeGreaterThan(0);
        expect(fromPg, JSON.stringify(q)).toEqual(fromSqlite);
      }
      expect((await log.listPage({ limit: 1, batch: 'batch_q' }))[0]?.batch).toEqual({
        id: 'batch_q',
        episode: 23,
        episodes: 4,
        status: 'running',
      });
    } finally {
      closeDatabase(db);
      await log.close();
      await pg.stop();
    }
  }, 120_000);
});

describe('migration 7 (kind and batch columns)', () => {
  it('gives rows of an older file their kind and batch: forks, episodes, branches, imports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'statewire-runlist-mig-'));
    try {
      const path = join(dir, 'runs.db');
      const old = openDatabase(path);
      new RunStore(old); // creates run_branches
      dropColumnsOfVersion6AndLater(old);
      old.exec(`CREATE TABLE run_imports (run_id TEXT PRIMARY KEY, original_run_id TEXT NOT NULL,
        exported_at TEXT NOT NULL, imported_at TEXT NOT NULL) WITHOUT ROWID`);
      const insert = old.prepare(
        `INSERT INTO runs (id, graph_name, graph_hash, status, started_at, parent_run_id, lineage)
         VALUES (?, 'g', '"x"', 'done', '2026-01-01T00:00:00.000Z', ?, 'l')`,
      );
      for (const [id, parent] of [
        ['plain', null],
        ['forked', 'plain'],
        ['batch_7_e12', null],
        ['branched', 'plain'],
        ['brought', null],
      ] as const)
        insert.run(id, parent);
      old.exec(`INSERT INTO run_branches (run_id, of_run, at_step, from_seq, to_seq, created_at)
        VALUES ('branched', 'plain', 1, 1, 2, '2026-01-01T00:00:00.000Z')`);
      old.exec(`INSERT INTO run_imports VALUES ('brought', 'brought', 'x', 'y')`);
      old.pragma('user_version = 5');
      closeDatabase(old);

      const db = openDatabase(path);
      try {
        const store = new RunStore(db);
        const rows = store.listPage({ limit: 10 });
        expect(Object.fromEntries(rows.map((r) => [r.id, r.kind]))).toEqual({
          plain: 'run',
          forked: 'fork',
          batch_7_e12: 'episode',
          branched: 'branch',
          brought: 'imported',
        });
        expect(store.listPage({ limit: 10, batch: 'batch_7' }).map((r) => r.id)).toEqual(['batch_7_e12']);
      } finally {
        closeDatabase(db);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const all = (n: number) => Array.from({ length: n }, (_, i) => n - 1 - i);
const rid = (i: number) => `r${String(i).padStart(2, '0')}`;

describe('GET /api/runs (embedded)', () => {
  let dir: string;
  let server: StatewireServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statewire-runlist-'));
    server = await createServer({ workspace: dir, port: 0, distDir: join(dir, 'dist'), distributed: null });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (q: string) => {
    const r = await server.app.inject({ method: 'GET', url: `/api/runs${q}` });
    return { status: r.statusCode, body: r.json() as { error?: { message: string } } };
  };

  it('answers 400 naming the bad parameter', async () => {
    for (const [q, where] of [
      ['?limit=0', '$.query.limit'],
      ['?limit=501', '$.query.limit'],
      ['?limit=ten', '$.query.limit'],
      ['?before=%25%25', '$.query.before'],
      [`?before=${encodeRunCursor('x', 'y').slice(0, 5)}`, '$.query.before'],
      ['?kind=sideways', '$.query.kind'],
      ['?graph=', '$.query.graph'],
    ] as const) {
      const r = await get(q);
      expect(r.status, q).toBe(400);
      expect(r.body.error?.message, q).toContain(where);
    }
    const r = await get('?colour=red');
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toContain('colour');
  });

  it('answers a page (an empty list here) for good parameters, with or without a cursor', async () => {
    expect(await get('')).toEqual({ status: 200, body: [] });
    const cursor = encodeRunCursor('2026-01-01T00:00:00.000Z', 'r1');
    expect(await get(`?limit=500&kind=fork&status=done&graph=g&batch=b&before=${cursor}`)).toEqual({
      status: 200,
      body: [],
    });
  });
});
