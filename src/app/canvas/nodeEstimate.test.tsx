// @vitest-environment happy-dom
// The geometry a box node is given before React Flow measures it must be what GraphNode renders: the
// same handles (ids, types, sides, rows) and the box's own size. Layout itself (where the browser
// puts them) is checked in a real browser by e2e/canvas-estimate.spec.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ReactFlowProvider, type NodeChange, type NodeProps } from '@xyflow/react';
import { editorStore } from '../store/editor.store.ts';
import { portsOf } from '../store/derived.ts';
import { LowDetailContext, wiredHandles } from './detail.ts';
import type { FlowNode } from './flowMapping.ts';
import { GraphNode } from './GraphNode.tsx';
import { anchorTop, BOX_WIDTH_PX, boxHeight } from './nodeBox.ts';
import { boxEstimate, dropBoxHandles, dropMeasuredEstimates } from './nodeEstimate.ts';
import { openTestLevel } from './testLevel.ts';

afterEach(cleanup);

const box = (id: string) => (
  <ReactFlowProvider>
    <LowDetailContext value={true}>
      <GraphNode {...({ id, selected: false } as unknown as NodeProps<FlowNode>)} />
    </LowDetailContext>
  </ReactFlowProvider>
);

function estimateOf(id: string, stateVisible: boolean) {
  const s = editorStore.getState();
  const level = s.tabs[0]!.graph;
  return boxEstimate(portsOf(s, id)!, wiredHandles(level).get(id) ?? '', stateVisible);
}

describe('box node estimate', () => {
  for (const stateVisible of [false, true])
    it(`lists exactly the handles the box renders, at their rows (State ${stateVisible ? 'shown' : 'hidden'})`, () => {
      openTestLevel(stateVisible);
      for (const id of ['src', 'llm', 'parse']) {
        cleanup();
        render(box(id));
        const el = screen.getByTestId(`node-${id}`);
        const rendered = [...el.querySelectorAll('.react-flow__handle')].map((h) => ({
          id: h.getAttribute('data-handleid'),
          type: h.classList.contains('source') ? 'source' : 'target',
          position: h.getAttribute('data-handlepos'),
          top: (h as HTMLElement).style.top,
        }));
        const est = estimateOf(id, stateVisible);
        expect(
          est.handles.map((h) => ({
            id: h.id,
            type: h.type,
            position: h.position,
            // A side anchor's CSS top is its row's anchorTop; React Flow measures it half its size higher.
            top: h.position === 'bottom' ? '' : `${h.y + 0.5}px`,
          })),
        ).toEqual(rendered);
        // The box's size: the fixed box width and its inline height.
        expect(est.initialWidth).toBe(BOX_WIDTH_PX);
        expect(el.style.height).toBe(`${est.initialHeight}px`);
        expect(est.measured).toEqual({ width: est.initialWidth, height: est.initialHeight });
      }
    });

  it('places side anchors on the box edges and the state handle on the bottom edge', () => {
    openTestLevel(true);
    const est = estimateOf('llm', true);
    const h = boxHeight(portsOf(editorStore.getState(), 'llm')!);
    expect(est.handles).toEqual([
      { id: 'prompt', type: 'target', position: 'left', x: -0.5, y: anchorTop(6) - 0.5, width: 1, height: 1 },
      {
        id: 'response',
        type: 'source',
        position: 'right',
        x: 169.5,
        y: anchorTop(0) - 0.5,
        width: 1,
        height: 1,
      },
      { id: '__state__', type: 'source', position: 'bottom', x: 84.5, y: h - 0.5, width: 1, height: 1 },
    ]);
  });

  it('is dropped from a node once React Flow has measured it, and only then', () => {
    const est = { initialWidth: 170, initialHeight: 96, handles: [] };
    const a: FlowNode = { id: 'a', position: { x: 0, y: 0 }, data: { kind: 'node', defId: 'a' }, ...est };
    const b: FlowNode = { ...a, id: 'b', data: { kind: 'node', defId: 'b' } };
    const nodes = [a, b];
    const none: NodeChange<FlowNode>[] = [{ type: 'select', id: 'a', selected: true }];
    expect(dropMeasuredEstimates(nodes, none)).toBe(nodes);
    const measured: NodeChange<FlowNode>[] = [
      { type: 'dimensions', id: 'a', dimensions: { width: 170, height: 96 } },
    ];
    const out = dropMeasuredEstimates(nodes, measured);
    expect(out[0]!.handles).toBeUndefined();
    expect(out[0]!.initialWidth).toBe(170);
    expect(out[1]).toBe(b);
  });

  it('zoomed in, no node keeps the box handles (React Flow would re-read them on every update)', () => {
    const est = { initialWidth: 170, initialHeight: 96, measured: { width: 170, height: 96 }, handles: [] };
    const a: FlowNode = { id: 'a', position: { x: 0, y: 0 }, data: { kind: 'node', defId: 'a' }, ...est };
    const b: FlowNode = { id: 'b', position: { x: 0, y: 0 }, data: { kind: 'node', defId: 'b' } };
    const out = dropBoxHandles([a, b]);
    expect(out[0]!.handles).toBeUndefined();
    expect(out[0]!.measured).toEqual({ width: 170, height: 96 });
    expect(out[1]).toBe(b);
    expect(dropBoxHandles(out)).toBe(out);
  });
});
