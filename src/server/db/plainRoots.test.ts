// Plain roots (BlobStore.putPlain, RunStore.commit with `plain`): what a run driven flat out writes
// reads back exactly as the Merkle encoding would, values that plain JSON could not carry (marker-
// shaped objects, arrays from node services) are encoded at once, and compaction encodes the plain
// rows of a finished run — also after a restart — leaving the same reads and the same blob rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { makeNdArray } from '../../domain/services/ndarray.ts';
import { deepFreeze } from '../../engine/freeze.ts';
import { PlainEncoder } from './plainEncoding.ts';
import { isPlainRoot } from './blobStore.ts';
import { closeDatabase, openDatabase, type Db } from './database.ts';
import { readEverything } from './compaction.testutil.ts';
import { RunStore } from './runStore.ts';
import { testRun } from './testRun.testutil.ts';

const STEPS = 30;
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sw-plain-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const count = (db: Db, sql: string) => (db.prepare(sql).get() as { n: number }).n;
const plainEvents = (db: Db) =>
  count(db, "SELECT COUNT(*) AS n FROM events WHERE enc = 1 AND substr(data, 1, 1) = ' '");
const plainCheckpoints = (db: Db) =>
  count(db, "SELECT COUNT(*) AS n FROM checkpoints WHERE substr(root, 1, 1) = ' '");

/** Values plain JSON must carry exactly: unicode, escapes, extreme numbers, an own __proto__ key. */
const odd = (i: number) =>
  JSON.parse(
    JSON.stringify({
      step: i,
      label: `nöde ✓ 😀 "q" \\ \u2028 \u0000 ${i}`,
      big: Number.MAX_SAFE_INTEGER - i,
      tiny: 5e-324,
      nested: { a: [1, { b: [null, true, {}] }], empty: [] },
    }).replace('"tiny"', '"__proto__":{"x":1},"tiny"'),
  ) as Record<string, unknown>;

/**
 * Writes a run the way the live loop does: groups of `group` steps per commit, `plain` as a flat-out
 * run, with shared frozen records step after step and a list that outgrows one chunk.
 */
function writeRun(
  store: RunStore,
  runId: string,
  opts: { plain: boolean; extra?: (step: number) => unknown; end?: boolean },
): void {
  store.createRun(testRun(runId));
  let seq = 0;
  const ev = (type: EventEnvelope['type'], data: unknown): EventEnvelope => ({
    type,
    runId,
    seq: ++seq,
    ts: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, seq)).toISOString(),
    data,
  });
  const fixed = deepFreeze({ text: 'ü'.repeat(300), map: { a: odd(0) } });
  let trail: readonly unknown[] = deepFreeze([]);
  let group: { events: EventEnvelope[]; checkpoint: { step: number; state: unknown } }[] = [];
  for (let step = 1; step <= STEPS; step++) {
    trail = deepFreeze([...trail, { at: step, note: `step ${step}` }]);
    const state = deepFreeze({
      containers: { memory: { trail, fixed }, graph_state: { pos: odd(step), extra: opts.extra?.(step) } },
      nodeStates: { loop: { count: step } },
    });
    group.push({
      events: [
        ev('state_written', { step, container: 'memory', slot: 'trail', after: trail }),
        ev('viewer_data', { step, node_id: 'v', data: odd(step) }),
        ev('node_status', { step, node_id: 'v', status: 'done' }),
        ev('nav_step', { step, containers: state.containers }),
      ],
      checkpoint: { step, state },
    });
    if (group.length === 4 || step === STEPS) {
      const [last, ...earlier] = [group.pop()!, ...group];
      store.commit(runId, { earlier, ...last, steps: step, plain: opts.plain });
      group = [];
    }
  }
  if (opts.end !== false)
    store.commit(runId, { events: [], status: 'done', endedAt: '2026-01-01T01:00:00.000Z' });
}

/** Every read of a run, less the stored form of checkpoint roots (plain or encoded: same values). */
function reads(store: RunStore, runId: string): Record<string, unknown> {
  const all = readEverything(store, runId, STEPS);
  return { ...all, list: (all.list as { root: string }[]).map(({ root: _root, ...rest }) => rest) };
}

function withStore<T>(name: string, fn: (store: RunStore, db: Db) => T): T {
  const db = openDatabase(join(dir, name));
  try {
    return fn(new RunStore(db), db);
  } finally {
    closeDatabase(db);
  }
}

describe('plain roots', () => {
  it('are written plain, read back exactly as the Merkle encoding, and compaction encodes them to the same blobs', () => {
    const merkle = withStore('m.db', (store, db) => {
      writeRun(store, 'r', { plain: false });
      expect(plainEvents(db) + plainCheckpoints(db)).toBe(0);
      return reads(store, 'r');
    });
    withStore('p.db', (store, db) => {
      writeRun(store, 'r', { plain: true });
      // state_written, nav_step (viewer_data goes to a page) and the checkpoint: plain, no blob rows.
      expect(plainEvents(db)).toBe(2 * STEPS);
      expect(plainCheckpoints(db)).toBe(STEPS);
      expect(reads(store, 'r')).toEqual(merkle);
      expect(reads(new RunStore(db), 'r')).toEqual(merkle);
      // Only the encoding step (packing would move the blob rows this test compares into segments).
      const encoder = new PlainEncoder(db, store.blobs, "('done')");
      expect(encoder.runsLeft()).toEqual([1]);
      let chunks = 0;
      while (encoder.encodeNext(1)) chunks++;
      expect(chunks).toBeGreaterThan(1); // 120 rows, 64 a chunk
      expect(encoder.runsLeft()).toEqual([]);
      expect(plainEvents(db) + plainCheckpoints(db)).toBe(0);
      expect(reads(new RunStore(db), 'r')).toEqual(merkle);
    });
    // Same content, same blobs: as many rows, and the same texts up to the ids inside references
    // (encoded later, the rows are inserted in another order).
    const blobsOf = (name: string) =>
      withStore(name, (_s, db) =>
        (db.prepare('SELECT json FROM blobs').all() as { json: string }[])
          .map((b) => b.json.replace(/\{"\$sw":\d+\}/g, '{"$sw":_}'))
          .sort(),
      );
    expect(blobsOf('p.db')).toEqual(blobsOf('m.db'));
  });

  it('are refused for values plain JSON would not carry: marker-shaped keys and arrays from services', () => {
    withStore('b.db', (store) => {
      store.db.transaction(() => {
        const blobs = store.blobs;
        expect(isPlainRoot(blobs.putPlain({ a: [1, 'ü', { b: null }] }))).toBe(true);
        expect(isPlainRoot(blobs.putPlain(null))).toBe(true);
        for (const v of [
          { a: { $sw: 1 } },
          { a: [{ $swc: [[1]] }] },
          { $swnd: [1, 'uint8', [1]] },
          { text: 'a "$sw inside a string is refused too (conservative)' },
          makeNdArray('uint8', [1], Uint8Array.of(7)),
        ])
          expect(isPlainRoot(blobs.putPlain(v))).toBe(false);
      })();
    });
  });

  it('encodes at once what plain JSON would not read back, and reads it back as the Merkle encoding does', () => {
    const extra = (step: number) => ({
      nd: { $swnd: [1, 'uint8', [1]] },
      image: makeNdArray('uint8', [2, 2], Uint8Array.from([step, 1, 2, 3])),
    });
    const merkle = withStore('m.db', (store) => {
      writeRun(store, 'r', { plain: false, extra });
      return reads(store, 'r');
    });
    withStore('p.db', (store, db) => {
      writeRun(store, 'r', { plain: true, extra });
      expect(plainCheckpoints(db)).toBe(0); // every checkpoint holds them
      expect(plainEvents(db)).toBe(STEPS); // state_written does not (nav_step does)
      const read = reads(new RunStore(db), 'r');
      expect(read).toEqual(merkle);
      const state = new RunStore(db).checkpoint('r', 3)!.state as {
        containers: { graph_state: { extra: ReturnType<typeof extra> } };
      };
      expect(state.containers.graph_state.extra.nd).toEqual({ $swnd: [1, 'uint8', [1]] });
      expect(state.containers.graph_state.extra.image.data).toEqual(Uint8Array.from([3, 1, 2, 3]));
    });
  });

  it('of a finished run are encoded by a compaction started after a restart; a live run keeps them', async () => {
    withStore('p.db', (store) => {
      writeRun(store, 'done', { plain: true });
      writeRun(store, 'live', { plain: true, end: false });
    });
    const before = withStore('p.db', (store) => ({
      done: reads(store, 'done'),
      live: reads(store, 'live'),
    }));
    const db = openDatabase(join(dir, 'p.db'));
    try {
      const store = new RunStore(db);
      store.compaction.resume();
      const deadline = Date.now() + 10_000;
      while (store.compaction.pending && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(store.compaction.pending).toBe(false);
      const rid = (id: string) => count(db, `SELECT rid AS n FROM runs WHERE id = '${id}'`);
      const plainOf = (id: string) =>
        count(
          db,
          `SELECT COUNT(*) AS n FROM events WHERE run = ${rid(id)} AND enc = 1 AND substr(data, 1, 1) = ' '`,
        );
      expect(plainOf('done')).toBe(0);
      expect(plainOf('live')).toBe(2 * STEPS);
      expect(reads(new RunStore(db), 'done')).toEqual(before.done);
      expect(reads(new RunStore(db), 'live')).toEqual(before.live);
    } finally {
      closeDatabase(db);
    }
  });
});
