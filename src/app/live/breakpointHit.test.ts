import { describe, expect, it } from 'vitest';
import { createRunStore, liveStep, shownPartial, viewContainers, type RunState } from '../run/run.store.ts';
import { shownNodeStates } from '../run/nodeLocalState.ts';
import { applyBatch, HANDLERS } from './handlers.ts';
import { countWrite, ev, navStep } from './testEvents.testutil.ts';

const hit = (seq: number, step: number) =>
  ev('breakpoint_hit', seq, {
    breakpoint_id: 'b1',
    kind: 'match',
    description: 'graph_state.step_count >= 3',
    step,
    node_id: 'policy',
    container: 'graph_state',
    slot: 'step_count',
    value: 3,
  });

describe('breakpoint_hit in the live view', () => {
  it('is kept (for the highlights) and logged with the writer; the end of its step clears it', () => {
    const store = createRunStore();
    const apply = (m: ReturnType<typeof ev>) => HANDLERS[m.type](m, store);
    apply(hit(10, 3));
    expect(store.getState().breakpointHit).toMatchObject({ node_id: 'policy', slot: 'step_count', seq: 10 });
    expect(store.getState().log.at(-1)).toMatchObject({
      level: 'warn',
      text: 'breakpoint hit: graph_state.step_count >= 3 (step 3, written by policy)',
    });
    apply(ev('nav_status', 11, { status: 'paused', step: 2 }));
    expect(store.getState().breakpointHit).not.toBeNull(); // paused at it
    expect(store.getState().statusSeq).toBe(11);
    apply(navStep(12, 2, 2)); // an older step's snapshot does not end it
    expect(store.getState().breakpointHit).not.toBeNull();
    apply(navStep(13, 3, 3)); // its own step completed: the run moved past it
    expect(store.getState().breakpointHit).toBeNull();
  });

  it('running again clears it', () => {
    const store = createRunStore();
    HANDLERS.breakpoint_hit(hit(5, 1), store);
    HANDLERS.nav_status(ev('nav_status', 6, { status: 'running', step: 1 }), store);
    expect(store.getState().breakpointHit).toBeNull();
  });

  it('paused inside a step: every view shows the state right after the hit, live and replayed', () => {
    // Steps 1 and 2 done; step 3's policy writes step_count = 3, which hits; the run pauses inside step 3.
    const inStep3 = navStep(0, 3, 3).data as { containers: unknown };
    const log = [
      navStep(1, 1, 1),
      navStep(2, 2, 2),
      countWrite(3, 3),
      ev('breakpoint_hit', 4, {
        ...(hit(0, 3).data as object),
        state: { step: 3, containers: inStep3.containers, nodeStates: { policy: { n: 3 } }, features: {} },
      }),
      ev('nav_status', 5, { status: 'paused', step: 2 }),
    ];
    const views = (s: RunState) => ({
      step: liveStep(s),
      count: viewContainers(s).graph_state?.states.step_count?.value,
      node: shownNodeStates(s).policy,
      writes: shownPartial(s)?.writes.map((w) => w.after),
    });
    const expected = { step: 3, count: 3, node: { n: 3 }, writes: [3] };

    const live = createRunStore();
    for (const m of log) HANDLERS[m.type](m, live);
    expect(live.getState().step).toBe(2); // the last completed step is still 2 (restore, fork)
    expect(views(live.getState())).toEqual(expected);

    // A reload replays the log in one batch, with the status read over REST (newer than the replay).
    const replayed = createRunStore();
    replayed.setState({ status: 'paused', statusSeq: 5 });
    applyBatch(log, replayed);
    expect(views(replayed.getState())).toEqual(expected);

    // Resumed, the step's own snapshot takes over once it completes.
    HANDLERS.nav_status(ev('nav_status', 6, { status: 'running', step: 2 }), live);
    expect(liveStep(live.getState())).toBe(3);
    HANDLERS.nav_step(navStep(7, 3, 3), live);
    expect(live.getState().partial).toBeNull();
    expect(liveStep(live.getState())).toBe(3);
    expect(live.getState().snapshots[3]?.writes.map((w) => w.after)).toEqual([3]);
  });

  it('a run that ends inside the step shows its last completed step again', () => {
    const store = createRunStore();
    HANDLERS.nav_step(navStep(1, 1, 1), store);
    HANDLERS.breakpoint_hit(
      ev('breakpoint_hit', 2, {
        ...(hit(0, 2).data as object),
        state: {
          step: 2,
          containers: (navStep(0, 2, 2).data as { containers: unknown }).containers,
          nodeStates: {},
        },
      }),
      store,
    );
    HANDLERS.nav_status(ev('nav_status', 3, { status: 'paused', step: 1 }), store);
    expect(liveStep(store.getState())).toBe(2);
    HANDLERS.nav_status(ev('nav_status', 4, { status: 'stopped', step: 1 }), store);
    expect(liveStep(store.getState())).toBe(1);
    expect(viewContainers(store.getState()).graph_state?.states.step_count?.value).toBe(1);
  });

  it('a hit at the end of a step (no state of its own) leaves the views on that step', () => {
    const store = createRunStore();
    HANDLERS.nav_step(navStep(1, 3, 3), store);
    HANDLERS.breakpoint_hit(hit(2, 3), store);
    HANDLERS.nav_status(ev('nav_status', 3, { status: 'paused', step: 3 }), store);
    expect(store.getState().partial).toBeNull();
    expect(liveStep(store.getState())).toBe(3);
  });
});
