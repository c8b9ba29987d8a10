// Two batches compared episode by episode (A = the baseline, B = the candidate). Episodes are paired
// by their seed — two batches started with the same base seed run episode i with the same seed, so a
// pair saw the same start and the same random draws up to where the graphs' behaviour parts —
// and every figure is computed over the pairs: per metric the mean of each side and the mean
// difference B − A with a paired-bootstrap interval (bootstrap.ts); the success rate of each side
// with win / loss / tie counts. Episodes without a partner are listed, never dropped silently.
// The pair table puts regressions first (success true → false), then the rest, each by the delta of
// the chosen metric ascending (the largest drops first).
import type { GraphDef } from '../graph/graph.schema.ts';
import { diffGraphs, type GraphDiff } from '../graph/graph.diff.ts';
import type { BatchRecord, EpisodeRow } from './batch.types.ts';
import { DEFAULT_BOOTSTRAP, pairedBootstrap, type BootstrapOptions } from './bootstrap.ts';

export interface EpisodePair {
  seed: number;
  a: EpisodeRow;
  b: EpisodeRow;
}

export interface Pairing {
  pairs: EpisodePair[];
  /** Rows of A (resp. B) no row of the other side shares a seed with, by episode. */
  unpaired_a: EpisodeRow[];
  unpaired_b: EpisodeRow[];
}

/**
 * Pairs by seed. A seed repeated within one side (batches started with different base seeds can
 * collide by chance) pairs in episode order, first with first; the rest stay unpaired.
 */
export function pairEpisodes(a: readonly EpisodeRow[], b: readonly EpisodeRow[]): Pairing {
  const byEpisode = (x: EpisodeRow, y: EpisodeRow) => x.episode - y.episode;
  const waiting = new Map<number, EpisodeRow[]>();
  for (const r of [...b].sort(byEpisode)) {
    const list = waiting.get(r.seed) ?? [];
    list.push(r);
    waiting.set(r.seed, list);
  }
  const pairs: EpisodePair[] = [];
  const unpaired_a: EpisodeRow[] = [];
  for (const r of [...a].sort(byEpisode)) {
    const partner = waiting.get(r.seed)?.shift();
    if (partner) pairs.push({ seed: r.seed, a: r, b: partner });
    else unpaired_a.push(r);
  }
  const unpaired_b = [...waiting.values()].flat().sort(byEpisode);
  return { pairs, unpaired_a, unpaired_b };
}

export interface MetricComparison {
  metric: string;
  /** Pairs where both episodes report the metric. */
  n: number;
  mean_a: number;
  mean_b: number;
  /** mean(B − A) over those pairs, with its interval. */
  mean_diff: number;
  ci_lo: number;
  ci_hi: number;
}

export interface SuccessComparison {
  n: number;
  rate_a: number;
  rate_b: number;
  /** rate_b − rate_a with its interval (null without pairs). */
  diff: number | null;
  ci_lo: number | null;
  ci_hi: number | null;
  /** B succeeded where A failed. */
  wins: number;
  /** A succeeded where B failed: the regressions. */
  losses: number;
  ties: number;
}

export type PairOutcome = 'regression' | 'improvement' | 'same';

export interface PairRow {
  seed: number;
  episode_a: number;
  episode_b: number;
  run_a: string;
  run_b: string;
  status_a: EpisodeRow['status'];
  status_b: EpisodeRow['status'];
  steps_a: number;
  steps_b: number;
  success_a: boolean;
  success_b: boolean;
  outcome: PairOutcome;
  /** B − A of the comparison's metric (null when either side lacks it). */
  delta: number | null;
  /** B − A of every metric both episodes report. */
  deltas: Record<string, number>;
  metrics_a: Record<string, number>;
  metrics_b: Record<string, number>;
}

/** What a comparison says about each batch. */
export interface BatchSide {
  id: string;
  graph_name: string;
  graph_version: string | null;
  seed: number;
  sets: string[];
  /** Episodes recorded. */
  episodes: number;
}

export interface BatchComparison {
  a: BatchSide;
  b: BatchSide;
  /** The metric the pair table is ordered by (null when the batches share none). */
  metric: string | null;
  /** Every metric both sides report in at least one pair, by name. */
  metric_names: string[];
  bootstrap: { seed: number; resamples: number; level: number };
  metrics: MetricComparison[];
  success: SuccessComparison;
  pairs: PairRow[];
  unpaired_a: EpisodeRow[];
  unpaired_b: EpisodeRow[];
  /** The structural diff of the two graph versions (null when either graph is not at hand). */
  graph_diff: GraphDiff | null;
}

export interface CompareOptions extends BootstrapOptions {
  /** The metric to order pairs by; default: `score`, else `reward`, else the first shared metric by name. */
  metric?: string;
}

export interface CompareInput {
  batch: Omit<BatchRecord, 'graph'>;
  rows: readonly EpisodeRow[];
  /** The batch's graph (parsed), for the graph diff. */
  graph?: GraphDef;
}

export class CompareError extends Error {}

const outcomeOf = (a: boolean, b: boolean): PairOutcome =>
  a === b ? 'same' : a ? 'regression' : 'improvement';

/** Regressions first, then the rest; within each, by delta ascending (missing last), then seed. */
export function comparePairRows(x: PairRow, y: PairRow): number {
  const rx = x.outcome === 'regression' ? 0 : 1;
  const ry = y.outcome === 'regression' ? 0 : 1;
  if (rx !== ry) return rx - ry;
  if (x.delta !== y.delta) {
    if (x.delta === null) return 1;
    if (y.delta === null) return -1;
    return x.delta - y.delta;
  }
  return x.seed - y.seed || x.episode_a - y.episode_a;
}

function sharedMetrics(pairs: readonly EpisodePair[]): string[] {
  const names = new Set<string>();
  for (const p of pairs) for (const m of Object.keys(p.a.metrics)) if (m in p.b.metrics) names.add(m);
  return [...names].sort();
}

function pickMetric(names: readonly string[], wanted: string | undefined): string | null {
  if (wanted !== undefined) {
    if (names.includes(wanted)) return wanted;
    throw new CompareError(
      `metric ${JSON.stringify(wanted)} is not reported by both batches' paired episodes (shared metrics: ${names.join(', ') || 'none'})`,
    );
  }
  for (const preferred of ['score', 'reward']) if (names.includes(preferred)) return preferred;
  return names[0] ?? null;
}

const sideOf = (c: CompareInput): BatchSide => ({
  id: c.batch.id,
  graph_name: c.batch.graph_name,
  graph_version: c.batch.graph_version ?? null,
  seed: c.batch.seed,
  sets: c.batch.sets,
  episodes: c.rows.length,
});

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

export function compareBatches(a: CompareInput, b: CompareInput, opts: CompareOptions = {}): BatchComparison {
  const boot = {
    seed: opts.seed ?? DEFAULT_BOOTSTRAP.seed,
    resamples: opts.resamples ?? DEFAULT_BOOTSTRAP.resamples,
    level: opts.level ?? DEFAULT_BOOTSTRAP.level,
  };
  const { pairs, unpaired_a, unpaired_b } = pairEpisodes(a.rows, b.rows);
  const names = sharedMetrics(pairs);
  const metric = pickMetric(names, opts.metric);

  const metrics: MetricComparison[] = [];
  for (const name of names) {
    const both = pairs.filter((p) => name in p.a.metrics && name in p.b.metrics);
    const va = both.map((p) => p.a.metrics[name]!);
    const vb = both.map((p) => p.b.metrics[name]!);
    const ci = pairedBootstrap(
      vb.map((v, i) => v - va[i]!),
      boot,
    )!;
    metrics.push({
      metric: name,
      n: both.length,
      mean_a: mean(va),
      mean_b: mean(vb),
      mean_diff: ci.mean,
      ci_lo: ci.lo,
      ci_hi: ci.hi,
    });
  }

  let wins = 0;
  let losses = 0;
  let okA = 0;
  let okB = 0;
  for (const p of pairs) {
    if (p.a.success) okA += 1;
    if (p.b.success) okB += 1;
    if (!p.a.success && p.b.success) wins += 1;
    if (p.a.success && !p.b.success) losses += 1;
  }
  const sci = pairedBootstrap(
    pairs.map((p) => Number(p.b.success) - Number(p.a.success)),
    boot,
  );
  const n = pairs.length;
  const success: SuccessComparison = {
    n,
    rate_a: n ? okA / n : 0,
    rate_b: n ? okB / n : 0,
    diff: sci?.mean ?? null,
    ci_lo: sci?.lo ?? null,
    ci_hi: sci?.hi ?? null,
    wins,
    losses,
    ties: n - wins - losses,
  };

  const rows = pairs.map((p): PairRow => {
    const deltas: Record<string, number> = {};
    for (const m of Object.keys(p.b.metrics).sort())
      if (m in p.a.metrics) deltas[m] = p.b.metrics[m]! - p.a.metrics[m]!;
    return {
      seed: p.seed,
      episode_a: p.a.episode,
      episode_b: p.b.episode,
      run_a: p.a.run_id,
      run_b: p.b.run_id,
      status_a: p.a.status,
      status_b: p.b.status,
      steps_a: p.a.steps,
      steps_b: p.b.steps,
      success_a: p.a.success,
      success_b: p.b.success,
      outcome: outcomeOf(p.a.success, p.b.success),
      delta: metric !== null && metric in deltas ? deltas[metric]! : null,
      deltas,
      metrics_a: p.a.metrics,
      metrics_b: p.b.metrics,
    };
  });
  rows.sort(comparePairRows);

  return {
    a: sideOf(a),
    b: sideOf(b),
    metric,
    metric_names: names,
    bootstrap: boot,
    metrics,
    success,
    pairs: rows,
    unpaired_a,
    unpaired_b,
    graph_diff: a.graph && b.graph ? diffGraphs(a.graph, b.graph) : null,
  };
}
