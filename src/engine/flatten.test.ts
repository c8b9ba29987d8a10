import { describe, expect, it } from 'vitest';
import type { GraphDef, NodeDef } from '../domain/graph/graph.schema.ts';
import { flattenGraph } from './flatten.ts';
import { container, edge, grant, graph, loop, node, runAll, slot, testRegistry } from './testkit.ts';

const composite = (id: string, sub: GraphDef): NodeDef => ({ ...node(id, 'compositeNode'), subgraph: sub });

describe('flattening composites', () => {
  it('rewrites pairedWith to prefixed ids at every nesting level; no false rewrites in DAG composites', () => {
    const innerLoop = graph({
      nodes: [node('gi', 'graphIn'), ...loop('in', 'out', [{ name: 'v' }]), node('go', 'graphOut')],
      edges: [edge('gi.value', 'in.init_x'), edge('in.step', 'out.v'), edge('out.final_v', 'go.value')],
    });
    const middle = graph({
      nodes: [node('gi', 'graphIn'), composite('deep', innerLoop), node('go', 'graphOut')],
      edges: [edge('gi.value', 'deep.input'), edge('deep.output', 'go.value')],
    });
    const dag = graph({
      nodes: [node('gi', 'graphIn', { pairedWith: '' }), node('p', 'pass'), node('go', 'graphOut')],
      edges: [edge('gi.value', 'p.value'), edge('p.value', 'go.value')],
    });
    const top = graph({
      nodes: [node('seed', 'constant'), composite('mid', middle), composite('plain', dag)],
      edges: [edge('seed.value', 'mid.input'), edge('seed.value', 'plain.input')],
    });
    const flat = flattenGraph(top);
    const byId = new Map(flat.nodes.map((n) => [n.id, n]));
    expect(byId.get('mid__deep__in')!.config.pairedWith).toBe('mid__deep__out');
    expect(byId.get('mid__deep__out')!.config.pairedWith).toBe('mid__deep__in');
    expect(byId.get('plain__p')).toBeDefined();
    expect(byId.has('plain__gi')).toBe(false);
    expect(flat.compositePath.get('mid__deep__in')).toBe('mid/deep');
    // Strip mode splices parent + inner edges into one.
    expect(flat.edges).toContainEqual(
      expect.objectContaining({ source: 'seed', target: 'plain__p', targetHandle: 'value' }),
    );
    // Keep mode retargets onto the surviving graphIn.
    expect(flat.edges).toContainEqual(
      expect.objectContaining({ target: 'mid__deep__gi', targetHandle: 'value' }),
    );
  });

  it('a grant on a composite applies to its inner nodes; inner grants reach outer containers', () => {
    const sub = graph({
      nodes: [
        node('gi', 'graphIn'),
        node('w1', 'stateWrite', { container: 'outer_mem', state: 'log' }),
        node('w2', 'stateWrite', { container: 'outer_mem', state: 'log' }),
        node('go', 'graphOut'),
      ],
      edges: [edge('gi.value', 'w1.value'), edge('w1.value', 'w2.value'), edge('w2.value', 'go.value')],
      access_grants: [grant('w2', 'outer_mem')],
    });
    const top = graph({
      nodes: [node('seed', 'constant', { value: 'hi' }), composite('comp', sub)],
      edges: [edge('seed.value', 'comp.input')],
      containers: [container('outer_mem', { log: slot('accumulator') })],
      access_grants: [grant('comp', 'outer_mem')],
    });
    const flat = flattenGraph(top);
    expect(
      flat.grants
        .filter((g) => g.container_id === 'outer_mem')
        .map((g) => g.node_id)
        .sort(),
    ).toEqual(['comp__w1', 'comp__w2']);
    return runAll(top).then((r) => {
      expect(r.run.status).toBe('done');
      expect(r.run.stateAt()!.containers.outer_mem!.states.log!.value).toEqual(['hi', 'hi']);
      expect(r.of('state_written').map((w) => [w.node_id, w.container])).toEqual([
        ['comp__w1', 'outer_mem'],
        ['comp__w2', 'outer_mem'],
      ]);
      // Each write names the grant it went through: the inherited composite grant, by its flat id.
      const flatIds = new Map(flat.grants.map((g) => [g.node_id, g.id]));
      expect(r.of('state_written').map((w) => w.grant_id)).toEqual([
        flatIds.get('comp__w1'),
        flatIds.get('comp__w2'),
      ]);
      expect(r.of('state_written').every((w) => typeof w.grant_id === 'string')).toBe(true);
    });
  });

  it("an inner graph_state is the composite's own blackboard, bound to ctx.graph_state inside it", async () => {
    const sub = graph({
      nodes: [
        node('gi', 'graphIn'),
        node('ask', 'llmCall', { template: 'say {note}', write_to_state: 'answer' }),
        node('go', 'graphOut'),
      ],
      edges: [edge('gi.value', 'ask.context'), edge('ask.response', 'go.value')],
      containers: [
        container('graph_state', {
          note: slot('lastWrite', { config: { initial_value: 'inner note' } }),
          answer: slot('lastWrite'),
        }),
      ],
      access_grants: [grant('ask', 'graph_state')],
    });
    const top = graph({
      nodes: [
        node('seed', 'constant', { value: 'x' }),
        composite('comp', sub),
        node('w', 'stateWrite', { container: 'graph_state', state: 'final' }),
      ],
      edges: [edge('seed.value', 'comp.input'), edge('comp.output', 'w.value')],
      containers: [
        container('graph_state', {
          note: slot('lastWrite', { config: { initial_value: 'outer note' } }),
          final: slot('lastWrite'),
        }),
      ],
      access_grants: [grant('w', 'graph_state')],
    });
    const r = await runAll(top);
    const st = r.run.stateAt()!.containers;
    expect(st.comp__graph_state!.states.answer!.value).toBe('[offline] say inner note');
    expect(st.graph_state!.states.final!.value).toBe('[offline] say inner note');
  });

  it('a composite with a loop runs in keep mode and releases its output after the loop', async () => {
    const sub = graph({
      step_budget: 3,
      nodes: [
        node('gi', 'graphIn'),
        ...loop('in', 'out', [{ name: 'v' }], [{ name: 'x' }], { step_budget: 3 }),
        node('inc', 'inc'),
        node('go', 'graphOut'),
      ],
      edges: [
        edge('gi.value', 'in.init_x'),
        edge('in.step', 'inc.value'),
        edge('inc.value', 'out.v'),
        edge('out.final_v', 'go.value'),
      ],
    });
    const top = graph({
      nodes: [
        node('seed', 'constant', { value: 0 }),
        composite('comp', sub),
        node('w', 'stateWrite', { container: 'm', state: 'got' }),
      ],
      edges: [edge('seed.value', 'comp.input'), edge('comp.output', 'w.value')],
      containers: [container('m', { got: slot('accumulator') })],
      access_grants: [grant('w', 'm')],
    });
    const r = await runAll(top, { registry: testRegistry() });
    expect(r.run.stateAt()!.containers.m!.states.got!.value).toEqual([3]);
  });
});
