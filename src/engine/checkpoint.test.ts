import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGraph } from '../domain/graph/graph.parse.ts';
import type { GraphDef } from '../domain/graph/graph.schema.ts';
import type { EngineEvent } from '../domain/protocol/protocol.ts';
import { createRun } from './createRun.ts';
import type { Checkpoint, EffectStore } from './run.api.ts';
import { collector, container, edge, grant, graph, loop, node, paintedMap, slot } from './testkit.ts';

function demo(): GraphDef {
  const r = parseGraph(
    JSON.parse(readFileSync(new URL('../../workspace/graphs/grid_navigator.json', import.meta.url), 'utf8')),
  );
  if (!r.ok) throw new Error('demo graph does not parse');
  return { ...r.graph, step_budget: 40 };
}

const opts = { runId: 'r', now: () => 0 };

async function drive(run: { stepOnce(): Promise<{ done: boolean }> }, steps = Infinity) {
  for (let i = 0; i < steps; i++) if ((await run.stepOnce()).done) return;
}

/** Events after the nav_step of step k (exclusive). */
function after(events: EngineEvent[], k: number): EngineEvent[] {
  const i = events.findIndex((e) => e.type === 'nav_step' && e.data.step === k);
  return events.slice(i + 1);
}

describe('checkpoints: exact restore and resume', () => {
  it('resuming from step k in the same run replays exactly the original events', async () => {
    const original = collector();
    const a = createRun(demo(), opts, original.sink);
    await drive(a);
    expect(a.status).toBe('done');
    expect(a.checkpointSteps()).toHaveLength(40);

    const replay = collector();
    const b = createRun(demo(), opts, replay.sink);
    await drive(b, 25);
    const restored = replay.events.length;
    b.restore(12);
    expect(b.checkpointSteps().at(-1)).toBe(12);
    await drive(b);
    const resumed = replay.events.slice(restored);
    expect(resumed[0]!.type).toBe('restored');
    expect(JSON.parse(JSON.stringify(resumed.slice(1)))).toEqual(
      JSON.parse(JSON.stringify(after(original.events, 12))),
    );
  });

  it('a fork from a JSON round-tripped checkpoint replays the same events', async () => {
    const original = collector();
    const a = createRun(demo(), opts, original.sink);
    await drive(a);
    const cp = JSON.parse(JSON.stringify(a.checkpoint(7))) as Checkpoint;
    const forked = collector();
    const f = createRun(demo(), { ...opts, fromCheckpoint: cp }, forked.sink);
    expect(f.step).toBe(7);
    await drive(f);
    expect(forked.events[0]!.type).toBe('restored');
    expect(JSON.parse(JSON.stringify(forked.events.slice(1)))).toEqual(
      JSON.parse(JSON.stringify(after(original.events, 7))),
    );
  });

  it('a checkpoint holds node-local state, iterIn slots, scope counters and the queue', async () => {
    const a = createRun(demo(), opts, () => undefined);
    await drive(a, 5);
    const st = a.checkpoint(5)!.state as {
      live: {
        nodeStates: Record<string, unknown>;
        slots: Record<string, unknown>;
        scopes: Record<string, { counter: number }>;
        queue: string[];
      };
    };
    expect(st.live.scopes.loop_in!.counter).toBe(5);
    expect(st.live.queue).toContain('loop_in');
    expect(Object.keys(st.live.slots.loop_in as object)).toContain('iterout_action');
    expect(st.live.nodeStates.env).toMatchObject({ episode: 1, t: 4 });
    expect(a.stateAt(5)!.nodeStates.policy).toMatchObject({ decisions: 5 });
  });

  it('restore to an unknown step fails clearly; a retention limit keeps the newest', async () => {
    const a = createRun(demo(), { ...opts, retention: 3 }, () => undefined);
    await drive(a, 10);
    expect(a.checkpointSteps()).toEqual([8, 9, 10]);
    expect(() => a.restore(2)).toThrow(/no checkpoint at step 2 \(have: 8, 9, 10\)/);
  });

  it('unchanged values are shared by reference between checkpoints', async () => {
    const a = createRun(demo(), opts, () => undefined);
    await drive(a, 6);
    type S = {
      containers: Record<string, { values: Record<string, unknown> }>;
      live: { nodeStates: Record<string, { map?: unknown }> };
    };
    const s5 = a.checkpoint(5)!.state as S;
    const s6 = a.checkpoint(6)!.state as S;
    expect(s6.containers.graph_state!.values.goal).toBe(s5.containers.graph_state!.values.goal);
    expect(s6.live.nodeStates.env!.map).toBe(s5.live.nodeStates.env!.map);
    expect(s6.containers.graph_state!.values.step_count).not.toBe(
      s5.containers.graph_state!.values.step_count,
    );
  });
});

describe('checkpoints: structural sharing over a long run', () => {
  it('10,000 steps of a ~100 KB map changing one cell per step retain far less than 10,000 copies', async () => {
    const ROWS = 100;
    const COLS = 500;
    const STEPS = 10_000;
    const { graph: g, registry: reg, initial } = paintedMap(STEPS, ROWS, COLS);
    const mapBytes = JSON.stringify(initial).length;
    expect(mapBytes).toBeGreaterThan(95_000);
    let events = 0;
    const run = createRun(g, { runId: 'big', registry: reg }, () => void events++);
    await drive(run);
    expect(run.step).toBe(STEPS);
    const steps = run.checkpointSteps();
    expect(steps).toHaveLength(STEPS);

    const maps = new Set<unknown>();
    const rows = new Set<unknown>();
    for (const s of steps) {
      const map = (run.checkpoint(s)!.state as { containers: { world: { values: { map: unknown[] } } } })
        .containers.world.values.map;
      maps.add(map);
      for (const row of map) rows.add(row);
    }
    // Each step replaces exactly one row and the outer array; everything else is shared. So the
    // history holds at most STEPS maps (100 references each) and ROWS + STEPS rows, i.e. about
    // (ROWS + STEPS) × rowBytes ≈ 10 MB of rows instead of STEPS × mapBytes ≈ 1 GB of copies.
    expect(maps.size).toBe(STEPS);
    expect(rows.size).toBeLessThanOrEqual(ROWS + STEPS);
    const rowBytes = JSON.stringify(initial[0]).length;
    const retained = rows.size * rowBytes + maps.size * ROWS * 8;
    const copies = STEPS * mapBytes;
    expect(retained / copies).toBeLessThan(0.02);
  }, 60_000);
});

describe('effects (recorded, docs/architecture.md "Run state and durability")', () => {
  it('llm calls are recorded once and replayed on a fork with the same lineage', async () => {
    const store = new Map<string, unknown>();
    const effects: EffectStore = {
      lookup: (k) => store.get(k),
      record: (k, _req, res) => void store.set(k, res),
    };
    let calls = 0;
    const llm = { name: 'counting', complete: async () => ({ texts: [`answer ${++calls}`], usage: {} }) };
    const g = graph({
      step_budget: 3,
      nodes: [...loop('in', 'out', [{ name: 'r' }]), node('ask', 'llmCall', { template: 'step {step}' })],
      edges: [edge('in.step', 'ask.context'), edge('ask.response', 'out.r')],
    });
    g.nodes = g.nodes.map((n) =>
      n.id === 'ask' ? { ...n, config: { ...n.config, template: 'step {context}' } } : n,
    );
    const first = collector();
    const a = createRun(g, { ...opts, effects, llm, lineage: 'L1' }, first.sink);
    await drive(a);
    expect(calls).toBe(3);
    expect(first.of('effect').map((e) => e.mode)).toEqual(['recorded', 'recorded', 'recorded']);
    expect(first.of('llm_usage')[0]).toMatchObject({
      node_id: 'ask',
      step: 1,
      usage: { provider: 'counting' },
    });
    const fork = collector();
    const f = createRun(
      g,
      { ...opts, effects, llm, lineage: 'L1', fromCheckpoint: a.checkpoint(1)! },
      fork.sink,
    );
    await drive(f);
    expect(calls).toBe(3);
    expect(fork.of('effect').map((e) => e.mode)).toEqual(['replayed', 'replayed']);
    const fresh = createRun(g, { ...opts, effects, llm, lineage: 'L1', freshEffects: true }, () => undefined);
    await drive(fresh);
    expect(calls).toBe(6);
  });
});

describe('checkpoints: nested scopes restore exactly', () => {
  it('inner-scope counters, slots and node state come back, so a nested run resumes identically', async () => {
    const g = graph({
      step_budget: 4,
      nodes: [
        ...loop('o_in', 'o_out', [{ name: 'v' }]),
        ...loop('i_in', 'i_out', [{ name: 'v' }], [{ name: 'k' }], { step_budget: 3 }),
        node('log', 'historyLog', { template: '{step}/{entry}' }),
        node('w', 'stateWrite', { container: 'm', state: 'n', value: 1 }),
      ],
      edges: [
        edge('o_in.step', 'i_in.init_k'),
        edge('i_in.step', 'log.entry'),
        edge('log.history', 'i_out.v'),
        edge('i_out.final_v', 'w.value'),
        edge('w.value', 'o_out.v'),
      ],
      containers: [container('m', { n: slot('counter'), s: slot('lastWrite', { lifetime: 'step' }) })],
      access_grants: [grant('w', 'm')],
    });
    const original = collector();
    const a = createRun(g, opts, original.sink);
    await drive(a);
    expect(a.status).toBe('done');
    const cp = a.checkpoint(2)!;
    const forked = collector();
    const f = createRun(
      g,
      { ...opts, fromCheckpoint: JSON.parse(JSON.stringify(cp)) as Checkpoint },
      forked.sink,
    );
    await drive(f);
    expect(JSON.parse(JSON.stringify(forked.events.slice(1)))).toEqual(
      JSON.parse(JSON.stringify(after(original.events, 2))),
    );
    expect(f.stateAt()!.nodeStates.log).toEqual(a.stateAt()!.nodeStates.log);
  });

  it('restore is refused while a step is running', async () => {
    const a = createRun(demo(), opts, () => undefined);
    await drive(a, 2);
    const p = a.stepOnce();
    expect(() => a.restore(1)).toThrow(/while a step is running/);
    await p;
    expect(() => a.restore(1)).not.toThrow();
  });
});
