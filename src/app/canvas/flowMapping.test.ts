import { describe, expect, it } from 'vitest';
import { emptyGraph, type GraphDef } from '../../domain/graph/graph.schema.ts';
import { Position } from '@xyflow/react';
import { buildFlowEdges, buildFlowNodes, fromFlowEdgeId, fromFlowNodeId } from './flowMapping.ts';
import type { NodeEstimate } from './nodeEstimate.ts';

function g(): GraphDef {
  const x = emptyGraph('t');
  x.nodes = [
    { id: 'a', type: 'llmCall', label: '', position: { x: 0, y: 0 }, config: {} },
    { id: 'b', type: 'textParse', label: '', position: { x: 10, y: 0 }, config: {} },
  ];
  x.edges = [{ id: 'e1', source: 'a', target: 'b', sourceHandle: 'response', targetHandle: 'text' }];
  x.containers = [{ id: 'a_mem', label: '', position: { x: 0, y: 100 }, states: {} }];
  x.access_grants = [{ id: 'g1', node_id: 'a', container_id: 'a_mem' }];
  return x;
}

describe('flow mapping', () => {
  it('maps containers and grants only when State is shown, with prefixed ids', () => {
    const none = new Set<string>();
    expect(buildFlowNodes(g(), [], false, none).map((n) => n.id)).toEqual(['a', 'b']);
    const nodes = buildFlowNodes(g(), [], true, none);
    expect(nodes.map((n) => [n.id, n.type])).toEqual([
      ['a', 'graphNode'],
      ['b', 'graphNode'],
      ['c:a_mem', 'container'],
    ]);
    const edges = buildFlowEdges(g(), [], true, none);
    expect(edges.map((e) => [e.id, e.type, e.sourceHandle, e.targetHandle])).toEqual([
      ['e:e1', 'data', 'response', 'text'],
      ['g:g1', 'grant', '__state__', 'state'],
    ]);
    expect(edges.some((e) => e.animated)).toBe(false);
    expect(fromFlowNodeId('c:a_mem')).toEqual({ kind: 'container', id: 'a_mem' });
    expect(fromFlowEdgeId('g:g1')).toEqual({ kind: 'grant', id: 'g1' });
  });

  it('marks the edges of routed ports only, and remaps an edge whose port starts to route', () => {
    const x = g();
    x.nodes.push({ id: 'c', type: 'textParse', label: '', position: { x: 20, y: 0 }, config: {} });
    x.edges.push(
      { id: 'e2', source: 'a', target: 'c', sourceHandle: 'response', targetHandle: 'text' },
      { id: 'e3', source: 'b', target: 'c', sourceHandle: 'value', targetHandle: 'text' },
    );
    const plain = buildFlowEdges(x, [], false, new Set());
    expect(plain.map((e) => e.data?.routedPort ?? false)).toEqual([false, false, false]);
    // A condition on e2 makes a.response a routed port: e1 (its unconditional sibling, which a
    // route can take) is marked too, e3 on another port is not and keeps its flow object.
    const routedLevel = {
      ...x,
      edges: x.edges.map((e) => (e.id === 'e2' ? { ...e, condition: { feature: 'phase', eq: 'go' } } : e)),
    } as GraphDef;
    const routed = buildFlowEdges(routedLevel, plain, false, new Set());
    expect(routed.map((e) => [e.id, e.data?.routedPort ?? false])).toEqual([
      ['e:e1', true],
      ['e:e2', true],
      ['e:e3', false],
    ]);
    expect(routed[2]).toBe(plain[2]);
    expect(buildFlowEdges(x, routed, false, new Set()).map((e) => e.data?.routedPort ?? false)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('reuses unchanged flow objects and replaces moved or selected ones', () => {
    const first = buildFlowNodes(g(), [], true, new Set());
    const moved = g();
    moved.nodes[1] = { ...moved.nodes[1]!, position: { x: 99, y: 0 } };
    const second = buildFlowNodes(moved, first, true, new Set(['a']));
    expect(second[0]).not.toBe(first[0]);
    expect(second[0]!.selected).toBe(true);
    expect(second[1]!.position).toEqual({ x: 99, y: 0 });
    expect(second[2]).toBe(first[2]);
    const edges = buildFlowEdges(g(), [], true, new Set());
    expect(buildFlowEdges(g(), edges, true, new Set())[0]).toBe(edges[0]);
    const marked = buildFlowEdges(g(), edges, true, new Set(), new Set(['e1']));
    expect(marked[0]).not.toBe(edges[0]);
    expect(marked[0]!.style).toMatchObject({ stroke: '#ef4444' });
  });

  it('replaces a box estimate that changed (State toggled, a port wired) and keeps one that did not', () => {
    const estimateOf = (withState: boolean) => (): NodeEstimate => ({
      initialWidth: 170,
      initialHeight: 60,
      measured: { width: 170, height: 60 },
      handles: [
        { id: 'prompt', type: 'target', position: Position.Left, x: 0, y: 30, width: 1, height: 1 },
        ...(withState
          ? [
              {
                id: '__state__',
                type: 'source' as const,
                position: Position.Bottom,
                x: 85,
                y: 60,
                width: 1,
                height: 1,
              },
            ]
          : []),
      ],
    });
    const first = buildFlowNodes(g(), [], false, new Set(), estimateOf(false));
    expect(first[0]!.handles).toHaveLength(1);
    // Same estimate again: the same objects (nothing for React Flow to re-read).
    expect(buildFlowNodes(g(), first, false, new Set(), estimateOf(false))).toBe(first);
    const shown = buildFlowNodes(g(), first, true, new Set(), estimateOf(true));
    expect(shown[0]).not.toBe(first[0]);
    expect(shown[0]!.handles!.map((h) => h.id)).toEqual(['prompt', '__state__']);
    // A node React Flow measured (no estimate left on it) keeps what it measured.
    const measured = first.map((n) => ({ ...n, handles: undefined }));
    expect(buildFlowNodes(g(), measured, false, new Set(), estimateOf(true))[0]).toBe(measured[0]);
  });
});
