import { describe, expect, it } from 'vitest';
import type { EpisodeRow } from './batch.types.ts';
import { progressOf } from './progress.ts';

const row = (episode: number, status: EpisodeRow['status']) =>
  ({
    episode,
    status,
    seed: 0,
    run_id: `r${episode}`,
    steps: 1,
    outputs: {},
    metrics: {},
    success: false,
  }) as EpisodeRow;

describe('progressOf', () => {
  it('counts done as completed, every other end as failed, and the rate per second', () => {
    expect(
      progressOf(
        'running',
        [row(1, 'done'), row(2, 'error'), row(3, 'interrupted'), row(4, 'done')],
        10,
        2,
        2000,
      ),
    ).toEqual({
      status: 'running',
      completed: 2,
      failed: 2,
      running: 2,
      total: 10,
      episodes_per_s: 2,
    });
    expect(progressOf('queued', [], 3, 0, 0).episodes_per_s).toBe(0);
    expect(progressOf('done', [row(1, 'done')], 1, 0, 3000).episodes_per_s).toBe(0.33);
  });
});
