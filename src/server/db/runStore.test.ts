// The run log in an in-memory SQLite: content-addressed checkpoints share unchanged values, a commit
// is all-or-nothing, events come back exactly as stamped, and interrupted runs are marked on start.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { closeDatabase, openDatabase, SCHEMA_VERSION, type Db } from './database.ts';
import { pageOut } from './eventPages.ts';
import { RunStore } from './runStore.ts';
import { testRun } from './testRun.testutil.ts';

let db: Db;
let store: RunStore;
const newRun = (id: string) => store.createRun(testRun(id));
const ev = (seq: number, type: EventEnvelope['type'], data: unknown): EventEnvelope => ({
  type,
  runId: 'r',
  seq,
  ts: '2026-01-01T00:00:00.123Z',
  data,
});
const blobCount = () => (db.prepare('SELECT COUNT(*) AS n FROM blobs').get() as { n: number }).n;

beforeEach(() => {
  db = openDatabase(':memory:');
  store = new RunStore(db);
  newRun('r');
});
afterEach(() => closeDatabase(db));

describe('RunStore', () => {
  it('migrates to the current schema version', () => {
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  });

  it('a commit whose page was encoded beforehand (pageOut) stores what the commit itself would', () => {
    newRun('q');
    const group = (runId: string, seq: number) => {
      const e = (type: EventEnvelope['type'], data: unknown) => ({ ...ev(seq++, type, data), runId });
      return {
        earlier: [
          {
            events: [e('nav_step', { step: 1 }), e('node_status', { node_id: 'a', status: 'done' })],
            checkpoint: { step: 1, state: { x: 1 } },
          },
        ],
        events: [
          e('exec_log', { step: 2, node_id: 'a' }),
          e('signal', { step: 2, name: 's' }),
          e('viewer_data', { step: 2, fields: {} }),
        ],
        checkpoint: { step: 2, state: { x: 2 } },
        steps: 2,
        plain: true,
      };
    };
    store.commit('r', group('r', 1));
    const prepared = pageOut(group('q', 1));
    expect(prepared.page).toMatchObject({ first: 2, last: 5, n: 3 });
    expect(prepared.earlier?.[0]).toMatchObject({ through: 2 });
    store.commit('q', prepared);
    const strip = (es: EventEnvelope[]) => es.map(({ runId: _r, ...rest }) => rest);
    expect(strip(store.events('q', 0, 100))).toEqual(strip(store.events('r', 0, 100)));
    expect(store.getRun('q')).toMatchObject({ last_seq: 5, steps: 2 });
    // Each checkpoint sits at its step's last seq, the paged events included.
    for (const id of ['q', 'r']) expect(store.checkpointList(id, 100).map((c) => c.seq)).toEqual([2, 5]);
    // A paged event beside a page is refused: its seq would be in no page.
    expect(() =>
      store.commit('q', { ...pageOut(group('q', 6)), events: [ev(9, 'node_status', {})] }),
    ).toThrow(/belongs in the commit's page/);
  });

  it('round-trips events (plain, shape-interned and blob-encoded) with their seq, type and ts', () => {
    const events = [
      ev(1, 'nav_status', { status: 'running', step: 0 }),
      ev(2, 'nav_step', { step: 1, containers: {}, nodeStates: { a: { big: 'x'.repeat(200) } } }),
      ev(3, 'exec_log', { step: 1, node_id: 'n', error: null, nested: { a: [1, { b: 2 }] } }),
      ev(4, 'signal', 'a bare string'),
      ev(5, 'exec_log', { step: 1, node_id: 'm', error: null, nested: {} }),
    ];
    store.commit('r', { events, steps: 1 });
    expect(store.events('r', 0, 10)).toEqual(events);
    // one shape per distinct key set, stored once (exec_log events go to one event page instead)
    expect((db.prepare('SELECT COUNT(*) AS n FROM shapes').get() as { n: number }).n).toBe(1);
    expect((db.prepare('SELECT COUNT(*) AS n FROM event_pages').get() as { n: number }).n).toBe(1);
    // a fresh store (as after a restart) reads the same
    expect(new RunStore(db).events('r', 0, 10)).toEqual(events);
    expect(store.events('r', 1, 2)).toEqual(events.slice(1, 3));
    expect(store.getRun('r')).toMatchObject({ steps: 1, last_seq: 5 });
  });

  it('shares unchanged sub-values between checkpoints (content addressing)', () => {
    const big = Object.freeze({
      history: Object.freeze(Array.from({ length: 50 }, (_, i) => `entry number ${i}`)),
    });
    const state = (n: number) => ({ containers: { mem: big }, counter: n, other: { text: 'y'.repeat(120) } });
    store.commit('r', {
      events: [ev(1, 'nav_status', { status: 'running', step: 1 })],
      checkpoint: { step: 1, state: state(1) },
    });
    const after1 = blobCount();
    store.commit('r', {
      events: [ev(2, 'nav_status', { status: 'running', step: 2 })],
      checkpoint: { step: 2, state: state(2) },
    });
    // only the (small, inlined) root changed: no new blob; the big history is stored once
    expect(blobCount()).toBe(after1);
    expect(
      (
        db.prepare(`SELECT COUNT(*) AS n FROM blobs WHERE json LIKE '%entry number 0"%'`).get() as {
          n: number;
        }
      ).n,
    ).toBe(1);
    expect(store.checkpoint('r', 1)).toMatchObject({ step: 1, state: state(1) });
    expect(store.checkpoint('r', 2)?.state).toEqual(state(2));
    expect(store.checkpointSteps('r')).toEqual([1, 2]);
  });

  it('a failing commit writes nothing (events, checkpoint and counters are one transaction)', () => {
    store.commit('r', { events: [ev(1, 'nav_status', { status: 'running', step: 0 })] });
    // seq 1 again violates the (run, seq) key after the first insert of the batch succeeded
    expect(() =>
      store.commit('r', {
        events: [ev(2, 'exec_log', { step: 1 }), ev(1, 'exec_log', { step: 1 })],
        checkpoint: { step: 1, state: { a: 'z'.repeat(300) } },
        steps: 1,
      }),
    ).toThrow();
    expect(store.events('r', 0, 10).map((e) => e.seq)).toEqual([1]);
    expect(store.checkpointSteps('r')).toEqual([]);
    expect(store.getRun('r')).toMatchObject({ steps: 0, last_seq: 1 });
    // and the blob memo forgot the rolled-back blob, so storing it again really stores it
    store.commit('r', {
      events: [ev(2, 'exec_log', { step: 1 })],
      checkpoint: { step: 1, state: { a: 'z'.repeat(300) } },
      steps: 1,
    });
    expect(store.checkpoint('r', 1)?.state).toEqual({ a: 'z'.repeat(300) });
  });

  it('marks running/paused runs interrupted (what a restart does)', () => {
    newRun('p');
    store.commit('p', { events: [], status: 'paused' });
    newRun('d');
    store.commit('d', { events: [], status: 'done' });
    expect(store.markInterrupted('2026-01-02T00:00:00.000Z')).toBe(2);
    expect(store.getRun('r')?.status).toBe('interrupted');
    expect(store.getRun('p')).toMatchObject({ status: 'interrupted', ended_at: '2026-01-02T00:00:00.000Z' });
    expect(store.getRun('d')?.status).toBe('done');
  });
  it('a run row refused mid-transaction does not poison the blob memo (its blobs were rolled back)', () => {
    // Sub-values above 96 bytes are blobs of their own; the second graph shares one with the first.
    const shared = { nodes: [{ id: 'n', config: { text: 'y'.repeat(300) } }] };
    const graphRun = (id: string, name: string) =>
      store.createRun({ ...testRun(id, { name, ...shared }), graphName: name, status: 'idle' });
    // 'r' exists: the insert fails after the graph's blobs were put (as SQLITE_FULL would).
    expect(() => graphRun('r', 'first')).toThrow(/UNIQUE/);
    graphRun('r2', 'second');
    expect(store.graphOf('r2')).toEqual({ name: 'second', ...shared });
  });
});
