// Evaluation over two real batches of the demo graph (same base seed, different `--set` values), in
// both stores: SQLite (the embedded default) and a real PostgreSQL. Pairing and unpaired episodes,
// the intervals against a direct computation, the regressions order, the graph diff and versions;
// batch queries against a brute-force scan of the same logs; the first differing step of a pair.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairedBootstrap } from '../../domain/batch/bootstrap.ts';
import { comparisonToCsv } from '../../domain/batch/evaluationCsv.ts';
import { parseBreakExpression, type Breakpoint } from '../../domain/debug/breakpoints.ts';
import type { NavStepData } from '../../domain/protocol/protocol.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import type { RunLog } from '../db/runLog.ts';
import { SqliteRunLog } from '../db/sqliteRunLog.ts';
import { startPostgres, type PgServer } from '../test/pgServer.ts';
import { compareStoredBatches, firstStoredDifference, queryStoredBatch } from './evaluation.ts';
import {
  BASELINE_SETS,
  bruteForceSteps,
  CANDIDATE_SETS,
  runDemoBatch,
  wholeLog,
} from './evaluation.testutil.ts';

const A_EPISODES = 10;
const B_EPISODES = 12;

interface Store {
  log: RunLog;
  close(): Promise<void>;
}

const stores: [string, () => Promise<Store>][] = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sw-eval-'));
      const log = SqliteRunLog.open(join(dir, 'runs.db'));
      return {
        log,
        close: async () => {
          await log.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'postgres',
    async () => {
      const pg: PgServer = await startPostgres();
      const log = await PgRunLog.connect(pg.url);
      return {
        log,
        close: async () => {
          await log.close();
          await pg.stop();
        },
      };
    },
  ],
];

const query = (text: string): Breakpoint => {
  const q = parseBreakExpression(text);
  if ('error' in q) throw new Error(q.error);
  return q;
};

describe.each(stores)('evaluation over stored batches (%s)', (_name, open) => {
  let store: Store;
  let log: RunLog;
  let a: string;
  let b: string;

  beforeAll(async () => {
    store = await open();
    log = store.log;
    a = await runDemoBatch(log, BASELINE_SETS, A_EPISODES);
    b = await runDemoBatch(log, CANDIDATE_SETS, B_EPISODES);
  }, 180_000);
  afterAll(async () => store?.close());

  it('records the graph version of each batch on the batch and every episode run', async () => {
    const [ra, rb] = [(await log.getBatch(a))!, (await log.getBatch(b))!];
    expect(ra.graph_version).toMatch(/^[0-9a-f]{64}$/);
    expect(rb.graph_version).toMatch(/^[0-9a-f]{64}$/);
    expect(ra.graph_version).not.toBe(rb.graph_version);
    for (const [batch, version] of [
      [a, ra.graph_version],
      [b, rb.graph_version],
    ] as const)
      for (const row of await log.episodes(batch))
        expect((await log.getRun(row.run_id))?.graph_version).toBe(version);
  });

  it('pairs episodes by seed, lists the unpaired ones, and diffs the two graph versions', async () => {
    const c = await compareStoredBatches(log, a, b);
    expect(c.pairs).toHaveLength(A_EPISODES);
    for (const p of c.pairs) expect(p.episode_a).toBe(p.episode_b); // same base seed: same seed per episode
    expect(c.unpaired_a).toEqual([]);
    expect(c.unpaired_b.map((r) => r.episode)).toEqual([11, 12]);
    expect(c.graph_diff?.changes.map((x) => x.text)).toEqual(['node policy: config.epsilon 0.05 → 0.6']);
    const csv = comparisonToCsv(c).trim().split('\r\n');
    expect(csv).toHaveLength(1 + A_EPISODES + 2);
  });

  it('gives each metric the means and the paired-bootstrap interval of a direct computation', async () => {
    const c = await compareStoredBatches(log, a, b, { seed: 7, resamples: 1500 });
    const rowsA = await log.episodes(a);
    const rowsB = new Map((await log.episodes(b)).map((r) => [r.seed, r]));
    expect(c.metrics.length).toBeGreaterThan(3);
    for (const m of c.metrics) {
      const pairs = rowsA.flatMap((ra) => {
        const rb = rowsB.get(ra.seed);
        return rb && m.metric in ra.metrics && m.metric in rb.metrics
          ? [[ra.metrics[m.metric]!, rb.metrics[m.metric]!] as const]
          : [];
      });
      expect(m.n).toBe(pairs.length);
      const meanA = pairs.reduce((s, [x]) => s + x, 0) / pairs.length;
      const meanB = pairs.reduce((s, [, y]) => s + y, 0) / pairs.length;
      expect(m.mean_a).toBeCloseTo(meanA, 10);
      expect(m.mean_b).toBeCloseTo(meanB, 10);
      const ci = pairedBootstrap(
        pairs.map(([x, y]) => y - x),
        { seed: 7, resamples: 1500 },
      )!;
      expect(m.mean_diff).toBeCloseTo(meanB - meanA, 10);
      expect([m.ci_lo, m.ci_hi]).toEqual([ci.lo, ci.hi]);
    }
    // the same seed gives the same answer
    expect(await compareStoredBatches(log, a, b, { seed: 7, resamples: 1500 })).toEqual(c);
  });

  it('counts wins and losses and lists regressions first, then by delta ascending', async () => {
    const c = await compareStoredBatches(log, a, b, { metric: 'distance' });
    const losses = c.pairs.filter((p) => p.success_a && !p.success_b).length;
    const wins = c.pairs.filter((p) => !p.success_a && p.success_b).length;
    expect(losses).toBeGreaterThan(0); // the noisier policy loses some episodes the careful one won
    expect(c.success).toMatchObject({ wins, losses, ties: A_EPISODES - wins - losses });
    const outcomes = c.pairs.map((p) => p.outcome);
    expect(outcomes.slice(0, losses).every((o) => o === 'regression')).toBe(true);
    expect(outcomes.slice(losses)).not.toContain('regression');
    for (const group of [c.pairs.slice(0, losses), c.pairs.slice(losses)]) {
      const deltas = group.map((p) => p.delta!);
      expect(deltas).toEqual([...deltas].sort((x, y) => x - y));
    }
  });

  it.each([
    'graph_state.step_count >= 5',
    'memory.trail length> 3',
    'graph_state.stats.distance <= 1',
    'write memory.scratch',
    'write graph_state.step_count by policy',
    'clear graph_state.last_obs',
    'clear memory.trail',
  ])('query %s finds exactly the steps a brute-force scan of the logs finds', async (text) => {
    const r = await queryStoredBatch(log, a, text);
    const q = query(text);
    let expected = 0;
    for (const row of await log.episodes(a)) {
      const want = bruteForceSteps(await wholeLog(log, row.run_id), q);
      const got = r.hits.filter((h) => h.run_id === row.run_id).map((h) => h.step);
      expect(got, `episode ${row.episode}`).toEqual(want);
      expected += want.length;
    }
    expect(r.hits).toHaveLength(expected);
    expect(expected).toBeGreaterThan(0); // each condition holds somewhere: a real comparison
    expect(r.episodes).toBe(A_EPISODES);
  });

  it('finds the first step where a pair of runs differ, as a step-by-step scan does', async () => {
    const c = await compareStoredBatches(log, a, b);
    for (const p of c.pairs.slice(0, 4)) {
      const { first } = await firstStoredDifference(log, p.run_a, p.run_b);
      const snaps = async (id: string) =>
        new Map(
          (await log.events(id, 0, 100_000, 'nav_step')).map((e) => {
            const d = e.data as NavStepData;
            const values = Object.entries(d.containers).map(([cid, cs]) => [
              cid,
              Object.entries(cs.states).map(([s, v]) => [s, v.value, v.keyed, v.type, v.lifetime]),
            ]);
            return [d.step, JSON.stringify([values, d.nodeStates])] as const;
          }),
        );
      const [sa, sb] = [await snaps(p.run_a), await snaps(p.run_b)];
      const steps = [...new Set([...sa.keys(), ...sb.keys()])].sort((x, y) => x - y);
      const want = steps.find((s) => sa.get(s) !== sb.get(s));
      expect(first?.step).toBe(want);
      if (first) expect(first.slots.length + first.nodes.length).toBeGreaterThan(0);
    }
    // a run against itself never differs
    expect((await firstStoredDifference(log, c.pairs[0]!.run_a, c.pairs[0]!.run_a)).first).toBeNull();
  });

  it('says what is wrong with a query, a metric or an id', async () => {
    await expect(queryStoredBatch(log, a, 'memory.nope > 1')).rejects.toMatchObject({
      status: 400,
      code: 'unknown-slot',
    });
    await expect(queryStoredBatch(log, a, 'nonsense')).rejects.toMatchObject({ code: 'invalid-condition' });
    await expect(queryStoredBatch(log, 'batch_none', 'memory.trail length> 1')).rejects.toMatchObject({
      status: 404,
      code: 'no-batch',
    });
    await expect(compareStoredBatches(log, a, b, { metric: 'nope' })).rejects.toMatchObject({
      code: 'unknown-metric',
    });
    await expect(firstStoredDifference(log, 'run_none', 'run_none')).rejects.toMatchObject({ status: 404 });
  });
});
