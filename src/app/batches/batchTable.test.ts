import { describe, expect, it } from 'vitest';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import { episodeRow, progress } from './batch.testutil.ts';
import {
  chartSeries,
  finishedOf,
  formatMetric,
  metricKey,
  metricNames,
  newerProgress,
  nextSort,
  progressView,
  sortEpisodes,
} from './batchTable.ts';

const row = episodeRow;

describe('episode table', () => {
  const rows = [
    row(1, { steps: 15, metrics: { reward: 0.5 }, success: false }),
    row(2, { steps: 9, metrics: { reward: 2, length: 3 } }),
    row(3, { steps: 15, status: 'error', success: false }),
    row(4, { steps: 4, metrics: { reward: -1 } }),
  ];
  const order = (r: EpisodeRow[]) => r.map((x) => x.episode);

  it('one column per metric any episode reports, alphabetically', () => {
    expect(metricNames(rows)).toEqual(['length', 'reward']);
  });

  it('sorts by a number; ties keep episode order; both directions', () => {
    expect(order(sortEpisodes(rows, { key: 'steps', dir: 'asc' }))).toEqual([4, 2, 1, 3]);
    expect(order(sortEpisodes(rows, { key: 'steps', dir: 'desc' }))).toEqual([1, 3, 2, 4]);
  });

  it('episodes without the metric come last either way', () => {
    const key = metricKey('reward');
    expect(order(sortEpisodes(rows, { key, dir: 'asc' }))).toEqual([4, 1, 2, 3]);
    expect(order(sortEpisodes(rows, { key, dir: 'desc' }))).toEqual([2, 1, 4, 3]);
    expect(order(sortEpisodes(rows, { key: metricKey('length'), dir: 'desc' }))).toEqual([2, 1, 3, 4]);
  });

  it('sorts by status (text) and success (false before true)', () => {
    expect(order(sortEpisodes(rows, { key: 'status', dir: 'asc' }))).toEqual([1, 2, 4, 3]);
    expect(order(sortEpisodes(rows, { key: 'success', dir: 'desc' }))).toEqual([2, 4, 1, 3]);
  });

  it('does not reorder its input', () => {
    sortEpisodes(rows, { key: 'steps', dir: 'asc' });
    expect(order(rows)).toEqual([1, 2, 3, 4]);
  });

  it('a header click flips the same column, starts another ascending', () => {
    expect(nextSort({ key: 'steps', dir: 'asc' }, 'steps')).toEqual({ key: 'steps', dir: 'desc' });
    expect(nextSort({ key: 'steps', dir: 'desc' }, 'steps')).toEqual({ key: 'steps', dir: 'asc' });
    expect(nextSort({ key: 'steps', dir: 'desc' }, 'seed')).toEqual({ key: 'seed', dir: 'asc' });
  });

  it('the chart: one point per episode in episode order, null where it has no number', () => {
    expect(chartSeries([rows[2]!, rows[0]!, rows[1]!], metricKey('reward'))).toEqual({
      xs: [1, 2, 3],
      ys: [0.5, 2, null],
    });
    expect(chartSeries(rows, 'steps').ys).toEqual([15, 9, 15, 4]);
  });

  it('formats metrics short', () => {
    expect(formatMetric(3)).toBe('3');
    expect(formatMetric(0.73128)).toBe('0.7313');
    expect(formatMetric(1234.5678)).toBe('1234.6');
    expect(formatMetric(1e-7)).toBe('1.00e-7');
    expect(formatMetric(undefined)).toBe('–');
    expect(formatMetric(Number.NaN)).toBe('–');
  });
});

describe('progress', () => {
  it('shares of the bar: succeeded, failed, running; label, rate, time left', () => {
    const v = progressView(progress({ completed: 3, failed: 1, running: 2, episodes_per_s: 2 }));
    expect(v).toMatchObject({ finished: 4, label: '4/8', donePct: 37.5, failedPct: 12.5, runningPct: 25 });
    expect(v.rate).toBe('2.0 ep/s');
    expect(v.eta).toBe('~2 s left');
  });

  it('an ended batch has no time left; a batch without a rate says so', () => {
    expect(progressView(progress({ completed: 8, status: 'done', episodes_per_s: 5 })).eta).toBeNull();
    const v = progressView(progress({ running: 2 }));
    expect([v.rate, v.eta, v.label]).toEqual(['– ep/s', null, '0/8']);
  });

  it('never overflows: running past the total, an empty batch', () => {
    const v = progressView(progress({ completed: 7, running: 5 }));
    expect(v.donePct + v.failedPct + v.runningPct).toBe(100);
    expect(progressView(progress({ total: 0 }))).toMatchObject({ donePct: 0, label: '0/0' });
    expect(finishedOf(progress({ completed: 9, failed: 2 }))).toBe(8);
  });

  it('a late poll answer does not roll back a newer notice; an ended batch stays ended', () => {
    const notice = progress({ completed: 5 });
    expect(newerProgress(notice, progress({ completed: 3 }))).toBe(notice);
    const later = progress({ completed: 6 });
    expect(newerProgress(notice, later)).toBe(later);
    const ended = progress({ completed: 5, failed: 1, status: 'cancelled' });
    expect(newerProgress(ended, progress({ completed: 7 }))).toBe(ended);
    expect(newerProgress(undefined, notice)).toBe(notice);
  });
});
