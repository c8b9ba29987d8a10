// Pure helpers of the batch Compare view: the pair table's order (regressions first by default, or by
// delta either way), and the figures as text (a difference with its sign, an interval, a rate).
import { comparePairRows, type PairRow } from '../../domain/batch/compare.ts';
import { formatMetric } from './batchTable.ts';

export type PairOrder = 'regressions' | 'delta-asc' | 'delta-desc';

/** Pairs in the chosen order; pairs without a delta come last either way, then by seed. */
export function orderPairs(pairs: readonly PairRow[], order: PairOrder): PairRow[] {
  if (order === 'regressions') return [...pairs].sort(comparePairRows);
  const sign = order === 'delta-asc' ? 1 : -1;
  return [...pairs].sort((x, y) => {
    if (x.delta === null || y.delta === null) {
      if (x.delta !== y.delta) return x.delta === null ? 1 : -1;
    } else if (x.delta !== y.delta) return sign * (x.delta - y.delta);
    return x.seed - y.seed;
  });
}

/** The next order a click on the Δ header gives. */
export function nextOrder(order: PairOrder): PairOrder {
  return order === 'regressions' ? 'delta-asc' : order === 'delta-asc' ? 'delta-desc' : 'regressions';
}

/** A difference with its sign: `+0.25`, `−1.5`, `0`. */
export function signed(v: number | null | undefined): string {
  if (v === null || v === undefined) return '–';
  const t = formatMetric(Math.abs(v));
  return v > 0 ? `+${t}` : v < 0 ? `−${t}` : t;
}

/** `[−0.4, +0.1]`; `excludesZero` says the interval does not contain 0 (a clear change). */
export function interval(lo: number | null, hi: number | null): { text: string; excludesZero: boolean } {
  if (lo === null || hi === null) return { text: '–', excludesZero: false };
  return { text: `[${signed(lo)}, ${signed(hi)}]`, excludesZero: lo > 0 || hi < 0 };
}

export const percent = (v: number) => `${(v * 100).toFixed(1)}%`;
