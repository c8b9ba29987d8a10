// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ReactFlowProvider, type NodeProps } from '@xyflow/react';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { editorStore } from '../store/editor.store.ts';
import { LowDetailContext } from './detail.ts';
import type { FlowNode } from './flowMapping.ts';
import { ContainerNode } from './ContainerNode.tsx';
import { containerBoxHeight } from './containerBox.ts';
import { containerBoxEstimate } from './nodeEstimate.ts';

afterEach(cleanup);

function openGraph() {
  const g = emptyGraph('t');
  g.containers = [
    {
      id: 'memory',
      label: 'Memory',
      position: { x: 0, y: 0 },
      states: {
        notes: { type: 'accumulator', value_type: 'TEXT', config: {}, lifetime: 'step', reset_on: [] },
        seen: { type: 'counter', value_type: 'INT', config: {}, lifetime: 'forever', reset_on: [] },
      },
    },
  ];
  editorStore.setState({ tabs: [], activeTabId: null });
  editorStore.getState().openTab({ graph: g });
}

const props = {
  id: 'c:memory',
  data: { defId: 'memory' },
  selected: false,
} as unknown as NodeProps<FlowNode>;
const view = (low: boolean) => (
  <ReactFlowProvider>
    <LowDetailContext value={low}>
      <ContainerNode {...props} />
    </LowDetailContext>
  </ReactFlowProvider>
);

describe('ContainerNode level of detail', () => {
  it('zoomed far out is one dashed box with its label and two plain anchors', () => {
    openGraph();
    const { container } = render(view(true));
    const box = screen.getByTestId('container-memory');
    expect(box.getAttribute('data-lod')).toBe('box');
    expect(box.textContent).toBe('Memory');
    expect(box.className).toContain('border-dashed');
    expect(box.style.height).toBe(`${containerBoxHeight(2)}px`);
    // No slot rows, badges or live values; the anchors are not React Flow <Handle>s (no
    // data-handleid from a Handle's own markup, no connectable classes).
    expect(container.querySelectorAll('[data-testid^="slot-row-"]')).toHaveLength(0);
    const anchors = [...box.querySelectorAll('.react-flow__handle')];
    expect(anchors.map((a) => [a.getAttribute('data-handlepos'), a.classList.contains('target')])).toEqual([
      ['top', true],
      ['bottom', false],
    ]);
    expect(anchors.every((a) => a.getAttribute('data-nodeid') === 'c:memory')).toBe(true);
    expect(anchors.some((a) => a.classList.contains('connectable'))).toBe(false);
  });

  it('at full detail has a row per slot with its badges and two connectable handles', () => {
    openGraph();
    const { container } = render(view(false));
    expect(screen.getByTestId('container-memory').getAttribute('data-lod')).toBe('full');
    expect(container.querySelectorAll('[data-testid^="slot-row-memory-"]')).toHaveLength(2);
    expect(screen.getAllByTestId('lifetime-badge').map((b) => b.textContent)).toEqual(['step']);
    expect(container.querySelectorAll('.react-flow__handle.connectable')).toHaveLength(2);
  });

  it('is given to React Flow up front as what it renders: its size and its two anchors', () => {
    openGraph();
    render(view(true));
    const box = screen.getByTestId('container-memory');
    const est = containerBoxEstimate(2);
    expect(`${est.measured.height}px`).toBe(box.style.height);
    expect(est.measured).toEqual({ width: est.initialWidth, height: est.initialHeight });
    // The anchors as the box draws them (kind, handle id, side), centred on the top and bottom edges.
    const drawn = [...box.querySelectorAll('.react-flow__handle')].map((a) => [
      a.classList.contains('source') ? 'source' : 'target',
      a.getAttribute('data-handleid'),
      a.getAttribute('data-handlepos'),
    ]);
    expect(est.handles.map((h) => [h.type, h.id, h.position])).toEqual(drawn);
    expect(est.handles.map((h) => [h.x + (h.width ?? 0) / 2, h.y + (h.height ?? 0) / 2])).toEqual([
      [est.initialWidth / 2, 0],
      [est.initialWidth / 2, est.initialHeight],
    ]);
  });

  // The heights Chromium lays full containers out at (e2e/canvas-scale.spec.ts compares the two live).
  it('the box is as tall as the full container before a run: the empty line, or a line per slot', () => {
    expect(containerBoxHeight(0)).toBe(54);
    expect(containerBoxHeight(1)).toBe(58);
    expect(containerBoxHeight(3)).toBe(99);
    // Two rows are 78.5 px: the box rounds up to the whole pixel a browser reports.
    expect(containerBoxHeight(2)).toBe(79);
  });
});
