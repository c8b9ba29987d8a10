// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ReactFlowProvider, type NodeProps } from '@xyflow/react';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { editorStore } from '../store/editor.store.ts';
import { LowDetailContext } from './detail.ts';
import type { FlowNode } from './flowMapping.ts';
import { GraphNode } from './GraphNode.tsx';
import { anchorTop } from './nodeBox.ts';

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
  it('zoomed far out is one box with its label and only the wired handles', () => {
    openGraph();
    render(view(true));
    const box = screen.getByTestId('node-llm');
    expect(box.getAttribute('data-lod')).toBe('box');
    expect(box.textContent).toBe('LLM');
    // The box's only children are the anchors edges attach to: llm has one wired input, 'prompt'.
    const anchors = [...box.children];
    expect(anchors).toHaveLength(1);
    expect(anchors[0]!.getAttribute('data-handleid')).toBe('prompt');
    expect(anchors[0]!.classList.contains('target')).toBe(true);
    // 'prompt' is llmCall's 7th input: the anchor sits at that row's height, as at full detail.
    expect((anchors[0] as HTMLElement).style.top).toBe(`${anchorTop(6)}px`);
  });

  it('zooming in brings back every row and handle, zooming out the box again', () => {
    openGraph();
    const { rerender } = render(view(true));
    rerender(view(false));
    expect(screen.getByTestId('node-llm').getAttribute('data-lod')).toBe('full');
    expect(screen.getByTestId('handle-in-llm-scene')).toBeTruthy();
    expect(screen.getByTestId('handle-out-llm-response').getAttribute('title')).toBe('response: TEXT');
    expect(screen.getByTestId('node-llm').textContent).toContain('responses');
    rerender(view(true));
    expect(screen.getByTestId('node-llm').getAttribute('data-lod')).toBe('box');
    expect(screen.queryByTestId('handle-in-llm-scene')).toBeNull();
  });

  it('outside a zoomed-out canvas every handle is mounted, one element per port row', () => {
    openGraph();
    render(view(false));
    expect(screen.getByTestId('handle-in-llm-scene')).toBeTruthy();
    expect(screen.getByTestId('handle-out-llm-responses')).toBeTruthy();
    // Each row holds exactly its handle and its text: no wrappers.
    const row = screen.getByTestId('handle-in-llm-scene').parentElement!;
    expect(row.children).toHaveLength(1);
    expect(row.textContent).toBe('scene');
  });
});
