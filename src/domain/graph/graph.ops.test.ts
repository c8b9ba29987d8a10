import { describe, expect, it } from 'vitest';
import { BUILTIN_CATALOG } from '../catalog/catalog.builtins.ts';
import {
  addContainer,
  addGrant,
  addLoopPair,
  addNodes,
  connect,
  moveElements,
  removeElements,
  renameNodeId,
} from './graph.ops.ts';
import { emptyGraph, type GraphDef, type NodeDef } from './graph.schema.ts';

const node = (id: string, type: string, config: Record<string, unknown> = {}): NodeDef => ({
  id,
  type,
  label: id,
  position: { x: 0, y: 0 },
  config,
});

function base(): GraphDef {
  const g = emptyGraph('t');
  g.nodes = [
    node('llm', 'llmCall'),
    node('parse', 'textParse'),
    node('viewer', 'textViewer'),
    node('src', 'nullSource', { wire_type: 'TEXT' }),
  ];
  g.containers = [{ id: 'mem', label: 'Memory', position: { x: 0, y: 0 }, states: {} }];
  return g;
}

const ids = { edgeId: 'e1', grantId: 'ag1' };

describe('connect', () => {
  it('adds a data edge when wire types are compatible', () => {
    const r = connect(
      base(),
      { source: 'llm', sourceHandle: 'response', target: 'parse', targetHandle: 'text' },
      ids,
      BUILTIN_CATALOG,
    );
    expect(r.ok && r.kind).toBe('edge');
    expect(r.ok && r.graph.edges).toEqual([
      { id: 'e1', source: 'llm', target: 'parse', sourceHandle: 'response', targetHandle: 'text' },
    ]);
  });

  it('refuses LIST[TEXT] → TEXT with the reason', () => {
    const r = connect(
      base(),
      { source: 'llm', sourceHandle: 'responses', target: 'parse', targetHandle: 'text' },
      ids,
      BUILTIN_CATALOG,
    );
    expect(r).toEqual({ ok: false, reason: 'LIST[TEXT] → TEXT loses items' });
  });

  it('refuses a type mismatch and an exact duplicate', () => {
    const g = base();
    g.nodes.push(node('policy', 'gridPolicy'));
    const mismatch = connect(
      g,
      { source: 'policy', sourceHandle: 'action', target: 'parse', targetHandle: 'text' },
      ids,
      BUILTIN_CATALOG,
    );
    expect(mismatch.ok).toBe(false);
    expect(!mismatch.ok && mismatch.reason).toMatch(/DISCRETE_ACTION → TEXT: type mismatch/);
    const once = connect(
      g,
      { source: 'llm', sourceHandle: 'response', target: 'parse', targetHandle: 'text' },
      ids,
      BUILTIN_CATALOG,
    );
    if (!once.ok) throw new Error(once.reason);
    const twice = connect(
      once.graph,
      { source: 'llm', sourceHandle: 'response', target: 'parse', targetHandle: 'text' },
      { edgeId: 'e2', grantId: 'x' },
      BUILTIN_CATALOG,
    );
    expect(twice.ok).toBe(false);
  });

  it('turns a drag between a node and a container into a grant, never an edge', () => {
    const fromNode = connect(
      base(),
      { source: 'llm', sourceHandle: '__state__', target: 'mem', targetHandle: 'state' },
      ids,
      BUILTIN_CATALOG,
    );
    expect(fromNode.ok && fromNode.kind).toBe('grant');
    expect(fromNode.ok && fromNode.graph.access_grants).toEqual([
      { id: 'ag1', node_id: 'llm', container_id: 'mem' },
    ]);
    expect(fromNode.ok && fromNode.graph.edges).toEqual([]);
    const fromContainer = connect(
      base(),
      { source: 'mem', sourceHandle: 'state', target: 'viewer', targetHandle: 'text' },
      ids,
      BUILTIN_CATALOG,
    );
    expect(fromContainer.ok && fromContainer.graph.access_grants).toEqual([
      { id: 'ag1', node_id: 'viewer', container_id: 'mem' },
    ]);
  });

  it('refuses duplicate grants and container-to-container links', () => {
    const g = base();
    g.access_grants = [{ id: 'ag0', node_id: 'llm', container_id: 'mem' }];
    const dup = connect(
      g,
      { source: 'llm', sourceHandle: '__state__', target: 'mem', targetHandle: 'state' },
      ids,
      BUILTIN_CATALOG,
    );
    expect(dup).toEqual({ ok: false, reason: '"llm" already has access to "mem"' });
    g.containers.push({ id: 'mem2', label: '', position: { x: 0, y: 0 }, states: {} });
    expect(
      connect(
        g,
        { source: 'mem', sourceHandle: 'state', target: 'mem2', targetHandle: 'state' },
        ids,
        BUILTIN_CATALOG,
      ).ok,
    ).toBe(false);
    expect(addGrant(g, { id: 'ag9', node_id: 'llm', container_id: 'nope' }).ok).toBe(false);
  });

  it('refuses an edge between paired loop pivots', () => {
    const pair = addLoopPair(base(), 'in', 'out', { x: 0, y: 0 });
    if (!pair.ok) throw new Error(pair.reason);
    const r = connect(
      pair.graph,
      { source: 'out', sourceHandle: 'final_value', target: 'in', targetHandle: 'x' },
      ids,
      BUILTIN_CATALOG,
    );
    expect(r.ok).toBe(false);
  });
});

describe('loop pairs and removal', () => {
  it('adds iterIn and iterOut paired both ways, and deleting one deletes both with their edges', () => {
    const r = addLoopPair(base(), 'in', 'out', { x: 10, y: 20 });
    if (!r.ok) throw new Error(r.reason);
    const iterIn = r.graph.nodes.find((n) => n.id === 'in')!;
    const iterOut = r.graph.nodes.find((n) => n.id === 'out')!;
    expect(iterIn.config.pairedWith).toBe('out');
    expect(iterOut.config.pairedWith).toBe('in');
    const g = {
      ...r.graph,
      edges: [{ id: 'e', source: 'in', target: 'llm', sourceHandle: 'step', targetHandle: 'plan' }],
    };
    const del = removeElements(g, { nodes: ['out'] });
    expect(del.ok && del.graph.nodes.map((n) => n.id)).toEqual(['llm', 'parse', 'viewer', 'src']);
    expect(del.ok && del.graph.edges).toEqual([]);
  });

  it('removing a node drops its grants; removing a container drops its grants', () => {
    const g = base();
    g.access_grants = [
      { id: 'a', node_id: 'llm', container_id: 'mem' },
      { id: 'b', node_id: 'parse', container_id: 'mem' },
    ];
    const n = removeElements(g, { nodes: ['llm'] });
    expect(n.ok && n.graph.access_grants.map((x) => x.id)).toEqual(['b']);
    const c = removeElements(g, { containers: ['mem'] });
    expect(c.ok && c.graph.access_grants).toEqual([]);
  });
});

describe('ids, moves, containers', () => {
  it('refuses duplicate ids when adding', () => {
    expect(addNodes(base(), [node('llm', 'note')]).ok).toBe(false);
    expect(addContainer(base(), { id: 'llm', label: '', position: { x: 0, y: 0 }, states: {} }).ok).toBe(
      false,
    );
  });

  it('moves only changed elements and keeps others identical', () => {
    const g = base();
    const r = moveElements(
      g,
      new Map([
        ['parse', { x: 5, y: 6 }],
        ['mem', { x: 1, y: 1 }],
      ]),
    );
    if (!r.ok) throw new Error(r.reason);
    expect(r.graph.nodes[0]).toBe(g.nodes[0]);
    expect(r.graph.nodes[1]!.position).toEqual({ x: 5, y: 6 });
    expect(r.graph.containers[0]!.position).toEqual({ x: 1, y: 1 });
    expect(moveElements(g, new Map([['parse', { x: 0, y: 0 }]])).ok).toBe(false);
  });

  it('renames an id everywhere it is referenced', () => {
    const g = base();
    g.edges = [{ id: 'e', source: 'llm', target: 'parse', sourceHandle: 'response', targetHandle: 'text' }];
    g.access_grants = [{ id: 'a', node_id: 'llm', container_id: 'mem' }];
    const r = renameNodeId(g, 'llm', 'think');
    if (!r.ok) throw new Error(r.reason);
    expect(r.graph.edges[0]!.source).toBe('think');
    expect(r.graph.access_grants[0]!.node_id).toBe('think');
    const c = renameNodeId(r.graph, 'mem', 'memory');
    expect(c.ok && c.graph.access_grants[0]!.container_id).toBe('memory');
    expect(renameNodeId(g, 'llm', 'parse').ok).toBe(false);
  });
});
