import { describe, expect, it } from 'vitest';
import { nextRandom, seedState } from '../random/prng.ts';
import { pairedBootstrap, quantileSorted } from './bootstrap.ts';

/** The bootstrap written out plainly: draw indexes with the same PRNG, average, sort, interpolate. */
function direct(diffs: number[], seed: number, resamples: number, level: number) {
  let state = seedState(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < diffs.length; i++) {
      const [u, next] = nextRandom(state);
      state = next;
      sum += diffs[Math.floor(u * diffs.length)]!;
    }
    means.push(sum / diffs.length);
  }
  means.sort((a, b) => a - b);
  const at = (q: number) => {
    const pos = q * (means.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(lo + 1, means.length - 1);
    return means[lo]! * (1 - (pos - lo)) + means[hi]! * (pos - lo);
  };
  return { lo: at((1 - level) / 2), hi: at(1 - (1 - level) / 2) };
}

describe('quantileSorted', () => {
  it('interpolates between order statistics (numpy "linear")', () => {
    expect(quantileSorted([1, 2, 3, 4], 0)).toBe(1);
    expect(quantileSorted([1, 2, 3, 4], 1)).toBe(4);
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([10, 20], 0.25)).toBe(12.5);
    expect(quantileSorted([], 0.5)).toBeNaN();
  });
});

describe('pairedBootstrap', () => {
  const diffs = [0.5, -1, 2, 0, 0.25, 3, -0.5, 1, 1.5, -2, 0.75, 0.1];

  it('equals the resampling written out directly (same seed, same draws)', () => {
    for (const [seed, resamples, level] of [
      [1, 2000, 0.95],
      [42, 500, 0.9],
      [-7, 3000, 0.99],
    ] as const) {
      const got = pairedBootstrap(diffs, { seed, resamples, level })!;
      const want = direct(diffs, seed, resamples, level);
      expect(got.lo).toBeCloseTo(want.lo, 12);
      expect(got.hi).toBeCloseTo(want.hi, 12);
      expect(got.mean).toBeCloseTo(diffs.reduce((s, x) => s + x, 0) / diffs.length, 12);
      expect(got.n).toBe(diffs.length);
    }
  });

  it('is reproducible for a seed and moves with another seed', () => {
    const a = pairedBootstrap(diffs, { seed: 3 });
    expect(pairedBootstrap(diffs, { seed: 3 })).toEqual(a);
    expect(pairedBootstrap(diffs, { seed: 4 })).not.toEqual(a);
  });

  it('approaches the exact bootstrap distribution of a tiny sample', () => {
    // Every one of the 3^3 resamples of [0, 0, 3] is equally likely: the mean is 0 with
    // probability 8/27 and 3 with probability 1/27, so the 2.5% point is 0 and the 97.5% point 3.
    const r = pairedBootstrap([0, 0, 3], { seed: 9, resamples: 20_000 })!;
    expect(r.lo).toBe(0);
    expect(r.hi).toBe(3);
  });

  it('agrees with the normal approximation on a large sample', () => {
    // A deterministic, roughly symmetric sample of 400 differences.
    let s = seedState(11);
    const xs = Array.from({ length: 400 }, () => {
      let sum = 0;
      for (let k = 0; k < 4; k++) {
        const [u, n] = nextRandom(s);
        s = n;
        sum += u;
      }
      return sum - 1.5;
    });
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length);
    const half = (1.96 * sd) / Math.sqrt(xs.length);
    const r = pairedBootstrap(xs, { seed: 5, resamples: 4000 })!;
    expect(r.lo).toBeGreaterThan(mean - half * 1.15);
    expect(r.lo).toBeLessThan(mean - half * 0.85);
    expect(r.hi).toBeGreaterThan(mean + half * 0.85);
    expect(r.hi).toBeLessThan(mean + half * 1.15);
  });

  it('degenerates sensibly: no pairs, one pair, all equal', () => {
    expect(pairedBootstrap([])).toBeNull();
    expect(pairedBootstrap([2.5])).toEqual({ mean: 2.5, lo: 2.5, hi: 2.5, n: 1 });
    expect(pairedBootstrap([1, 1, 1, 1])).toEqual({ mean: 1, lo: 1, hi: 1, n: 4 });
  });
});
