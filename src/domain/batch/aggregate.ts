// Aggregates of a batch's episode rows: per metric mean / min / max / population std / n (over the
// episodes that report it), the success rate, completed (status `done`) vs failed (anything else),
// and the mean number of root steps.
import type { BatchAggregate, EpisodeRow, MetricAggregate } from './batch.types.ts';

/** Mean, extremes and population standard deviation of a non-empty list (Welford: one stable pass). */
export function summarize(values: readonly number[]): MetricAggregate {
  let mean = 0;
  let m2 = 0;
  let min = Infinity;
  let max = -Infinity;
  values.forEach((x, i) => {
    const d = x - mean;
    mean += d / (i + 1);
    m2 += d * (x - mean);
    if (x < min) min = x;
    if (x > max) max = x;
  });
  const n = values.length;
  return n === 0
    ? { mean: 0, min: 0, max: 0, std: 0, n: 0 }
    : { mean, min, max, std: Math.sqrt(Math.max(0, m2 / n)), n };
}

export function aggregateRows(rows: readonly EpisodeRow[]): BatchAggregate {
  const byMetric = new Map<string, number[]>();
  let completed = 0;
  let successes = 0;
  let steps = 0;
  for (const r of rows) {
    if (r.status === 'done') completed += 1;
    if (r.success) successes += 1;
    steps += r.steps;
    for (const [name, v] of Object.entries(r.metrics)) {
      const list = byMetric.get(name) ?? [];
      list.push(v);
      byMetric.set(name, list);
    }
  }
  const n = rows.length;
  const metrics: Record<string, MetricAggregate> = {};
  for (const name of [...byMetric.keys()].sort()) metrics[name] = summarize(byMetric.get(name)!);
  return {
    episodes: n,
    completed,
    failed: n - completed,
    success_rate: n === 0 ? 0 : successes / n,
    mean_steps: n === 0 ? 0 : steps / n,
    metrics,
  };
}
