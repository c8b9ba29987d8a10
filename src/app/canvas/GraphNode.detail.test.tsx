// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ReactFlowProvider, type NodeProps } from '@xyflow/react';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { editorStore } from '../store/editor.store.ts';
import { LowDetailContext } from './detail.ts';
import type { FlowNode } from './flowMapping.ts';
import { GraphNode } from './GraphNode.tsx';

afterEach(cleanup);

function openGraph() {
  const g = emptyGraph('t');
  g.nodes = [
    { id: 'src', type: 'constant', label: 'Src', position: { x: 0, y: 0 }, config: {} },
    { id: 'llm', type: 'llmCall', label: 'LLM', position: { x: 300, y: 0 }, config: {} },
  ];
  g.edges = [{ id: 'e1', source: 'src', target: 'llm', sourceHandle: 'value', targetHandle: 'prompt' }];
  editorStore.setState({ tabs: [], activeTabId: null });
  editorStore.getState().openTab({ graph: g });
}

const props = { id: 'llm', selected: false } as unknown as NodeProps<FlowNode>;
const view = (low: boolean) => (
  <ReactFlowProvider>
    <LowDetailContext value={low}>
      <GraphNode {...props} />
    </LowDetailContext>
  </ReactFlowProvider>
);

describe('GraphNode level of detail', () => {
  it('zoomed far out mounts only wired handles but keeps every port row', () => {
    openGraph();
    render(view(true));
    expect(screen.getByTestId('handle-in-llm-prompt')).toBeTruthy();
    expect(screen.queryByTestId('handle-in-llm-scene')).toBeNull();
    expect(screen.queryByTestId('handle-out-llm-response')).toBeNull();
    // The rows stay, so the node keeps its full-detail size and handle positions.
    expect(screen.getByTestId('node-llm').textContent).toContain('scene');
    expect(screen.getByTestId('node-llm').textContent).toContain('response');
  });

  it('zooming in mounts every handle, and zooming out again keeps them', () => {
    openGraph();
    const { rerender } = render(view(true));
    rerender(view(false));
    expect(screen.getByTestId('handle-in-llm-scene')).toBeTruthy();
    expect(screen.getByTestId('handle-out-llm-response')).toBeTruthy();
    rerender(view(true));
    expect(screen.getByTestId('handle-in-llm-scene')).toBeTruthy();
  });

  it('outside a zoomed-out canvas every handle is mounted', () => {
    openGraph();
    render(view(false));
    expect(screen.getByTestId('handle-in-llm-scene')).toBeTruthy();
    expect(screen.getByTestId('handle-out-llm-responses')).toBeTruthy();
  });
});
