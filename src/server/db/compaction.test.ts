// Compaction of finished runs (compaction.ts): every read returns exactly what it returned before
// (all event types, unicode, big numbers, nested objects, arrays from node services), in the
// process that compacted and in a fresh one; the file shrinks; a blob written after packing never
// reuses a packed id; a compaction step that fails half-way leaves the old rows readable; a
// database written by the schema-3 code (no segments, no auto_vacuum) is compacted too.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, SCHEMA_VERSION, type Db } from './database.ts';
import { Compactor } from './compaction.ts';
import { readEverything, writeVariedRun } from './compaction.testutil.ts';
import { RunStore } from './runStore.ts';
import { dropColumnsOfVersion6AndLater } from './oldSchema.testutil.ts';

const STEPS = 40;
// Small chunks: 40 steps already span many segments and packed pages, so reads cross their edges.
const SMALL = { segmentBytes: 6 * 1024, pageInputBytes: 900 };

const count = (db: Db, sql: string) => (db.prepare(sql).get() as { n: number }).n;
/** Compacts run `runId` (or, without one, whatever a start would find) to the end; false if a step failed. */
function compact(db: Db, runId?: string): boolean {
  const compactor = new Compactor(db, SMALL);
  if (runId === undefined) compactor.resume();
  else compactor.runEnded(runId);
  return compactor.drain(60_000);
}
/** Runs `fn` on the test's database file, closing it after. */
function withDb(fn: (db: Db) => void): void {
  const db = openDatabase(path);
  try {
    fn(db);
  } finally {
    closeDatabase(db);
  }
}
const unpackedPages = (db: Db) =>
  count(db, "SELECT COUNT(*) AS n FROM event_pages WHERE substr(data, 1, 1) != x'ff'");

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sw-compact-'));
  path = join(dir, 'runs.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('compaction of a finished run', () => {
  it('keeps every read path exactly the same, packs blobs and pages, and shrinks the file', () => {
    const db = openDatabase(path);
    const store = new RunStore(db);
    writeVariedRun(store, 'r', STEPS);
    const before = readEverything(new RunStore(db), 'r', STEPS);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const sizeBefore = statSync(path).size;
    const rowsBefore = count(db, 'SELECT COUNT(*) AS n FROM blobs');

    expect(compact(db, 'r')).toBe(true);

    expect(count(db, 'SELECT COUNT(*) AS n FROM blobs')).toBe(1); // the top row stays (see blobPacking.ts)
    expect(count(db, 'SELECT COUNT(*) AS n FROM blob_segments')).toBeGreaterThan(5);
    expect(rowsBefore).toBeGreaterThan(100);
    expect(unpackedPages(db)).toBe(0);
    expect(count(db, 'SELECT COUNT(*) AS n FROM event_pages')).toBeGreaterThan(3);
    expect(count(db, 'SELECT COUNT(*) AS n FROM event_pages')).toBeLessThan(STEPS / 3);
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    // Same answers from the store that wrote (its caches) and from a fresh one (segments only).
    expect(readEverything(store, 'r', STEPS)).toEqual(before);
    expect(readEverything(new RunStore(db), 'r', STEPS)).toEqual(before);
    closeDatabase(db);
    expect(statSync(path).size).toBeLessThan(sizeBefore * 0.75);

    const reopened = openDatabase(path);
    try {
      expect(readEverything(new RunStore(reopened), 'r', STEPS)).toEqual(before);
    } finally {
      closeDatabase(reopened);
    }
  });

  it('a value written after packing gets a new id above every packed one, and old ids keep their values', () => {
    withDb((db) => {
      const store = new RunStore(db);
      writeVariedRun(store, 'a', 5);
      const before = readEverything(new RunStore(db), 'a', 5);
      const top = count(db, 'SELECT MAX(id) AS n FROM blobs');
      expect(compact(db, 'a')).toBe(true);
      expect(count(db, 'SELECT MAX(id) AS n FROM blobs')).toBe(top);
      // A fresh store (a restarted server) dedups only against rows: the same run again gets new rows.
      const fresh = new RunStore(db);
      writeVariedRun(fresh, 'b', 5);
      expect(count(db, `SELECT MIN(id) AS n FROM blobs WHERE id != ${top}`)).toBeGreaterThan(top);
      expect(readEverything(new RunStore(db), 'a', 5)).toEqual(before);
      const b = readEverything(new RunStore(db), 'b', 5);
      expect(b.all).toEqual((before.all as { runId: string }[]).map((e) => ({ ...e, runId: 'b' })));
      // The same states (the envelopes differ only in their run id).
      expect(JSON.stringify(b.at).replaceAll('"runId":"b"', '"runId":"a"')).toBe(JSON.stringify(before.at));
      const values = (x: Record<string, unknown>) => (x.list as { value: unknown }[]).map((c) => c.value);
      expect(values(b)).toEqual(values(before));
    });
  });

  it('a compaction step that fails half-way (a real SQLite error) leaves the old rows readable', () => {
    withDb((db) => {
      const store = new RunStore(db);
      writeVariedRun(store, 'r', 12);
      const before = readEverything(new RunStore(db), 'r', 12);
      const blobs = count(db, 'SELECT COUNT(*) AS n FROM blobs');
      const pages = count(db, 'SELECT COUNT(*) AS n FROM event_pages');
      // Fails after the segment (or packed page) is inserted and some old rows are already deleted.
      db.exec(`CREATE TRIGGER fail_blob BEFORE DELETE ON blobs WHEN old.id = 20 BEGIN SELECT RAISE(ABORT, 'injected'); END;
               CREATE TRIGGER fail_page BEFORE DELETE ON event_pages WHEN old.seq > 150 BEGIN SELECT RAISE(ABORT, 'injected'); END;`);
      expect(compact(db, 'r')).toBe(false);
      expect(count(db, 'SELECT COUNT(*) AS n FROM blob_segments')).toBe(0);
      expect(count(db, 'SELECT COUNT(*) AS n FROM blobs')).toBe(blobs);
      expect(readEverything(new RunStore(db), 'r', 12)).toEqual(before);
      // Pages: the groups before the failing one were packed (one transaction each), the rest stay.
      expect(unpackedPages(db)).toBeGreaterThan(0);
      expect(count(db, 'SELECT COUNT(*) AS n FROM event_pages')).toBeLessThan(pages);

      db.exec('DROP TRIGGER fail_blob; DROP TRIGGER fail_page');
      expect(compact(db)).toBe(true);
      expect(unpackedPages(db)).toBe(0);
      expect(count(db, 'SELECT COUNT(*) AS n FROM blobs')).toBe(1);
      expect(readEverything(store, 'r', 12)).toEqual(before);
      expect(readEverything(new RunStore(db), 'r', 12)).toEqual(before);
    });
  });

  it('compacts a database written by the schema-3 code (no blob_segments, auto_vacuum off)', () => {
    // A file created before this version: the pragma could not be set on it (tables existed).
    const raw = new Database(path);
    raw.exec('CREATE TABLE legacy_marker (x)');
    raw.close();
    const old = openDatabase(path);
    expect(old.pragma('auto_vacuum', { simple: true })).toBe(0);
    writeVariedRun(new RunStore(old), 'r', 20);
    old.exec('DROP TABLE blob_segments');
    // …nor the columns of later versions (6: graph versions, 7: the run list).
    dropColumnsOfVersion6AndLater(old);
    old.pragma('user_version = 3');
    closeDatabase(old);

    withDb((db) => {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const before = readEverything(new RunStore(db), 'r', 20);
      const store = new RunStore(db);
      store.compaction.resume(); // a start finds the finished run and the loose blobs
      expect(store.compaction.drain(60_000)).toBe(true);
      expect(unpackedPages(db)).toBe(0);
      expect(count(db, 'SELECT COUNT(*) AS n FROM blobs')).toBe(1);
      expect(readEverything(store, 'r', 20)).toEqual(before);
      expect(readEverything(new RunStore(db), 'r', 20)).toEqual(before);
      // No auto_vacuum: the freed pages stay in the file, and the next writes reuse them.
      const free = db.pragma('freelist_count', { simple: true }) as number;
      expect(free).toBeGreaterThan(0);
      writeVariedRun(store, 's', 3);
      expect(db.pragma('freelist_count', { simple: true })).toBeLessThan(free);
    });
  });

  it('leaves a live run alone: only runs that ended are re-paged', () => {
    withDb((db) => {
      const store = new RunStore(db);
      writeVariedRun(store, 'done', 6);
      writeVariedRun(store, 'live', 6);
      db.prepare("UPDATE runs SET status = 'running', ended_at = NULL WHERE id = 'live'").run();
      const live = readEverything(new RunStore(db), 'live', 6);
      expect(compact(db)).toBe(true);
      const rid = (id: string) => count(db, `SELECT rid AS n FROM runs WHERE id = '${id}'`);
      expect(
        count(
          db,
          `SELECT COUNT(*) AS n FROM event_pages WHERE run = ${rid('live')} AND substr(data, 1, 1) = x'ff'`,
        ),
      ).toBe(0);
      expect(
        count(
          db,
          `SELECT COUNT(*) AS n FROM event_pages WHERE run = ${rid('done')} AND substr(data, 1, 1) != x'ff'`,
        ),
      ).toBe(0);
      expect(readEverything(new RunStore(db), 'live', 6)).toEqual(live);
    });
  });

  it('waits in the background while yieldWhile holds (a flat-out run), then packs', async () => {
    const db = openDatabase(path);
    try {
      writeVariedRun(new RunStore(db), 'r', 6);
      const compactor = new Compactor(db, SMALL);
      let busy = true;
      compactor.yieldWhile(() => busy);
      compactor.runEnded('r');
      await new Promise((r) => setTimeout(r, 300));
      // Nothing packed while busy: not even the sweep's first chunk ran.
      expect(unpackedPages(db)).toBeGreaterThan(0);
      expect(count(db, 'SELECT COUNT(*) AS n FROM blob_segments')).toBe(0);
      busy = false;
      const deadline = Date.now() + 10_000;
      while (compactor.pending && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(compactor.pending).toBe(false);
      expect(unpackedPages(db)).toBe(0);
      expect(count(db, 'SELECT COUNT(*) AS n FROM blob_segments')).toBeGreaterThan(0);
    } finally {
      closeDatabase(db);
    }
  });
});
