// CSV of a batch comparison and of a batch query, for notebooks (`pd.read_csv`). Column names are
// stable: they depend only on the metric names, never on the order rows arrive in. RFC 4180 as the
// episode CSV (csv.ts). Numbers are written as JavaScript prints them (shortest round-trip form).
import type { BatchComparison } from './compare.ts';
import type { EpisodeRow } from './batch.types.ts';
import { csvLine } from './csv.ts';
import type { QueryHit } from './query.ts';

/** The pair table: one line per pair, then one per unpaired episode (`outcome` only_a / only_b). */
export const PAIR_COLUMNS = [
  'seed',
  'outcome',
  'episode_a',
  'episode_b',
  'run_a',
  'run_b',
  'status_a',
  'status_b',
  'steps_a',
  'steps_b',
  'success_a',
  'success_b',
  'metric',
  'delta',
] as const;

const num = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
const bool = (v: boolean | undefined) => (v === undefined ? '' : v ? 'true' : 'false');

/** Per metric `a.<m>`, `b.<m>`, `delta.<m>`, metrics sorted by name. */
function metricColumns(names: readonly string[]): string[] {
  return names.flatMap((m) => [`a.${m}`, `b.${m}`, `delta.${m}`]);
}

function unpairedLine(
  r: EpisodeRow,
  side: 'a' | 'b',
  names: readonly string[],
  metric: string | null,
): string[] {
  const mine = (v: string) => (side === 'a' ? [v, ''] : ['', v]);
  return [
    String(r.seed),
    side === 'a' ? 'only_a' : 'only_b',
    ...mine(String(r.episode)),
    ...mine(r.run_id),
    ...mine(r.status),
    ...mine(String(r.steps)),
    ...mine(bool(r.success)),
    metric ?? '',
    '',
    ...names.flatMap((m) => [...mine(num(r.metrics[m])), '']),
  ];
}

export function comparisonToCsv(c: BatchComparison): string {
  const names = c.metric_names;
  let out = csvLine([...PAIR_COLUMNS, ...metricColumns(names)]);
  for (const p of c.pairs)
    out += csvLine([
      String(p.seed),
      p.outcome,
      String(p.episode_a),
      String(p.episode_b),
      p.run_a,
      p.run_b,
      p.status_a,
      p.status_b,
      String(p.steps_a),
      String(p.steps_b),
      bool(p.success_a),
      bool(p.success_b),
      c.metric ?? '',
      num(p.delta),
      ...names.flatMap((m) => [num(p.metrics_a[m]), num(p.metrics_b[m]), num(p.deltas[m])]),
    ]);
  for (const r of c.unpaired_a) out += csvLine(unpairedLine(r, 'a', names, c.metric));
  for (const r of c.unpaired_b) out += csvLine(unpairedLine(r, 'b', names, c.metric));
  return out;
}

export const METRIC_SUMMARY_COLUMNS = [
  'metric',
  'n',
  'mean_a',
  'mean_b',
  'mean_diff',
  'ci_lo',
  'ci_hi',
] as const;

/** The summary: one line per metric, then `success` (rates as means, with win/loss/tie counts). */
export function comparisonSummaryCsv(c: BatchComparison): string {
  let out = csvLine([...METRIC_SUMMARY_COLUMNS, 'wins', 'losses', 'ties']);
  for (const m of c.metrics)
    out += csvLine([
      m.metric,
      String(m.n),
      num(m.mean_a),
      num(m.mean_b),
      num(m.mean_diff),
      num(m.ci_lo),
      num(m.ci_hi),
      '',
      '',
      '',
    ]);
  const s = c.success;
  out += csvLine([
    'success',
    String(s.n),
    num(s.rate_a),
    num(s.rate_b),
    num(s.diff),
    num(s.ci_lo),
    num(s.ci_hi),
    String(s.wins),
    String(s.losses),
    String(s.ties),
  ]);
  return out;
}

/** One (episode, step) where a query holds. */
export interface QueryRow {
  batch_id: string;
  episode: number;
  seed: number;
  run_id: string;
  step: number;
  /** Partitions (keyed slots) involved; empty for the slot as a whole. */
  keys: string[];
  /** Writers (write queries). */
  nodes: string[];
  /** The value the condition looked at (match queries), else null. */
  value: unknown;
}

export const QUERY_COLUMNS = [
  'batch_id',
  'episode',
  'seed',
  'run_id',
  'step',
  'keys',
  'nodes',
  'value',
] as const;

export function queryRows(batchId: string, row: EpisodeRow, hits: readonly QueryHit[]): QueryRow[] {
  return hits.map((h) => ({
    batch_id: batchId,
    episode: row.episode,
    seed: row.seed,
    run_id: row.run_id,
    step: h.step,
    keys: h.keys,
    nodes: h.nodes,
    value: h.value === undefined ? null : h.value,
  }));
}

/** `keys`/`nodes` as JSON arrays (a partition key may hold any character), `value` as JSON (empty when null). */
export function queryToCsv(rows: readonly QueryRow[]): string {
  let out = csvLine([...QUERY_COLUMNS]);
  for (const r of rows)
    out += csvLine([
      r.batch_id,
      String(r.episode),
      String(r.seed),
      r.run_id,
      String(r.step),
      JSON.stringify(r.keys),
      JSON.stringify(r.nodes),
      r.value === null ? '' : JSON.stringify(r.value),
    ]);
  return out;
}
