import { describe, expect, it } from 'vitest';
import { episodeMetrics, scoreEpisode, shownMetrics } from './metrics.ts';

describe('episodeMetrics', () => {
  it('takes the numbers of outputs.metrics and the other numeric outputs', () => {
    expect(
      episodeMetrics({
        metrics: { reward: 3.5, length: 12, label: 'x', bad: Number.NaN, inf: Infinity },
        final_action: 2,
        pose: { x: 1 },
        note: 'text',
        reward: 1,
      }),
    ).toEqual({ reward: 3.5, length: 12, final_action: 2 });
  });
  it('is empty without numbers', () => {
    expect(episodeMetrics({ metrics: null, a: null, b: [1] })).toEqual({});
  });
});

describe('scoreEpisode', () => {
  it('uses outputs.success when present', () => {
    expect(
      scoreEpisode({ status: 'done', outputs: { success: false, metrics: { success: 1 } } }).success,
    ).toBe(false);
    expect(scoreEpisode({ status: 'stopped', outputs: { success: 'yes' } }).success).toBe(true);
  });
  it('else a numeric success metric > 0', () => {
    expect(scoreEpisode({ status: 'done', outputs: { metrics: { success: 0 } } }).success).toBe(false);
    expect(
      scoreEpisode({ status: 'stopped', outputs: { success: null, metrics: { success: 1 } } }).success,
    ).toBe(true);
  });
  it('else whether the run is done; an error is never a success', () => {
    expect(scoreEpisode({ status: 'done', outputs: {} }).success).toBe(true);
    expect(scoreEpisode({ status: 'stopped', outputs: {} }).success).toBe(false);
    expect(scoreEpisode({ status: 'error', outputs: { success: true } }).success).toBe(false);
  });
});

describe('metrics a Metrics viewer showed', () => {
  it('takes the numeric fields of viewer metrics, newest wins, outputs win over them', () => {
    const shown = shownMetrics({ metrics: { reward: 1, success: 0, label: 'x', bad: Number.NaN } });
    shownMetrics({ metrics: { reward: 2.5 } }, shown);
    shownMetrics({ text: 'not metrics' }, shown);
    expect(shown).toEqual({ reward: 2.5, success: 0 });
    const scored = scoreEpisode({ status: 'done', outputs: { reward: 9 } }, shown);
    expect(scored.metrics).toEqual({ reward: 9, success: 0 });
    // A shown `success` of 0 decides the episode failed (no success output).
    expect(scored.success).toBe(false);
  });
});
