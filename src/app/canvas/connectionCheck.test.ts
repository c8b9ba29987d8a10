// Refusals asked while dragging are the store's own: the same reasons, and a drop on a container's
// body handle counts as a drop on its state handle.
import { beforeEach, describe, expect, it } from 'vitest';
import type { InternalNode } from '@xyflow/react';
import { CONTAINER_HANDLE, STATE_HANDLE } from '../../domain/graph/graph.ops.ts';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { editorStore } from '../store/editor.store.ts';
import { connectHandles } from '../store/actions.ts';
import { directionRefusal, refusalOf, toConnectRequest } from './connectionCheck.ts';
import { connectionRefusals } from './ConnectionFeedback.tsx';
import { CONTAINER_DROP_HANDLE, containerFlowId, type FlowNode } from './flowMapping.ts';

function open() {
  const g = { ...emptyGraph('t'), eval_graph: false };
  g.nodes = [
    { id: 'a', type: 'llmCall', label: 'a', position: { x: 0, y: 0 }, config: {} },
    { id: 'b', type: 'textViewer', label: 'b', position: { x: 300, y: 0 }, config: {} },
  ];
  g.containers = [{ id: 'mem', label: '', position: { x: 0, y: 300 }, states: {} }];
  g.access_grants = [{ id: 'g1', node_id: 'a', container_id: 'mem' }];
  editorStore.getState().openTab({ graph: g, title: 't' });
}

const grantTo = (node: string, handle: string) => ({
  source: node,
  sourceHandle: STATE_HANDLE,
  target: containerFlowId('mem'),
  targetHandle: handle,
});

describe('connection checks while dragging', () => {
  beforeEach(open);

  it('maps the container body handle to the container state handle', () => {
    expect(toConnectRequest(grantTo('b', CONTAINER_DROP_HANDLE))).toEqual({
      source: 'b',
      sourceHandle: STATE_HANDLE,
      target: 'mem',
      targetHandle: CONTAINER_HANDLE,
    });
  });

  it('gives the reason the drop would be refused, and null for one that connects', () => {
    expect(refusalOf(grantTo('a', CONTAINER_DROP_HANDLE))).toMatch(/already has access/);
    expect(refusalOf(grantTo('b', CONTAINER_DROP_HANDLE))).toBeNull();
    expect(refusalOf({ source: 'a', sourceHandle: 'response', target: 'a', targetHandle: 'prompt' })).toMatch(
      /cannot feed itself/,
    );
    // Asking changes nothing; dropping on the body then grants.
    expect(editorStore.getState().tabs.at(-1)!.graph.access_grants).toHaveLength(1);
    const r = connectHandles(toConnectRequest(grantTo('b', CONTAINER_DROP_HANDLE)));
    expect(r).toEqual({ ok: true, kind: 'grant' });
  });

  it('dims the nodes and handles that would refuse, with their reasons', () => {
    const node = (id: string, targets: string[]) =>
      ({
        id,
        internals: {
          handleBounds: {
            source: [],
            target: targets.map((h) => ({ id: h, type: 'target', x: 0, y: 0, width: 1, height: 1 })),
          },
        },
      }) as unknown as InternalNode<FlowNode>;
    const r = connectionRefusals({ nodeId: 'b', id: STATE_HANDLE, type: 'source' }, [
      node('a', ['prompt']),
      node(containerFlowId('mem'), [CONTAINER_HANDLE, CONTAINER_DROP_HANDLE]),
    ]);
    expect(r.nodes.get('a')).toMatch(/state handle connects only to a state container/);
    expect(r.nodes.has(containerFlowId('mem'))).toBe(false);
    expect(r.css).toContain('.react-flow__node[data-id="a"]');
    expect(r.css).not.toContain('c:mem');
  });

  it('an output dropped on an output, or an input on an input, is refused with a reason', () => {
    const out = { type: 'source' as const, id: 'response' };
    const inp = { type: 'target' as const, id: 'prompt' };
    expect(directionRefusal(out, { type: 'source', id: 'value' })).toMatch(/^an output connects to an input/);
    expect(directionRefusal(inp, { type: 'target', id: 'value' })).toMatch(
      /^an input takes its value from an output/,
    );
    expect(directionRefusal(out, inp)).toBeNull();
    expect(directionRefusal(inp, out)).toBeNull();
    // State handles: the store's own reason (they connect only to containers).
    expect(directionRefusal({ type: 'source', id: STATE_HANDLE }, out)).toBeNull();
    expect(directionRefusal(out, { type: 'source', id: STATE_HANDLE })).toBeNull();
  });
});
