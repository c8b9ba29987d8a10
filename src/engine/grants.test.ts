import { describe, expect, it } from 'vitest';
import type { GraphDef } from '../domain/graph/graph.schema.ts';
import type { FireList } from './dynamic.ts';
import type { NodeContext } from './handler.types.ts';
import { createRegistry } from './registry.ts';
import { container, edge, grant, graph, loop, node, runAll, slot } from './testkit.ts';

/** A registry with a `probe` that reports what ctx shows it, and a `spawner` returning config.fireList. */
function registry(seen: Record<string, unknown>[]) {
  const reg = createRegistry();
  const any = (name: string) => ({ name, wire_type: 'ANY', optional: true });
  reg.register(
    {
      type: 'probe',
      display_name: 'probe',
      input_ports: [any('value')],
      output_ports: [any('value'), any('id')],
    },
    (inputs, ctx: NodeContext) => {
      seen.push({
        id: ctx.node.id,
        containers: Object.keys(ctx.containers),
        graph_state: ctx.graph_state?.id ?? null,
        value: inputs.value,
      });
      if (ctx.node.config.write) ctx.container('shared_runtime').write('log', ctx.node.id);
      if (ctx.node.config.fail) throw new Error('child failed');
      return { value: inputs.value, id: ctx.node.id };
    },
  );
  reg.register(
    {
      type: 'spawner',
      display_name: 'spawner',
      input_ports: [any('value')],
      output_ports: [any('value'), any('own')],
    },
    {
      fire: (_i, ctx) => ({
        outputs: { own: 'spawner', value: 'spawner' },
        fireList: ctx.node.config.fireList as FireList,
      }),
    },
  );
  return reg;
}

function spawnGraph(fireList: FireList, extra: Partial<GraphDef> = {}): GraphDef {
  return graph({
    nodes: [
      node('seed', 'constant', { value: 1 }),
      node('sp', 'spawner', { fireList }),
      node('sink', 'stateWrite', { container: 'out', state: 'got' }),
    ],
    edges: [edge('seed.value', 'sp.value'), edge('sp.value', 'sink.value')],
    containers: [
      container('shared_runtime', { log: slot('accumulator') }),
      container('other', {}),
      container('out', { got: slot('accumulator') }),
    ],
    access_grants: [grant('sp', 'shared_runtime'), grant('sink', 'out')],
    ...extra,
  });
}

const out = (r: Awaited<ReturnType<typeof runAll>>) => r.run.stateAt()!.containers.out!.states.got!.value;

describe('grants and ctx injection', () => {
  it('a node sees exactly its granted containers; graph_state only with a grant', async () => {
    const seen: Record<string, unknown>[] = [];
    const g = graph({
      nodes: [node('seed', 'constant', { value: 1 }), node('a', 'probe'), node('b', 'probe')],
      edges: [edge('seed.value', 'a.value'), edge('seed.value', 'b.value')],
      containers: [container('graph_state', {}), container('mem', {}), container('other', {})],
      access_grants: [grant('a', 'mem'), grant('a', 'graph_state'), grant('b', 'other')],
    });
    await runAll(g, { registry: registry(seen) });
    expect(seen).toEqual([
      { id: 'a', containers: ['mem', 'graph_state'], graph_state: 'graph_state', value: 1 },
      { id: 'b', containers: ['other'], graph_state: null, value: 1 },
    ]);
  });
});

describe('dynamic fire-lists', () => {
  it('children inherit the spawner grants and fire in order', async () => {
    const seen: Record<string, unknown>[] = [];
    const r = await runAll(
      spawnGraph({
        specs: [
          { node_type: 'probe', inputs: { value: 'a' }, config: { write: true } },
          { node_type: 'probe', inputs: { value: 'b' }, config: { write: true } },
        ],
      }),
      { registry: registry(seen) },
    );
    expect(seen.map((s) => s.containers)).toEqual([['shared_runtime'], ['shared_runtime']]);
    expect(seen.map((s) => s.id)).toEqual(['sp::dyn0', 'sp::dyn1']);
    expect(r.run.stateAt()!.containers.shared_runtime!.states.log!.value).toEqual(['sp::dyn0', 'sp::dyn1']);
    // The aggregate (passthrough_last) wins over the spawner's own `value`.
    expect(out(r)).toEqual(['b']);
    const logs = r.of('exec_log').filter((l) => l.parent_node_id === 'sp');
    expect(logs.map((l) => l.dynamic_index)).toEqual([0, 1]);
  });

  it('an empty fire-list aggregates to nothing, so spawner outputs pass', async () => {
    const r = await runAll(spawnGraph({ specs: [] }), { registry: registry([]) });
    expect(out(r)).toEqual(['spawner']);
  });

  it('a child error stops the sequence and fails the spawner', async () => {
    const seen: Record<string, unknown>[] = [];
    const r = await runAll(
      spawnGraph({ specs: [{ node_type: 'probe', config: { fail: true } }, { node_type: 'probe' }] }),
      { registry: registry(seen) },
    );
    expect(seen).toHaveLength(1);
    expect(r.run.status).toBe('error');
    expect(r.of('error_event')[0]!.message).toContain('child sp::dyn0 (probe) failed: child failed');
  });

  it('forbidden child types and unknown aggregators are rejected', async () => {
    const bad = await runAll(spawnGraph({ specs: [{ node_type: 'iterIn' }] }), { registry: registry([]) });
    expect(bad.of('error_event')[0]!.message).toContain("type 'iterIn' cannot be spawned");
    const agg = await runAll(
      spawnGraph({ specs: [{ node_type: 'probe' }], aggregator: { kind: 'nope' } as never }),
      { registry: registry([]) },
    );
    expect(agg.of('error_event')[0]!.message).toContain("unknown aggregator kind 'nope'");
  });

  it('a nested fire-list is rejected', async () => {
    const r = await runAll(
      spawnGraph({ specs: [{ node_type: 'spawner', config: { fireList: { specs: [] } } }] }),
      { registry: registry([]) },
    );
    expect(r.of('error_event')[0]!.message).toContain('nested fire-lists are not allowed');
  });

  it('aggregators: passthrough_index, merge_all, rename; capture_outputs whitelists', async () => {
    const specs = [
      { node_type: 'probe', inputs: { value: 'x' } },
      { node_type: 'probe', inputs: { value: 'y' }, capture_outputs: ['id'] },
    ];
    const idx = await runAll(spawnGraph({ specs, aggregator: { kind: 'passthrough_index', index: 0 } }), {
      registry: registry([]),
    });
    expect(out(idx)).toEqual(['x']);
    // merge_all: the second child only captured `id`, so `value` comes from the first.
    const merged = await runAll(spawnGraph({ specs, aggregator: { kind: 'merge_all' } }), {
      registry: registry([]),
    });
    expect(out(merged)).toEqual(['x']);
    const renamed = await runAll(
      spawnGraph({
        specs,
        aggregator: { kind: 'rename', map: { id: 'value' }, inner: { kind: 'passthrough_last' } },
      }),
      { registry: registry([]) },
    );
    expect(out(renamed)).toEqual(['sp::dyn1']);
  });

  it('fresh children are created per loop iteration', async () => {
    const seen: Record<string, unknown>[] = [];
    const g = graph({
      step_budget: 2,
      nodes: [
        ...loop('in', 'out', [{ name: 'v' }]),
        node('sp', 'spawner', { fireList: { specs: [{ node_type: 'probe', inputs: { value: 1 } }] } }),
      ],
      edges: [edge('in.step', 'sp.value'), edge('sp.value', 'out.v')],
    });
    const r = await runAll(g, { registry: registry(seen) });
    expect(seen.map((s) => s.id)).toEqual(['sp::dyn0', 'sp::dyn0']);
    expect(r.run.step).toBe(2);
  });
});
