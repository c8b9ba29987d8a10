// Event pages: every protocol event type reads back exactly as committed (unicode, big and tiny
// numbers, nested objects), whether it is paged or kept as a row, through every read path (paging,
// type filter, a fresh store); a database written before pages (schema 2, one row per event) is
// upgraded in place and still reads the same, with new pages merged after its rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_TYPES, type EventEnvelope } from '../../domain/protocol/protocol.ts';
import { BlobStore } from './blobStore.ts';
import { closeDatabase, openDatabase, SCHEMA_VERSION, type Db } from './database.ts';
import { decodePage, encodePage, PAGED_TYPES } from './eventPages.ts';
import { RunStore } from './runStore.ts';
import { ShapeStore } from './shapes.ts';
import { testRun } from './testRun.testutil.ts';
import { dropColumnsOfVersion6AndLater } from './oldSchema.testutil.ts';

const payload = (i: number) => ({
  step: i,
  node_id: `nöde-✓-😀-${i}`,
  label: 'line\nbreak "quoted" \\ back\u2028sep \u0000 nul',
  big: Number.MAX_SAFE_INTEGER,
  huge: -1.5e300,
  tiny: 5e-324,
  neg: -7,
  nested: { a: [1, { b: [null, true, 'x', { c: {} }] }], empty: [] },
});

const ev = (seq: number, type: EventEnvelope['type'], data: unknown): EventEnvelope => ({
  type,
  runId: 'r',
  seq,
  ts: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, seq * 7)).toISOString(),
  data,
});

describe('event page codec', () => {
  it('round-trips every event type with seq, type, ts and data', () => {
    const events = EVENT_TYPES.map((type, i) => ({
      seq: 10 + i * 3,
      type,
      ts: 1_767_225_600_000 + i,
      data: payload(i),
    }));
    expect(decodePage(encodePage(events))).toEqual(events);
  });

  it('reads payloads as JSON would: undefined keys dropped, NaN and Infinity as null, bare values kept', () => {
    const data = [{ a: undefined, b: NaN, c: Infinity, d: -0 }, 'bare string', 42, null, [undefined]];
    const events = data.map((d, i) => ({ seq: i + 1, type: 'exec_log', ts: 5, data: d }));
    expect(decodePage(encodePage(events)).map((e) => e.data)).toEqual(
      data.map((d) => JSON.parse(JSON.stringify(d)) as unknown),
    );
  });
});

describe('RunStore with event pages', () => {
  let db: Db;
  let store: RunStore;
  beforeEach(() => {
    db = openDatabase(':memory:');
    store = new RunStore(db);
    store.createRun(testRun('r'));
  });
  afterEach(() => closeDatabase(db));

  it('every protocol event type comes back exactly, in seq order, through every read path', () => {
    // Two steps, each mixing paged types and rows, committed as one step per part.
    const all = EVENT_TYPES.map((type, i) => ev(i + 1, type, payload(i)));
    const half = Math.ceil(all.length / 2);
    store.commit('r', { earlier: [{ events: all.slice(0, half) }], events: all.slice(half) });
    expect(store.events('r', 0, 1000)).toEqual(all);
    expect(new RunStore(db).events('r', 0, 1000)).toEqual(all);
    // paging one by one and by odd page sizes crosses page and row boundaries
    for (const size of [1, 2, 5]) {
      const got: EventEnvelope[] = [];
      for (let after = 0; ;) {
        const page = store.events('r', after, size);
        if (page.length === 0) break;
        expect(page.length).toBeLessThanOrEqual(size);
        got.push(...page);
        after = page[page.length - 1]!.seq;
      }
      expect(got).toEqual(all);
    }
    for (const type of EVENT_TYPES) {
      expect(store.events('r', 0, 1000, type)).toEqual(all.filter((e) => e.type === type));
      expect(store.events('r', 0, 1, type)).toEqual(all.filter((e) => e.type === type).slice(0, 1));
    }
    // one page per committed part that holds a paged type, none for the rest
    const parts = [all.slice(0, half), all.slice(half)];
    const pages = (db.prepare('SELECT COUNT(*) AS n FROM event_pages').get() as { n: number }).n;
    expect(pages).toBe(parts.filter((p) => p.some((e) => PAGED_TYPES.has(e.type))).length);
    expect(pages).toBeGreaterThan(0);
  });

  it('refuses a seq that is not after the last one (a page has no key of its own to refuse it)', () => {
    store.commit('r', { events: [ev(1, 'exec_log', payload(1)), ev(2, 'node_status', payload(2))] });
    expect(() => store.commit('r', { events: [ev(2, 'exec_log', payload(3))] })).toThrow(/not after/);
    expect(() =>
      store.commit('r', { events: [ev(3, 'exec_log', payload(3)), ev(3, 'node_status', payload(3))] }),
    ).toThrow(/not after/);
    expect(store.events('r', 0, 10).map((e) => e.seq)).toEqual([1, 2]);
    expect(store.getRun('r')?.last_seq).toBe(2);
  });

  it('deleting a run counts and removes its paged events', () => {
    store.commit('r', { events: [ev(1, 'exec_log', payload(1)), ev(2, 'nav_status', payload(2))] });
    expect(store.deleteRun('r')).toEqual({ events: 2, checkpoints: 0 });
    expect((db.prepare('SELECT COUNT(*) AS n FROM event_pages').get() as { n: number }).n).toBe(0);
  });
});

describe('a database written before event pages (schema 2)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sw-pages-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is upgraded to the current schema and reads its rows as before, new pages merged after them', () => {
    const path = join(dir, 'runs.db');
    // The old layout: schema 2 (no event_pages) with one row per event, encoded as the old code did:
    // shape-interned (enc 2), plain JSON (enc 0) and blob roots (enc 1).
    const old = openDatabase(path);
    const shapes = new ShapeStore(old);
    const blobs = new BlobStore(old);
    old.exec('DROP TABLE event_pages; DROP TABLE blob_segments');
    dropColumnsOfVersion6AndLater(old);
    old.pragma('user_version = 2');
    old
      .prepare(
        `INSERT INTO runs (id, graph_name, graph_hash, status, started_at, lineage) VALUES ('r', 'g', ?, 'running', '2026-01-01T00:00:00.000Z', 'r')`,
      )
      .run(blobs.put({ name: 'g', nodes: [] }));
    const rid = (old.prepare('SELECT rid FROM runs WHERE id = ?').get('r') as { rid: number }).rid;
    const legacy = [
      ev(1, 'nav_status', { status: 'running', step: 0 }),
      ev(2, 'node_status', payload(1)),
      ev(3, 'exec_log', payload(1)),
      ev(4, 'viewer_data', { node_id: 'v', step: 1, fields: { text: 'ü'.repeat(200) } }),
      ev(5, 'signal', 'a bare string'),
      ev(6, 'nav_step', { step: 1, containers: {}, nodeStates: { a: { big: 'x'.repeat(200) } } }),
    ];
    const insert = old.prepare(
      'INSERT INTO events (run, seq, type, ts, step, enc, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    old.transaction(() => {
      for (const e of legacy) {
        const step = (e.data as { step?: number }).step ?? null;
        const ts = Date.parse(e.ts);
        if (e.type === 'viewer_data' || e.type === 'nav_step')
          insert.run(rid, e.seq, e.type, ts, step, 1, blobs.put(e.data));
        else {
          const shaped = shapes.encode(e.data);
          insert.run(rid, e.seq, e.type, ts, step, shaped ? 2 : 0, shaped ?? JSON.stringify(e.data));
        }
      }
      old.prepare('UPDATE runs SET last_seq = 6, steps = 1 WHERE rid = ?').run(rid);
    })();
    closeDatabase(old);

    const db = openDatabase(path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const store = new RunStore(db);
      expect(store.events('r', 0, 100)).toEqual(legacy);
      expect(store.events('r', 0, 100, 'exec_log')).toEqual([legacy[2]]);
      expect(store.stateEvents('r', 1).base).toEqual(legacy[5]);
      // The run continues under the new layout: its next step's events go to a page.
      const next = [ev(7, 'node_status', payload(2)), ev(8, 'exec_log', payload(2)), ev(9, 'signal', 'x')];
      store.commit('r', { events: next, steps: 2 });
      expect(store.events('r', 0, 100)).toEqual([...legacy, ...next]);
      expect(store.events('r', 1, 3)).toEqual(legacy.slice(1, 4));
      expect(store.events('r', 0, 100, 'exec_log')).toEqual([legacy[2], next[1]]);
      expect(PAGED_TYPES.has('exec_log')).toBe(true);
      expect((db.prepare('SELECT COUNT(*) AS n FROM event_pages').get() as { n: number }).n).toBe(1);
    } finally {
      closeDatabase(db);
    }
  });
});
