// What `statewire compare` and `statewire query` print without --json: the comparison as a few
// aligned tables, the query's hits one per line. Pure text formatting (tested without a database).
import type { BatchComparison, BatchSide, PairRow } from '../../domain/batch/compare.ts';
import type { QueryRow } from '../../domain/batch/evaluationCsv.ts';
import { graphDiffLines, shortValue } from '../../domain/graph/graph.diff.ts';
import { shortVersion } from '../../domain/graph/graphVersion.ts';
import type { BatchQueryResult } from '../../domain/batch/evaluation.schema.ts';
import type { FirstDifference } from '../../domain/debug/firstDiff.ts';
import { num as batchNum, table } from './batchReport.ts';

/** A number as `statewire batch` prints it; `—` when missing. */
const num = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : batchNum(v);
const signed = (v: number | null | undefined) =>
  v !== null && v !== undefined && v > 0 ? `+${num(v)}` : num(v);
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

function sideLine(label: string, s: BatchSide): string {
  return `${label} ${s.id}: ${s.graph_name || 'untitled'}, version ${shortVersion(s.graph_version)}, ${s.episodes} episodes, seed ${s.seed}${s.sets.length ? `, --set ${s.sets.join(' ')}` : ''}`;
}

export function firstDiffText(d: FirstDifference | null | undefined): string {
  if (d === undefined) return '';
  if (d === null) return 'never';
  if (d.reason === 'only_a') return `step ${d.step} (only A ran it)`;
  if (d.reason === 'only_b') return `step ${d.step} (only B ran it)`;
  const what = [...d.slots, ...d.nodes.map((n) => `node ${n}`)];
  return `step ${d.step}${what.length ? ` (${what.slice(0, 3).join(', ')}${what.length > 3 ? ', …' : ''})` : ''}`;
}

const success = (p: PairRow) => `${p.success_a ? 'yes' : 'no'} → ${p.success_b ? 'yes' : 'no'}`;

/**
 * The comparison: both sides, the graph diff, per-metric means with the interval, the success rate
 * with wins/losses/ties, the first `shown` pairs (regressions first) with where each first differs,
 * and every unpaired episode.
 */
export function comparisonLines(
  c: BatchComparison,
  shown: readonly PairRow[],
  firstDiffs: ReadonlyMap<PairRow, FirstDifference | null> = new Map(),
): string[] {
  const out = [sideLine('A (baseline)', c.a), sideLine('B (candidate)', c.b)];
  if (c.graph_diff) {
    const same = c.graph_diff.same && c.graph_diff.moved === 0;
    out.push(same ? 'graph: the same version' : 'graph changes (A → B):');
    if (!same) out.push(...graphDiffLines(c.graph_diff).map((l) => `  ${l}`));
  }
  out.push(
    `paired by seed: ${c.pairs.length} pairs; unpaired: ${c.unpaired_a.length} in A, ${c.unpaired_b.length} in B`,
  );
  const level = `${Math.round(c.bootstrap.level * 100)}%`;
  if (c.metrics.length > 0)
    out.push(
      ...table([
        ['metric', 'n', 'mean A', 'mean B', 'B − A', `${level} interval`],
        ...c.metrics.map((m) => [
          m.metric,
          String(m.n),
          num(m.mean_a),
          num(m.mean_b),
          signed(m.mean_diff),
          `[${num(m.ci_lo)}, ${num(m.ci_hi)}]`,
        ]),
      ]),
    );
  const s = c.success;
  out.push(
    `success rate: A ${pct(s.rate_a)} → B ${pct(s.rate_b)}` +
      (s.diff !== null
        ? ` (${signed(s.diff * 100)} points, ${level} [${num(s.ci_lo! * 100)}, ${num(s.ci_hi! * 100)}])`
        : '') +
      `; wins ${s.wins}, losses ${s.losses}, ties ${s.ties}`,
  );
  out.push(
    `bootstrap: ${c.bootstrap.resamples} paired resamples, seed ${c.bootstrap.seed}` +
      (c.metric ? `; pairs ordered by Δ ${c.metric}` : ''),
  );
  if (shown.length > 0) {
    out.push(
      `pairs (${shown.length < c.pairs.length ? `${shown.length} of ${c.pairs.length}, ` : ''}regressions first, then by Δ${c.metric ? ` ${c.metric}` : ''} ascending):`,
    );
    out.push(
      ...table([
        [
          'seed',
          'ep A',
          'ep B',
          'success',
          `Δ ${c.metric ?? ''}`.trim(),
          'first differs at',
          'run A',
          'run B',
        ],
        ...shown.map((p) => [
          String(p.seed),
          String(p.episode_a),
          String(p.episode_b),
          success(p),
          signed(p.delta),
          firstDiffText(firstDiffs.get(p)),
          p.run_a,
          p.run_b,
        ]),
      ]).map((l) => `  ${l}`),
    );
  }
  for (const [side, rows] of [
    ['A', c.unpaired_a],
    ['B', c.unpaired_b],
  ] as const)
    for (const r of rows)
      out.push(`unpaired in ${side}: episode ${r.episode} (seed ${r.seed}, ${r.status}, run ${r.run_id})`);
  return out;
}

/** The query's summary line and up to `limit` hits. */
export function queryLines(r: BatchQueryResult, limit: number, elapsedMs?: number): string[] {
  const out = [
    `query ${r.batch_id}: ${r.query} — ${r.hits.length} hit${r.hits.length === 1 ? '' : 's'} in ${r.episodes_hit} of ${r.episodes} episodes${elapsedMs !== undefined ? ` (${(elapsedMs / 1000).toFixed(2)} s)` : ''}`,
  ];
  if (r.hits.length === 0) return out;
  const rows = r.hits
    .slice(0, limit)
    .map((h: QueryRow) => [
      String(h.episode),
      String(h.step),
      h.value === null ? '' : shortValue(h.value),
      [...h.keys.map((k) => `[${k}]`), ...h.nodes.map((n) => `by ${n}`)].join(' '),
      h.run_id,
    ]);
  out.push(...table([['episode', 'step', 'value', 'where', 'run'], ...rows]));
  if (r.hits.length > limit)
    out.push(`… ${r.hits.length - limit} more (--limit N, --json or --csv FILE for all)`);
  return out;
}
