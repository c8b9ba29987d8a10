// The paired bootstrap of a mean difference: given the per-pair differences d_i = B_i − A_i of two
// batches' paired episodes, resample the pairs with replacement `resamples` times, take the mean of
// each resample, and read the interval off the sorted means (percentile method, linear
// interpolation between order statistics as numpy's default quantile does). Resampling pairs — not
// each side on its own — keeps what the pairing buys: the episode-to-episode variation both sides
// share (same seed, same start) cancels in d_i, so the interval is as narrow as the data allow.
//
// Reproducible: the draws come from the seeded PRNG only (domain/random/prng.ts), so the same rows,
// seed and resample count give the same interval on any machine. Every metric of one comparison
// uses the same seed, hence the same resampled index sets.
import { nextInt, seedState } from '../random/prng.ts';

export interface BootstrapOptions {
  /** PRNG seed (default 1). */
  seed?: number;
  /** Number of resamples (default 2,000). */
  resamples?: number;
  /** Confidence level in (0, 1) (default 0.95). */
  level?: number;
}

export interface MeanInterval {
  /** Mean of the differences (the point estimate). */
  mean: number;
  /** Lower and upper bounds of the interval (equal to the mean for a single pair). */
  lo: number;
  hi: number;
  n: number;
}

export const DEFAULT_BOOTSTRAP = { seed: 1, resamples: 2000, level: 0.95 } as const;
export const MAX_RESAMPLES = 100_000;

/** The q-quantile (0 ≤ q ≤ 1) of an ascending array, interpolating linearly (numpy "linear"). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const at = q * (n - 1);
  const lo = Math.floor(at);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** The means of `resamples` resamples of `values` (each of size n, drawn with replacement). */
export function resampledMeans(values: readonly number[], resamples: number, seed: number): Float64Array {
  const n = values.length;
  const means = new Float64Array(resamples);
  let state = seedState(seed);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      let j: number;
      [j, state] = nextInt(state, n);
      sum += values[j]!;
    }
    means[r] = sum / n;
  }
  return means;
}

/** The mean of the paired differences with its bootstrap interval; null when there are no pairs. */
export function pairedBootstrap(diffs: readonly number[], opts: BootstrapOptions = {}): MeanInterval | null {
  const n = diffs.length;
  if (n === 0) return null;
  const seed = opts.seed ?? DEFAULT_BOOTSTRAP.seed;
  const resamples = opts.resamples ?? DEFAULT_BOOTSTRAP.resamples;
  const level = opts.level ?? DEFAULT_BOOTSTRAP.level;
  let mean = 0;
  for (const d of diffs) mean += d;
  mean /= n;
  if (n === 1) return { mean, lo: mean, hi: mean, n };
  const means = resampledMeans(diffs, resamples, seed).sort();
  const tail = (1 - level) / 2;
  return { mean, lo: quantileSorted(means, tail), hi: quantileSorted(means, 1 - tail), n };
}
