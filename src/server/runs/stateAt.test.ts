import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { reduceState } from './stateAt.ts';

const slot = (value: unknown, lifetime = 'forever', type = 'lastWrite') => ({
  type,
  value_type: 'ANY',
  lifetime,
  value,
});
const base: EventEnvelope = {
  type: 'nav_step',
  runId: 'r',
  seq: 10,
  ts: 't',
  data: {
    step: 3,
    containers: {
      m: { label: 'M', owner: 'home', states: { a: slot(1, 'forever', 'counter'), b: slot('x', 'step') } },
    },
    nodeStates: { n: { k: 1 } },
  },
};
const ev = (seq: number, type: EventEnvelope['type'], data: unknown): EventEnvelope => ({
  type,
  runId: 'r',
  seq,
  ts: 't',
  data,
});
const slotDef = (type: string, lifetime: string, config: Record<string, unknown> = {}) => ({
  type,
  value_type: 'ANY',
  config,
  lifetime,
  reset_on: [],
});
const defs = [
  {
    id: 'm',
    label: 'M',
    position: { x: 0, y: 0 },
    states: { a: slotDef('counter', 'forever'), b: slotDef('lastWrite', 'step', { initial_value: 'init' }) },
  },
];

describe('reduceState (nearest snapshot + events after it)', () => {
  it('folds writes and signal clears up to the step, ignoring later ones, without mutating inputs', () => {
    const after = [
      ev(11, 'state_written', {
        node_id: 'x',
        container: 'm',
        slot: 'a',
        reducer: 'counter',
        step: 4,
        before: 1,
        after: 5,
      }),
      ev(12, 'signal', { signal: 'step_end', scope: '', cleared: [{ container: 'm', slot: 'b' }], step: 4 }),
      ev(13, 'state_written', {
        node_id: 'x',
        container: 'm',
        slot: 'a',
        reducer: 'counter',
        step: 5,
        before: 5,
        after: 9,
      }),
    ];
    const s = reduceState(base, after, 4, defs);
    expect(s.step).toBe(4);
    expect(s.containers.m?.states.a?.value).toBe(5);
    expect(s.containers.m?.states.b?.value).toBe('init');
    expect(s.nodeStates).toEqual({ n: { k: 1 } });
    expect(
      (base.data as { containers: { m: { states: { a: { value: number } } } } }).containers.m.states.a.value,
    ).toBe(1);
  });
  it('with no snapshot and no events the state is empty', () => {
    expect(reduceState(undefined, [], 0, defs)).toEqual({
      step: 0,
      containers: {},
      nodeStates: {},
      features: {},
    });
  });

  it('keeps routing features from the snapshot and folds route events after it', () => {
    const snap = { ...base, data: { ...(base.data as object), features: { phase: 'explore' } } };
    const route = ev(11, 'route', { step: 4, after: { phase: 'exploit' } });
    expect(reduceState(snap, [], 3, defs).features).toEqual({ phase: 'explore' });
    expect(reduceState(snap, [route], 4, defs).features).toEqual({ phase: 'exploit' });
    expect(reduceState(snap, [route], 3, defs).features).toEqual({ phase: 'explore' });
  });
});
