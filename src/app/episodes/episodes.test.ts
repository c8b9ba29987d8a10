import { describe, expect, it } from 'vitest';
import { applyBatch, HANDLERS } from '../live/handlers.ts';
import { countWrite as written, episodeReset as reset, ev, navStep } from '../live/testEvents.testutil.ts';
import { createRunStore, type StepSnapshot } from '../run/run.store.ts';
import { alignEpisodes, computeEpisodes, signalsByStep, tickLabel, timelineEpisodes } from './episodes.ts';

const bare = (seq: number, signal: string) => ev('signal', seq, { signal, scope: '', cleared: [] });

const episodesOf = (store: ReturnType<typeof createRunStore>) =>
  timelineEpisodes(store.getState()).episodes.map((e) => e.steps);

describe('episodes', () => {
  it('a run without episode_reset is one episode; no steps, no episodes', () => {
    const store = createRunStore();
    expect(episodesOf(store)).toEqual([]);
    applyBatch([navStep(1, 1, 1), bare(2, 'episode_done'), navStep(3, 2, 2), navStep(4, 3, 3)], store);
    expect(episodesOf(store)).toEqual([[1, 2, 3]]);
  });

  it('a reset inside step N starts the next episode at N; one in the first step opens episode 1', () => {
    // As the demo: episode_reset fires while the env fires, before the step's nav_step.
    const store = createRunStore();
    applyBatch(
      [
        reset(1, 1, [{ container: 'graph_state', slot: 'visited' }]),
        navStep(2, 1, 1),
        navStep(3, 2, 2),
        reset(4, 2),
        navStep(5, 3, 3),
        navStep(6, 4, 4),
        reset(7, 3),
        navStep(8, 5, 5),
      ],
      store,
    );
    const t = timelineEpisodes(store.getState());
    expect(t.episodes).toEqual([
      { index: 1, steps: [1, 2] },
      { index: 2, steps: [3, 4] },
      { index: 3, steps: [5] },
    ]);
    expect(t.episodeOf.get(4)).toBe(2);
    // The signal rode on the step's snapshot, even a signal that cleared nothing.
    expect(store.getState().snapshots[3]?.signals?.map((s) => s.signal)).toEqual(['episode_reset']);
  });

  it('a reset in a later first step still leaves the steps before it as episode 1', () => {
    expect(
      computeEpisodes([3, 1, 2, 2], new Map([[3, [{ signal: 'episode_reset', scope: '', seq: 9 }]]])).map(
        (e) => [e.index, e.steps],
      ),
    ).toEqual([
      [1, [1, 2]],
      [2, [3]],
    ]);
  });

  it('dropped nav_steps backfilled out of order: signals move to the step whose nav_step followed them', () => {
    // The server dropped nav_steps 2 and 3 (seq 4, 7) under backpressure; they come back later.
    // Live, the handlers file both resets under step 2 (the step after the last nav_step seen).
    const store = createRunStore();
    applyBatch(
      [
        reset(1, 1),
        navStep(2, 1, 1),
        written(3, 2),
        reset(5, 2), // inside step 3
        written(6, 3),
        reset(8, 3), // inside step 4
        navStep(9, 4, 4),
      ],
      store,
    );
    // Before the backfill, step 4 is on the timeline: its reset (seq 8) already lands there.
    expect(episodesOf(store)).toEqual([[1], [4]]);
    applyBatch([navStep(7, 3, 3), navStep(4, 2, 2)], store);
    expect(store.getState().steps).toEqual([1, 2, 3, 4]);
    expect(store.getState().snapshots[2]?.signals?.length).toBe(2); // as filed by the handler
    const sigs = signalsByStep(store.getState());
    expect([...sigs.keys()].sort()).toEqual([1, 3, 4]);
    expect(episodesOf(store)).toEqual([[1, 2], [3], [4]]);
  });

  it('the same timeline replayed from the log (a past run) gives the same episodes', () => {
    const events = [reset(1, 1), navStep(2, 1, 1), navStep(3, 2, 2), reset(4, 2), navStep(5, 3, 3)];
    const live = createRunStore();
    for (const m of events) HANDLERS[m.type](m, live);
    const replayed = createRunStore();
    applyBatch(events, replayed);
    expect(episodesOf(live)).toEqual(episodesOf(replayed));
    expect(episodesOf(live)).toEqual([[1, 2], [3]]);
  });
});

describe('tickLabel', () => {
  const snap: StepSnapshot = {
    step: 37,
    seq: 100,
    containers: {},
    nodeStates: {},
    writes: Array.from({ length: 5 }, () => ({
      node_id: 'n',
      container: 'graph_state',
      slot: 's',
      reducer: 'lastWrite',
      before: 0,
      after: 1,
    })),
    clears: [
      { container: 'graph_state', slot: 'last_obs', signal: 'step_end', step: 37, seq: 99 },
      { container: 'graph_state', slot: 'last_obs', signal: 'step_end', step: 37, seq: 99 },
    ],
    errors: [],
  };

  it('names the episode, the writes, the clears and the signals of the step', () => {
    expect(tickLabel(37, 4, snap, [{ signal: 'episode_reset', scope: 'loop_in', seq: 90 }])).toBe(
      'step 37 · episode 4 · 5 writes · cleared last_obs · signal episode_reset',
    );
  });

  it('counts errors, leaves out empty parts and per-step signals', () => {
    expect(
      tickLabel(2, undefined, { ...snap, writes: snap.writes.slice(0, 1), clears: [], errors: ['x', 'y'] }, [
        { signal: 'step_end', scope: '', seq: 1 },
      ]),
    ).toBe('step 2 · 1 write · 2 errors');
    expect(tickLabel(9, 1, undefined)).toBe('step 9 · episode 1 · no events recorded');
  });
});

describe('alignEpisodes', () => {
  it('pairs the i-th step of A with the i-th step of B; the shorter one runs out', () => {
    expect(alignEpisodes({ index: 1, steps: [1, 2, 3] }, { index: 2, steps: [4, 5] })).toEqual([
      { offset: 0, a: 1, b: 4 },
      { offset: 1, a: 2, b: 5 },
      { offset: 2, a: 3, b: undefined },
    ]);
    expect(alignEpisodes(undefined, { index: 2, steps: [7] })).toEqual([{ offset: 0, a: undefined, b: 7 }]);
  });
});
