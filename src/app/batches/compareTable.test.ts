import { describe, expect, it } from 'vitest';
import type { PairRow } from '../../domain/batch/compare.ts';
import { episodesShown } from './batchQuery.store.ts';
import { episodeRow } from './batch.testutil.ts';
import { interval, nextOrder, orderPairs, signed } from './compareTable.ts';

const pair = (seed: number, delta: number | null, outcome: PairRow['outcome'] = 'same'): PairRow => ({
  seed,
  episode_a: seed,
  episode_b: seed,
  run_a: `a${seed}`,
  run_b: `b${seed}`,
  status_a: 'done',
  status_b: 'done',
  steps_a: 5,
  steps_b: 5,
  success_a: outcome === 'regression',
  success_b: outcome === 'improvement',
  outcome,
  delta,
  deltas: {},
  metrics_a: {},
  metrics_b: {},
});

describe('the batch Compare view table', () => {
  const pairs = [
    pair(1, 0.5),
    pair(2, -1),
    pair(3, null),
    pair(4, 2, 'regression'),
    pair(5, -3, 'improvement'),
  ];

  it('orders regressions first, then by delta either way (missing deltas last)', () => {
    expect(orderPairs(pairs, 'regressions').map((p) => p.seed)).toEqual([4, 5, 2, 1, 3]);
    expect(orderPairs(pairs, 'delta-asc').map((p) => p.seed)).toEqual([5, 2, 1, 4, 3]);
    expect(orderPairs(pairs, 'delta-desc').map((p) => p.seed)).toEqual([4, 1, 2, 5, 3]);
    expect(nextOrder('regressions')).toBe('delta-asc');
    expect(nextOrder('delta-asc')).toBe('delta-desc');
    expect(nextOrder('delta-desc')).toBe('regressions');
  });

  it('writes differences with their sign and says when an interval excludes zero', () => {
    expect(signed(0.25)).toBe('+0.25');
    expect(signed(-1.5)).toBe('−1.5');
    expect(signed(0)).toBe('0');
    expect(signed(null)).toBe('–');
    expect(interval(-0.5, 0.25)).toEqual({ text: '[−0.5, +0.25]', excludesZero: false });
    expect(interval(0.1, 0.3).excludesZero).toBe(true);
    expect(interval(-0.3, -0.1).excludesZero).toBe(true);
    expect(interval(null, null)).toEqual({ text: '–', excludesZero: false });
  });

  it('a query result of the shown batch filters its episode table; another batch’s does not', () => {
    const rows = [episodeRow(1), episodeRow(2), episodeRow(3)];
    const result = {
      batch_id: 'b1',
      query: 'm.s > 1',
      episodes: 3,
      episodes_hit: 1,
      hits: [{ batch_id: 'b1', episode: 2, seed: 102, run_id: 'r2', step: 4, keys: [], nodes: [], value: 2 }],
    };
    expect(episodesShown(rows, 'b1', result).map((r) => r.episode)).toEqual([2]);
    expect(episodesShown(rows, 'b2', result)).toBe(rows);
    expect(episodesShown(rows, 'b1', null)).toBe(rows);
  });
});
