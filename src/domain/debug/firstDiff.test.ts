import { describe, expect, it } from 'vitest';
import type { ContainerSnapshot } from '../protocol/protocol.ts';
import { firstDifference, type StepState } from './firstDiff.ts';

const state = (
  step: number,
  count: number,
  preview = '',
  nodeStates: Record<string, unknown> = {},
): StepState => ({
  step,
  containers: {
    m: {
      label: 'M',
      owner: 'home',
      states: { count: { type: 'counter', value_type: 'ANY', lifetime: 'run', value: count, preview } },
    } as ContainerSnapshot,
  },
  nodeStates,
});

describe('firstDifference', () => {
  it('finds the first step whose slots differ, naming them', () => {
    const a = [state(1, 1), state(2, 2), state(3, 3)];
    const b = [state(1, 1), state(2, 5), state(3, 6)];
    expect(firstDifference(a, b)).toEqual({ step: 2, reason: 'state', slots: ['m.count'], nodes: [] });
  });

  it('counts node-local state, ignores what the Compare view ignores (previews), and reports no difference', () => {
    expect(firstDifference([state(1, 1, 'x')], [state(1, 1, 'y')])).toBeNull();
    expect(
      firstDifference([state(1, 1, '', { p: { rng: 1 } })], [state(1, 1, '', { p: { rng: 2 } })]),
    ).toEqual({
      step: 1,
      reason: 'state',
      slots: [],
      nodes: ['p'],
    });
  });

  it('a step only one run reached differs', () => {
    expect(firstDifference([state(1, 1), state(2, 2)], [state(1, 1)])).toMatchObject({
      step: 2,
      reason: 'only_a',
    });
    expect(firstDifference([state(1, 1)], [state(1, 1), state(2, 2)])).toMatchObject({
      step: 2,
      reason: 'only_b',
    });
  });
});
