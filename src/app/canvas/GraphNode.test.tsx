// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { ReactFlowProvider, type NodeProps } from '@xyflow/react';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { HANDLERS } from '../live/handlers.ts';
import { ev } from '../live/testEvents.testutil.ts';
import { initialRunState, runStore } from '../run/run.store.ts';
import { editorStore } from '../store/editor.store.ts';
import type { FlowNode } from './flowMapping.ts';
import { GraphNode } from './GraphNode.tsx';

afterEach(() => {
  cleanup();
  runStore.setState(initialRunState());
});

function open(): string {
  const g = emptyGraph('t');
  g.nodes = [
    { id: 'view', type: 'textViewer', label: 'View', position: { x: 0, y: 0 }, config: {} },
    { id: 'llm', type: 'constant', label: 'LLM', position: { x: 0, y: 0 }, config: {} },
  ];
  editorStore.setState({ tabs: [], activeTabId: null });
  const tabId = editorStore.getState().openTab({ graph: g });
  const props = (id: string) => ({ id, selected: false }) as unknown as NodeProps<FlowNode>;
  render(
    <ReactFlowProvider>
      <GraphNode {...props('view')} />
      <GraphNode {...props('llm')} />
    </ReactFlowProvider>,
  );
  return tabId;
}

const status = (seq: number, node_id: string, s: string, extra: Record<string, unknown> = {}) =>
  act(() =>
    HANDLERS.node_status(ev('node_status', seq, { node_id, status: s, step: 1, ...extra }), runStore),
  );

describe('GraphNode live run status', () => {
  it('shows a status dot; an error gives a red border and the message as tooltip', () => {
    const tabId = open();
    runStore.setState({ runId: 'r1', tabId, status: 'running' });
    expect(screen.getByTestId('node-llm').getAttribute('data-run-status')).toBe('');
    expect(screen.queryByTestId('run-dot-llm')).toBeNull();
    status(1, 'llm', 'running');
    expect(screen.getByTestId('node-llm').getAttribute('data-run-status')).toBe('running');
    expect(screen.getByTestId('run-dot-llm').className).toContain('bg-amber-400');
    status(2, 'llm', 'error', { error: 'rate limited', duration_ms: 40 });
    const node = screen.getByTestId('node-llm');
    expect(node.className).toContain('border-red-500');
    expect(node.getAttribute('title')).toBe('error at step 1 in 40 ms: rate limited');
    // The other node is untouched.
    expect(screen.getByTestId('node-view').getAttribute('data-run-status')).toBe('');
  });

  it('a viewer node shows its latest viewer_data line; a run of another tab shows nothing', () => {
    const tabId = open();
    runStore.setState({ runId: 'r1', tabId, status: 'running' });
    act(() =>
      HANDLERS.viewer_data(
        ev('viewer_data', 1, { node_id: 'view', step: 3, fields: { text: 'agent at (2,3)' } }),
        runStore,
      ),
    );
    expect(screen.getByTestId('viewer-line-view').textContent).toBe('agent at (2,3)');
    status(2, 'view', 'done');
    act(() => runStore.setState({ tabId: 'another-tab' }));
    expect(screen.queryByTestId('viewer-line-view')).toBeNull();
    expect(screen.queryByTestId('run-dot-view')).toBeNull();
  });
});
