import { describe, expect, it } from 'vitest';
import { viewerNumbers } from '../run/viewerNumbers.ts';
import type { StepSnapshot } from '../run/run.store.ts';
import { numberOf, plottableSlots, seriesOf, valueInSnapshot, viewerKey } from './series.ts';

const slot = (extra: Record<string, unknown>) => ({
  type: 'lastWrite',
  value_type: 'ANY',
  lifetime: 'forever',
  ...extra,
});
const snap = (step: number, states: Record<string, ReturnType<typeof slot>>): StepSnapshot => ({
  step,
  seq: step * 10,
  containers: { m: { label: 'M', owner: 'home', states } },
  nodeStates: {},
  clears: [],
  writes: [],
  errors: [],
});

describe('series', () => {
  it('a snapshot carries numbers and booleans in full; lists, text and keyed previews need a fetch', () => {
    expect(valueInSnapshot(slot({ value: 3 }))).toEqual({ value: 3 });
    expect(valueInSnapshot(slot({ value: false }))).toEqual({ value: false });
    expect(valueInSnapshot(slot({ size: 2, preview: '[1, 2]' }))).toBeUndefined();
    expect(valueInSnapshot(slot({ preview: '"abc"' }))).toBeUndefined();
    expect(valueInSnapshot(slot({ keys: 1, preview: '[1] x' }))).toBeUndefined();
    expect(valueInSnapshot(slot({ keys: 1, keyed: { 1: 'x' } }))).toEqual({ value: { 1: 'x' } });
  });

  it('plots numbers and the item count of lists, null where a step has none', () => {
    expect(numberOf(slot({ value: 2.5 }))).toBe(2.5);
    expect(numberOf(slot({ size: 4, preview: '[…]' }))).toBe(4);
    expect(numberOf(slot({ preview: 'text' }))).toBeNull();
    const snaps = {
      1: snap(1, { n: slot({ value: 1 }), t: slot({ preview: 'a' }) }),
      3: snap(3, { n: slot({ value: 5 }) }),
    };
    expect(plottableSlots(snaps[1])).toEqual(['m.n']);
    expect(seriesOf('m.n', [1, 2, 3], snaps, {})).toEqual([1, null, 5]);
  });

  it("plots a viewer's numeric field from its history (Metrics viewer)", () => {
    const fields = { metrics: { episode: 1, reward: -0.01, note: 'x' }, t: 3 };
    expect(viewerNumbers(fields)).toEqual({ 'metrics.episode': 1, 'metrics.reward': -0.01, t: 3 });
    expect(viewerNumbers({ text: 'hello' })).toBeUndefined();
    const history = {
      metrics_view: [
        { step: 1, text: '', numbers: { 'metrics.reward': 0 } },
        { step: 2, text: '', numbers: { 'metrics.reward': -0.01 } },
      ],
    };
    expect(seriesOf(viewerKey('metrics_view', 'metrics.reward'), [1, 2, 3], {}, history)).toEqual([
      0,
      -0.01,
      null,
    ]);
  });
});
