import { describe, expect, it } from 'vitest';
import type { EpisodeRow } from './batch.types.ts';
import { aggregateRows, summarize } from './aggregate.ts';

const row = (
  episode: number,
  status: EpisodeRow['status'],
  steps: number,
  metrics: Record<string, number>,
  success: boolean,
): EpisodeRow => ({
  episode,
  seed: episode,
  run_id: `r${episode}`,
  status,
  steps,
  outputs: {},
  metrics,
  success,
});

describe('summarize', () => {
  it('computes mean, min, max and the population standard deviation', () => {
    expect(summarize([2, 4, 4, 4, 5, 5, 7, 9])).toEqual({ mean: 5, min: 2, max: 9, std: 2, n: 8 });
    expect(summarize([3])).toEqual({ mean: 3, min: 3, max: 3, std: 0, n: 1 });
    expect(summarize([])).toEqual({ mean: 0, min: 0, max: 0, std: 0, n: 0 });
  });
  it('stays accurate for large values with a small spread', () => {
    const s = summarize([1e9 + 1, 1e9 + 2, 1e9 + 3]);
    expect(s.mean).toBe(1e9 + 2);
    expect(s.std).toBeCloseTo(Math.sqrt(2 / 3), 9);
  });
});

describe('aggregateRows', () => {
  it('aggregates each metric over the episodes that report it, plus success rate and steps', () => {
    const a = aggregateRows([
      row(1, 'done', 10, { reward: 1, len: 10 }, true),
      row(2, 'done', 20, { reward: 3 }, false),
      row(3, 'error', 3, {}, false),
      row(4, 'stopped', 7, { reward: 5 }, true),
    ]);
    expect(a).toEqual({
      episodes: 4,
      completed: 2,
      failed: 2,
      success_rate: 0.5,
      mean_steps: 10,
      metrics: {
        len: { mean: 10, min: 10, max: 10, std: 0, n: 1 },
        reward: { mean: 3, min: 1, max: 5, std: Math.sqrt(8 / 3), n: 3 },
      },
    });
  });
  it('is all zeros for no rows', () => {
    expect(aggregateRows([])).toEqual({
      episodes: 0,
      completed: 0,
      failed: 0,
      success_rate: 0,
      mean_steps: 0,
      metrics: {},
    });
  });
});
