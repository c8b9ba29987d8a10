// CSV of a batch's episode rows (RFC 4180: CRLF line ends; a field with a comma, quote, CR or LF is
// quoted, quotes doubled). Columns: episode, seed, run_id, status, steps, success, one per metric
// (sorted by name, empty where an episode lacks it), outputs as one JSON column, error.
import type { EpisodeRow } from './batch.types.ts';

const FIXED = ['episode', 'seed', 'run_id', 'status', 'steps', 'success'] as const;
const TRAILING = ['outputs', 'error'] as const;

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** Metric column names: the metric's own name, or `metrics.<name>` where it would repeat a fixed column. */
function metricColumns(rows: readonly EpisodeRow[]): { metric: string; column: string }[] {
  const names = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.metrics)) names.add(k);
  const taken = new Set<string>([...FIXED, ...TRAILING]);
  return [...names].sort().map((metric) => ({
    metric,
    column: taken.has(metric) ? `metrics.${metric}` : metric,
  }));
}

export function rowsToCsv(rows: readonly EpisodeRow[]): string {
  const metrics = metricColumns(rows);
  let out = csvLine([...FIXED, ...metrics.map((m) => m.column), ...TRAILING]);
  for (const r of rows) {
    const values = metrics.map((m) => {
      const v = r.metrics[m.metric];
      return v === undefined ? '' : String(v);
    });
    out += csvLine([
      String(r.episode),
      String(r.seed),
      r.run_id,
      r.status,
      String(r.steps),
      r.success ? 'true' : 'false',
      ...values,
      JSON.stringify(r.outputs),
      r.error ?? '',
    ]);
  }
  return out;
}
