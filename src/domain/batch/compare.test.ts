import { describe, expect, it } from 'vitest';
import type { BatchRecord, EpisodeRow } from './batch.types.ts';
import { pairedBootstrap } from './bootstrap.ts';
import { compareBatches, CompareError, pairEpisodes, type CompareInput } from './compare.ts';

const row = (side: string, episode: number, seed: number, over: Partial<EpisodeRow> = {}): EpisodeRow => ({
  episode,
  seed,
  run_id: `${side}_e${episode}`,
  status: 'done',
  steps: 10,
  outputs: {},
  metrics: {},
  success: false,
  ...over,
});

const batch = (id: string, over: Partial<BatchRecord> = {}): Omit<BatchRecord, 'graph'> => ({
  id,
  graph_name: 'demo',
  graph_version: `${id}-version`,
  episodes: 4,
  workers: 1,
  seed: 1,
  sets: [],
  mode: 'embedded',
  status: 'done',
  created_at: '2026-01-01T00:00:00.000Z',
  ended_at: null,
  error: null,
  ...over,
});

const side = (id: string, rows: EpisodeRow[]): CompareInput => ({ batch: batch(id), rows });

describe('pairEpisodes', () => {
  it('pairs by seed whatever the episode numbers, and lists the rest of each side', () => {
    const a = [row('a', 1, 11), row('a', 2, 12), row('a', 3, 13)];
    const b = [row('b', 5, 13), row('b', 1, 11), row('b', 9, 99)];
    const p = pairEpisodes(a, b);
    expect(p.pairs.map((x) => [x.seed, x.a.episode, x.b.episode])).toEqual([
      [11, 1, 1],
      [13, 3, 5],
    ]);
    expect(p.unpaired_a.map((r) => r.episode)).toEqual([2]);
    expect(p.unpaired_b.map((r) => r.episode)).toEqual([9]);
  });

  it('pairs a repeated seed first with first, in episode order', () => {
    const p = pairEpisodes([row('a', 2, 7), row('a', 1, 7)], [row('b', 3, 7)]);
    expect(p.pairs.map((x) => [x.a.episode, x.b.episode])).toEqual([[1, 3]]);
    expect(p.unpaired_a.map((r) => r.episode)).toEqual([2]);
    expect(p.unpaired_b).toEqual([]);
  });
});

describe('compareBatches', () => {
  const A = [
    row('a', 1, 101, { success: true, metrics: { reward: 1, steps: 5 } }),
    row('a', 2, 102, { success: true, metrics: { reward: 0.5, steps: 8 } }),
    row('a', 3, 103, { success: false, metrics: { reward: 0, steps: 9 } }),
    row('a', 4, 104, { success: true, metrics: { reward: 0.9, steps: 3 } }),
    row('a', 5, 105, { success: false, metrics: { reward: 0.2 } }),
  ];
  const B = [
    row('b', 1, 101, { success: false, metrics: { reward: 0.2, steps: 6 } }), // regression, Δ −0.8
    row('b', 2, 102, { success: false, metrics: { reward: 0.4, steps: 8 } }), // regression, Δ −0.1
    row('b', 3, 103, { success: true, metrics: { reward: 0.7, steps: 4 } }), // improvement, Δ +0.7
    row('b', 4, 104, { success: true, metrics: { reward: 0.6, steps: 3 } }), // same, Δ −0.3
    row('b', 6, 106, { success: true, metrics: { reward: 1 } }), // no partner
  ];

  it('computes per-metric means over pairs and the interval of the paired differences', () => {
    const c = compareBatches(side('A', A), side('B', B), { seed: 3, resamples: 1000 });
    expect(c.metric_names).toEqual(['reward', 'steps']);
    const reward = c.metrics.find((m) => m.metric === 'reward')!;
    const diffs = [0.2 - 1, 0.4 - 0.5, 0.7 - 0, 0.6 - 0.9];
    const ci = pairedBootstrap(diffs, { seed: 3, resamples: 1000 })!;
    expect(reward.n).toBe(4);
    expect(reward.mean_a).toBeCloseTo((1 + 0.5 + 0 + 0.9) / 4, 12);
    expect(reward.mean_b).toBeCloseTo((0.2 + 0.4 + 0.7 + 0.6) / 4, 12);
    expect(reward.mean_diff).toBeCloseTo(reward.mean_b - reward.mean_a, 12);
    expect([reward.ci_lo, reward.ci_hi]).toEqual([ci.lo, ci.hi]);
    expect(reward.ci_lo).toBeLessThanOrEqual(reward.mean_diff);
    expect(reward.ci_hi).toBeGreaterThanOrEqual(reward.mean_diff);
    // `steps` is reported by four pairs (episode 5/6 have none)
    expect(c.metrics.find((m) => m.metric === 'steps')).toMatchObject({ n: 4, mean_a: 6.25, mean_b: 5.25 });
  });

  it('counts wins, losses and ties and gives both success rates over the pairs', () => {
    const c = compareBatches(side('A', A), side('B', B));
    expect(c.success).toMatchObject({ n: 4, rate_a: 0.75, rate_b: 0.5, wins: 1, losses: 2, ties: 1 });
    expect(c.success.diff).toBeCloseTo(-0.25, 12);
  });

  it('puts regressions first, then everything by the delta ascending', () => {
    const c = compareBatches(side('A', A), side('B', B), { metric: 'reward' });
    expect(c.metric).toBe('reward');
    expect(c.pairs.map((p) => [p.seed, p.outcome])).toEqual([
      [101, 'regression'],
      [102, 'regression'],
      [104, 'same'],
      [103, 'improvement'],
    ]);
    expect(c.pairs[0]).toMatchObject({ run_a: 'a_e1', run_b: 'b_e1', success_a: true, success_b: false });
    expect(c.pairs[0]!.delta).toBeCloseTo(-0.8, 12);
    expect(c.pairs[0]!.deltas.steps).toBe(1);
  });

  it('never drops an unpaired episode', () => {
    const c = compareBatches(side('A', A), side('B', B));
    expect(c.unpaired_a.map((r) => r.seed)).toEqual([105]);
    expect(c.unpaired_b.map((r) => r.seed)).toEqual([106]);
    expect(c.a).toMatchObject({ id: 'A', episodes: 5, graph_version: 'A-version' });
  });

  it('orders by `score`, else `reward`, else the first shared metric; refuses a metric not shared', () => {
    expect(compareBatches(side('A', A), side('B', B)).metric).toBe('reward');
    const only = (rows: EpisodeRow[]) =>
      rows.map((r) => ({ ...r, metrics: { steps: r.metrics.steps ?? 0 } }));
    expect(compareBatches(side('A', only(A)), side('B', only(B))).metric).toBe('steps');
    expect(() => compareBatches(side('A', A), side('B', B), { metric: 'nope' })).toThrow(CompareError);
    expect(() => compareBatches(side('A', A), side('B', B), { metric: 'nope' })).toThrow(
      /shared metrics: reward, steps/,
    );
  });

  it('has no pairs when the batches share no seed', () => {
    const c = compareBatches(side('A', A), side('B', [row('b', 1, 1)]));
    expect(c.pairs).toEqual([]);
    expect(c.metrics).toEqual([]);
    expect(c.success).toMatchObject({ n: 0, diff: null, wins: 0, losses: 0, ties: 0 });
    expect(c.unpaired_a).toHaveLength(5);
  });
});
