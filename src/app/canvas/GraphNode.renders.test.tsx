// @vitest-environment happy-dom
// Render counts (React Profiler): a hover, a change to another node and a live status of another
// node must not re-render a node; only what the node draws may.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Profiler, useRef } from 'react';
import { ReactFlowProvider, type NodeProps } from '@xyflow/react';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { HANDLERS } from '../live/handlers.ts';
import { ev } from '../live/testEvents.testutil.ts';
import { initialRunState, runStore } from '../run/run.store.ts';
import { editorStore } from '../store/editor.store.ts';
import type { FlowNode } from './flowMapping.ts';
import { GraphNode } from './GraphNode.tsx';
import { useDelegatedHover } from './useDelegatedHover.ts';

afterEach(() => {
  cleanup();
  runStore.setState(initialRunState());
});

const renders = new Map<string, number>();
const count = (id: string) => () => renders.set(id, (renders.get(id) ?? 0) + 1);

/** Nodes inside wrappers shaped like React Flow's (`.react-flow__node[data-id]`), under a hover-delegating canvas. */
function Canvas({ ids }: { ids: string[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useDelegatedHover(ref);
  return (
    <div ref={ref} data-testid="canvas">
      {ids.map((id) => (
        <div key={id} className="react-flow__node" data-id={id}>
          <Profiler id={id} onRender={count(id)}>
            <GraphNode {...({ id, selected: false } as unknown as NodeProps<FlowNode>)} />
          </Profiler>
        </div>
      ))}
    </div>
  );
}

function open(): string {
  const g = emptyGraph('t');
  const node = (id: string) => ({ id, type: 'constant', label: id, position: { x: 0, y: 0 }, config: {} });
  g.nodes = [node('a'), node('b'), node('c')];
  g.containers = [{ id: 'm', label: 'M', position: { x: 0, y: 0 }, states: {} }];
  g.access_grants = [{ id: 'g1', node_id: 'a', container_id: 'm' }];
  editorStore.setState({ tabs: [], activeTabId: null });
  const tabId = editorStore.getState().openTab({ graph: g });
  render(
    <ReactFlowProvider>
      <Canvas ids={['a', 'b', 'c', 'c:m']} />
    </ReactFlowProvider>,
  );
  renders.clear();
  return tabId;
}

describe('GraphNode render isolation', () => {
  it('a hover marks related elements without rendering any node or writing the store', () => {
    open();
    const before = editorStore.getState();
    // c:m has no component here: a wrapper stands in for the container so the grant partner shows.
    const container = document.querySelector('[data-id="c:m"]')!;
    container.appendChild(document.createElement('div'));
    fireEvent.pointerOver(screen.getByTestId('node-b'));
    fireEvent.pointerOver(container.firstElementChild!);
    expect(screen.getByTestId('node-a').getAttribute('data-related')).toBe('true');
    expect(screen.getByTestId('node-b').getAttribute('data-related')).toBe('false');
    fireEvent.pointerOver(screen.getByTestId('canvas'));
    expect(screen.getByTestId('node-a').getAttribute('data-related')).toBe('false');
    expect(renders.size).toBe(0);
    expect(editorStore.getState()).toBe(before);
  });

  it('renaming one node renders only that node', () => {
    open();
    act(() => {
      editorStore.getState().edit((g) => ({
        ok: true,
        graph: { ...g, nodes: g.nodes.map((n) => (n.id === 'b' ? { ...n, label: 'B!' } : n)) },
      }));
    });
    expect(screen.getByTestId('node-b').textContent).toContain('B!');
    expect([...renders.keys()]).toEqual(['b']);
  });

  it('a live status of one node renders only that node', () => {
    const tabId = open();
    act(() => runStore.setState({ runId: 'r1', tabId, status: 'running' }));
    renders.clear();
    act(() =>
      HANDLERS.node_status(ev('node_status', 1, { node_id: 'c', status: 'running', step: 1 }), runStore),
    );
    expect(screen.getByTestId('node-c').getAttribute('data-run-status')).toBe('running');
    expect([...renders.keys()]).toEqual(['c']);
  });
});
