// Test helpers for compaction: a run that uses every protocol event type and every value shape the
// stores handle (unicode, big and tiny numbers, nested objects, long lists, arrays from node
// services), and a snapshot of everything a reader can get back from a run, through every read path.
import { EVENT_TYPES, type EventEnvelope } from '../../domain/protocol/protocol.ts';
import { makeNdArray } from '../../domain/services/ndarray.ts';
import { deepFreeze } from '../../engine/freeze.ts';
import type { RunStore } from './runStore.ts';
import { testRun } from './testRun.testutil.ts';

const odd = (i: number) => ({
  step: i,
  node_id: `nöde-✓-😀-${i % 3}`,
  label: 'line\nbreak "quoted" \\ back\u2028sep \u0000 nul',
  big: Number.MAX_SAFE_INTEGER - i,
  huge: -1.5e300,
  tiny: 5e-324,
  nested: { a: [1, { b: [null, true, 'x', { c: {} }] }], empty: [], i },
});

const image = (i: number) =>
  makeNdArray(
    'uint8',
    [4, 4, 3],
    Uint8Array.from({ length: 48 }, (_, k) => (k * 7 + (i % 5)) & 255),
  );

/**
 * Writes `steps` root steps of run `runId` (created here): each step commits every protocol event
 * type once plus a nav_step snapshot, state_written/signal events and a checkpoint whose state
 * shares most records with the previous one (frozen, as the engine's) and grows a long list.
 */
export function writeVariedRun(store: RunStore, runId: string, steps: number): EventEnvelope[] {
  store.createRun(
    testRun(runId, { name: 'g ✓', nodes: [{ id: 'n😀', config: { prompt: 'x'.repeat(300) } }] }),
  );
  const all: EventEnvelope[] = [];
  let seq = 0;
  const ev = (type: EventEnvelope['type'], data: unknown): EventEnvelope => {
    seq++;
    const e = { type, runId, seq, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, seq * 7)).toISOString(), data };
    all.push(e);
    return e;
  };
  const fixed = deepFreeze({ config: { text: 'ü'.repeat(400), n: 1e21 }, map: { a: odd(0), b: odd(1) } });
  let trail: readonly unknown[] = deepFreeze([]);
  for (let step = 1; step <= steps; step++) {
    trail = deepFreeze([...trail, { at: step, cell: [step % 7, step % 11], note: `step ${step} ✓` }]);
    const state = deepFreeze({
      containers: { memory: { trail, fixed }, graph_state: { pos: odd(step), img: image(step) } },
      nodeStates: { loop: { count: step }, fixed },
    });
    const events = [
      ...EVENT_TYPES.filter((t) => t !== 'nav_step').map((t) => ev(t, { ...odd(step), kind: t })),
      ev('state_written', {
        step,
        container: 'memory',
        slot: 'trail',
        before: trail.slice(0, -1),
        after: trail,
      }),
      ev('signal', [2, 'step_end', 'loop', { step }, []]),
      ev('nav_step', { step, containers: state.containers, nodeStates: { ...state.nodeStates } }),
    ];
    store.commit(runId, { events, checkpoint: { step, state }, steps: step });
  }
  store.commit(runId, { events: [], status: 'done', endedAt: '2026-01-01T01:00:00.000Z' });
  return all;
}

/** Pages through `events` `size` at a time (after = the last seq read). */
function paged(store: RunStore, runId: string, size: number, type?: string): EventEnvelope[] {
  const out: EventEnvelope[] = [];
  for (let after = 0; ;) {
    const page = store.events(runId, after, size, type);
    if (page.length === 0) return out;
    out.push(...page);
    after = page[page.length - 1]!.seq;
  }
}

/** Everything a reader gets back from a run, through every read path of RunStore. */
export function readEverything(store: RunStore, runId: string, steps: number): Record<string, unknown> {
  const byType: Record<string, unknown> = {};
  for (const t of EVENT_TYPES)
    byType[t] = {
      all: store.events(runId, 0, 1e9, t),
      first: store.events(runId, 0, 1, t),
      paged: paged(store, runId, 3, t),
      late: store.events(runId, Math.floor(store.getRun(runId)!.last_seq / 2), 5, t),
    };
  const at: unknown[] = [];
  for (let s = 0; s <= steps + 1; s++)
    at.push({ state: store.stateEvents(runId, s), checkpoint: store.checkpoint(runId, s) });
  return {
    run: store.getRun(runId),
    graph: store.graphOf(runId),
    all: store.events(runId, 0, 1e9),
    paged: [1, 7, 50, 333].map((n) => paged(store, runId, n)),
    byType,
    at,
    steps: store.checkpointSteps(runId),
    maxStep: store.maxStep(runId),
    list: store.checkpointList(runId, 1e9).map((c) => ({ ...c, value: store.blobs.get(c.root) })),
  };
}
