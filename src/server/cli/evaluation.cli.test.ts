// The evaluation commands as a user runs them, end to end with the real binary: `statewire batch`
// twice (same seed, different --set), `statewire compare A B` (text, --json, --csv),
// `statewire query` (text, --json, --csv) and `statewire diff` on two graph files.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchComparison } from '../../domain/batch/compare.ts';
import { BASELINE_SETS, CANDIDATE_SETS, DEMO_SEED } from '../batch/evaluation.testutil.ts';
import type { BatchQueryResult } from '../../domain/batch/evaluation.schema.ts';
import { runStatewire } from '../test/cli.testutil.ts';
import { tempWorkspace } from '../test/serverProcess.testutil.ts';

let ws: ReturnType<typeof tempWorkspace>;
let graph: string;
let a: string;
let b: string;

const statewire = (args: string[]) => runStatewire(args, ws.dir);

async function batch(sets: string[], episodes: number): Promise<string> {
  const args = [
    'batch',
    graph,
    '--episodes',
    String(episodes),
    '--workers',
    '2',
    '--seed',
    String(DEMO_SEED),
  ];
  const r = await statewire([...args, ...sets.flatMap((s) => ['--set', s]), '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { batch_id: string }).batch_id;
}

beforeAll(async () => {
  ws = tempWorkspace();
  graph = join(ws.dir, 'graphs', 'grid_navigator.json');
  a = await batch(BASELINE_SETS, 6);
  b = await batch(CANDIDATE_SETS, 6);
}, 180_000);
afterAll(() => ws.cleanup());

describe('statewire compare', () => {
  it('prints both versions, the graph change, the metric table, success counts and the pairs with their first difference', async () => {
    const r = await statewire(['compare', a, b, '--metric', 'distance']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(
      new RegExp(`^A \\(baseline\\) ${a}: Grid Navigator, version [0-9a-f]{8}, 6 episodes, seed 3`, 'm'),
    );
    expect(out).toContain('  node policy: config.epsilon 0.05 → 0.6');
    expect(out).toContain('paired by seed: 6 pairs; unpaired: 0 in A, 0 in B');
    expect(out).toMatch(/^metric +n +mean A +mean B +B − A +95% interval$/m);
    expect(out).toMatch(/^success rate: A [\d.]+% → B [\d.]+% .*; wins \d+, losses \d+, ties \d+$/m);
    expect(out).toMatch(/^ {2}seed +ep A +ep B +success +Δ distance +first differs at +run A +run B$/m);
    const pairLines = out.split('\n').filter((l) => l.includes(`${a}_e`));
    expect(pairLines).toHaveLength(6);
    for (const l of pairLines) expect(l).toMatch(/step \d+/);
  });

  it('--json is the whole comparison; --csv writes the pair table', async () => {
    const csv = join(ws.dir, 'pairs.csv');
    const r = await statewire(['compare', a, b, '--json', '--csv', csv, '--seed', '9']);
    expect(r.code, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout) as BatchComparison;
    expect(c.a.id).toBe(a);
    expect(c.bootstrap.seed).toBe(9);
    expect(c.pairs).toHaveLength(6);
    const lines = readFileSync(csv, 'utf8').trim().split('\r\n');
    expect(lines).toHaveLength(7);
    expect(lines[0]).toMatch(/^seed,outcome,episode_a,episode_b,run_a,run_b,/);
  });

  it('exits 2 naming what is wrong', async () => {
    const r = await statewire(['compare', a, 'batch_nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no batch "batch_nope"/);
    const m = await statewire(['compare', a, b, '--metric', 'nope']);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/metric "nope" is not reported by both batches/);
    const ws2 = await statewire(['compare', a, b, '--workspace', join(ws.dir, 'missing')]);
    expect(ws2.code).toBe(2);
    expect(ws2.stderr).toMatch(/no run database at .*missing/);
  });
});

describe('statewire query', () => {
  it('lists every (episode, step) where the condition holds, from the stored logs', async () => {
    const r = await statewire(['query', a, 'graph_state.step_count >= 7']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^query ${a}: graph_state.step_count >= 7 — 12 hits in 6 of 6 episodes \\([\\d.]+ s\\)$`,
        'm',
      ),
    );
    expect(r.stdout).toMatch(new RegExp(`^1 +7 +7 +${a}_e1$`, 'm'));
  });

  it('--json and --csv carry every hit with stable fields', async () => {
    const csv = join(ws.dir, 'hits.csv');
    const r = await statewire(['query', a, 'write memory.scratch', '--json', '--csv', csv]);
    expect(r.code, r.stderr).toBe(0);
    const q = JSON.parse(r.stdout) as BatchQueryResult;
    expect(q.query).toBe('write memory.scratch');
    expect(q.hits).toHaveLength(6 * 8);
    expect(q.hits[0]).toEqual({
      batch_id: a,
      episode: 1,
      seed: expect.any(Number),
      run_id: `${a}_e1`,
      step: 1,
      keys: [],
      nodes: ['write_reason'],
      value: null,
    });
    const lines = readFileSync(csv, 'utf8').trim().split('\r\n');
    expect(lines[0]).toBe('batch_id,episode,seed,run_id,step,keys,nodes,value');
    expect(lines).toHaveLength(1 + 48);
  });

  it('exits 2 on a condition it cannot read or a slot the graph lacks', async () => {
    const bad = await statewire(['query', a, 'step_count >= 3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/cannot read condition 'step_count >= 3'/);
    const slot = await statewire(['query', a, 'memory.nope length> 1']);
    expect(slot.code).toBe(2);
    expect(slot.stderr).toMatch(/container 'memory' has no slot 'nope' \(slots: trail, scratch\)/);
  });
});

describe('statewire diff', () => {
  it('lists the structural changes and both versions; exit 1 when they differ, 0 when not', async () => {
    const g = JSON.parse(readFileSync(graph, 'utf8')) as {
      nodes: { id: string; config: Record<string, unknown> }[];
      containers: { id: string; states: Record<string, { type: string }> }[];
    };
    g.nodes.find((n) => n.id === 'policy')!.config.epsilon = 0.4;
    g.containers.find((c) => c.id === 'memory')!.states.trail!.type = 'append';
    const other = join(ws.dir, 'other.json');
    writeFileSync(other, JSON.stringify(g));
    const r = await statewire(['diff', graph, other]);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toEqual([
      expect.stringMatching(/^A .*grid_navigator\.json version [0-9a-f]{8}$/),
      expect.stringMatching(/^B .*other\.json version [0-9a-f]{8}$/),
      'node policy: config.epsilon 0.1 → 0.4',
      'slot memory.trail: reducer "accumulator" → "append"',
      '',
    ]);
    const json = await statewire(['diff', graph, other, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      same: false,
      moved: 0,
      changes: [{ area: 'node' }, { area: 'slot' }],
    });
    const same = await statewire(['diff', graph, graph]);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/no changes\n$/);
    const missing = await statewire(['diff', graph, join(ws.dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json.*no such file/);
  });
});
