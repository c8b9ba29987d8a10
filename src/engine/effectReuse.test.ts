// The reuse rule of a fork (effectReuse.ts): same place and same request hash under the two
// lineages, nothing after the first difference, nothing from `untilStep` on, the parent's own call
// before an ancestor's at the same place.
import { describe, expect, it } from 'vitest';
import type { EffectCall } from './effects.ts';
import { effectKey } from './effects.ts';
import { ReuseUntilDivergence } from './effectReuse.ts';

const call = (lineage: string, step: number, node: string, request: unknown, index = 0): EffectCall => ({
  key: effectKey(lineage, step, undefined, node, index, request),
  step,
  node_id: node,
  index,
  kind: 'service',
  request,
});
const recorded = (c: EffectCall, run_id: string, response: unknown) => ({ key: c.key, run_id, response });

describe('ReuseUntilDivergence', () => {
  const parent = [
    recorded(call('P', 2, 'a', { x: 1 }), 'P', 'a2'),
    recorded(call('P', 2, 'b', { y: 1 }), 'P', 'b2'),
    recorded(call('P', 3, 'a', { x: 1 }), 'P', 'a3'),
    recorded(call('P', 3, 'b', { y: 1 }), 'P', 'b3'),
  ];

  it('answers the same calls under the fork lineage, naming where each answer came from', () => {
    const r = new ReuseUntilDivergence(parent, 'P', 'F', 'P');
    expect(r.available).toBe(4);
    expect(r.take(call('F', 2, 'a', { x: 1 }))).toEqual({
      response: 'a2',
      from: { run_id: 'P', key: parent[0]!.key },
    });
    expect(r.take(call('F', 2, 'b', { y: 1 }))?.response).toBe('b2');
    expect(r.reused).toBe(2);
    expect(r.reusedSteps).toEqual([2, 2]);
    expect(r.diverged).toBeUndefined();
  });

  it('a different request diverges, and nothing after it is reused, even the same call again', () => {
    const r = new ReuseUntilDivergence(parent, 'P', 'F', 'P');
    expect(r.take(call('F', 2, 'a', { x: 1 }))).toBeDefined();
    const changed = call('F', 2, 'b', { y: 2 });
    expect(r.take(changed)).toBeUndefined();
    expect(r.diverged).toEqual(changed);
    expect(r.take(call('F', 3, 'a', { x: 1 }))).toBeUndefined();
    expect(r.reused).toBe(1);
  });

  it('another place (a call the parent never made, another ordinal) diverges', () => {
    expect(new ReuseUntilDivergence(parent, 'P', 'F').take(call('F', 2, 'c', { x: 1 }))).toBeUndefined();
    expect(new ReuseUntilDivergence(parent, 'P', 'F').take(call('F', 2, 'a', { x: 1 }, 1))).toBeUndefined();
    expect(new ReuseUntilDivergence(parent, 'P', 'F').take(call('F', 4, 'a', { x: 1 }))).toBeUndefined();
  });

  it('untilStep: nothing at that step or later', () => {
    const r = new ReuseUntilDivergence(parent, 'P', 'F', 'P', 3);
    expect(r.take(call('F', 2, 'a', { x: 1 }))).toBeDefined();
    expect(r.take(call('F', 2, 'b', { y: 1 }))).toBeDefined();
    expect(r.take(call('F', 3, 'a', { x: 1 }))).toBeUndefined();
    expect(r.reused).toBe(2);
  });

  it("the parent's own answer wins over an ancestor's at the same place; unanswered calls are skipped", () => {
    const c = call('P', 5, 'a', { x: 1 });
    const r = new ReuseUntilDivergence(
      [
        recorded(c, 'G', 'grandparent'),
        recorded(c, 'P', 'parent'),
        { key: call('P', 6, 'a', 1).key, run_id: 'P' },
      ],
      'P',
      'F',
      'P',
    );
    expect(r.available).toBe(2);
    expect(r.take(call('F', 5, 'a', { x: 1 }))?.response).toBe('parent');
    expect(r.take(call('F', 6, 'a', 1))).toBeUndefined();
  });
});
