import { describe, expect, it } from 'vitest';
import { createRunStore } from '../run/run.store.ts';
import { HANDLERS } from './handlers.ts';
import { ev, navStep } from './testEvents.testutil.ts';

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
});
