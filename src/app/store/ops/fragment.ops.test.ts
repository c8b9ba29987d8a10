import { describe, expect, it } from 'vitest';
import { emptyGraph, type GraphDef } from '../../../domain/graph/graph.schema.ts';
import { cutFragment, insertFragment } from './fragment.ops.ts';
import { groupNodes, ungroupNode } from './composite.ops.ts';

function g(): GraphDef {
  const x = emptyGraph('t');
  x.nodes = [
    { id: 'a_1', type: 'llmCall', label: 'a', position: { x: 0, y: 0 }, config: {} },
    { id: 'b_1', type: 'textParse', label: 'b', position: { x: 300, y: 0 }, config: {} },
    { id: 'c_1', type: 'textViewer', label: 'c', position: { x: 600, y: 0 }, config: {} },
    { id: 'in', type: 'iterIn', label: 'in', position: { x: 0, y: 300 }, config: { pairedWith: 'out' } },
    { id: 'out', type: 'iterOut', label: 'out', position: { x: 300, y: 300 }, config: { pairedWith: 'in' } },
  ];
  x.edges = [
    { id: 'e1', source: 'a_1', target: 'b_1', sourceHandle: 'response', targetHandle: 'text' },
    { id: 'e2', source: 'b_1', target: 'c_1', sourceHandle: 'value', targetHandle: 'text' },
  ];
  x.containers = [{ id: 'mem', label: '', position: { x: 0, y: 500 }, states: {} }];
  x.access_grants = [{ id: 'g1', node_id: 'a_1', container_id: 'mem' }];
  return x;
}

describe('fragments', () => {
  it('copies selected nodes with inner edges and grants, pasting with fresh ids and offset', () => {
    const frag = cutFragment(g(), ['a_1', 'b_1'], ['mem']);
    expect(frag.edges.map((e) => e.id)).toEqual(['e1']);
    expect(frag.access_grants).toHaveLength(1);
    const r = insertFragment(g(), frag, { x: 40, y: 40 });
    if (!r.ok) throw new Error(r.reason);
    expect(r.nodeIds).toEqual(['a_2', 'b_2']);
    expect(r.containerIds).toEqual(['mem_1']);
    const pasted = r.graph.edges.at(-1)!;
    expect([pasted.source, pasted.target]).toEqual(['a_2', 'b_2']);
    expect(r.graph.access_grants.at(-1)).toMatchObject({ node_id: 'a_2', container_id: 'mem_1' });
    expect(r.graph.nodes.find((n) => n.id === 'a_2')!.position).toEqual({ x: 40, y: 40 });
  });

  it('copies a loop pivot together with its partner and re-pairs the copies', () => {
    const frag = cutFragment(g(), ['in'], []);
    expect(frag.nodes.map((n) => n.id)).toEqual(['in', 'out']);
    const r = insertFragment(g(), frag, { x: 0, y: 0 });
    if (!r.ok) throw new Error(r.reason);
    const [ni, no] = r.nodeIds!;
    expect(r.graph.nodes.find((n) => n.id === ni)!.config.pairedWith).toBe(no);
    expect(r.graph.nodes.find((n) => n.id === no)!.config.pairedWith).toBe(ni);
  });
});

describe('composites', () => {
  it('groups through graphIn/graphOut ports and ungroups back to the same wiring', () => {
    const r = groupNodes(g(), ['b_1'], [], 'comp');
    if (!r.ok) throw new Error(r.reason);
    const comp = r.graph.nodes.find((n) => n.id === 'comp')!;
    expect(comp.subgraph!.nodes.map((n) => n.type).sort()).toEqual(['graphIn', 'graphOut', 'textParse']);
    expect(
      r.graph.edges.map((e) => `${e.source}.${e.sourceHandle}->${e.target}.${e.targetHandle}`).sort(),
    ).toEqual(['a_1.response->comp.b_1_text_1', 'comp.b_1_value_1->c_1.text']);
    const u = ungroupNode(r.graph, 'comp');
    if (!u.ok) throw new Error(u.reason);
    expect(
      u.graph.edges.map((e) => `${e.source}.${e.sourceHandle}->${e.target}.${e.targetHandle}`).sort(),
    ).toEqual(['a_1.response->b_1.text', 'b_1.value->c_1.text']);
  });

  it('a grouped node keeps its grant to a container left outside (it resolves outward, as the engine runs it)', () => {
    const r = groupNodes(g(), ['a_1'], [], 'comp');
    if (!r.ok) throw new Error(r.reason);
    const comp = r.graph.nodes.find((n) => n.id === 'comp')!;
    expect(comp.subgraph!.access_grants).toEqual([{ id: 'g1', node_id: 'a_1', container_id: 'mem' }]);
    expect(r.graph.containers.map((c) => c.id)).toEqual(['mem']);
    expect(r.graph.access_grants).toEqual([]);
    expect(groupNodes(g(), ['a_1'], ['mem'], 'comp').ok).toBe(true);
  });

  it('refuses moving a container inside while a node left outside holds a grant to it', () => {
    const r = groupNodes(g(), ['b_1'], ['mem'], 'comp');
    expect(!r.ok && r.reason).toMatch(/container "mem" is granted to "a_1", which stays outside/);
  });
});
