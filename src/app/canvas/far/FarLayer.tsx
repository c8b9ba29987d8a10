// The far view (farMode.ts): a big level zoomed out is drawn into ONE canvas 2D layer under React
// Flow's pane instead of as DOM nodes and SVG edges (React Flow is given none while it is shown). It
// is drawn from the same flow nodes and edges React Flow gets back when the view zooms in again
// (farScene.ts), once per frame at most (farController.ts); hover, click and Shift-click selection,
// box selection and dragging go through the scene's grid (farInput.ts). The hovered item's label is
// shown in a tooltip at a readable size, since far out a box is too small to hold it.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useStoreApi } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../flowMapping.ts';
import { FarController } from './farController.ts';
import { attachFarInput } from './farInput.ts';
import { containerLabel } from '../containerBox.ts';
import { buildFarScene } from './farScene.ts';
import { FarMinimap } from './FarMinimap.tsx';
import { currentLevel, editorStore, indexOf } from '../../store/editor.store.ts';

/** The hovered item's tooltip text: its label (a node's type too). */
function tooltipOf(c: FarController, index: number): string {
  const it = c.scene.items[index];
  if (!it) return '';
  const idx = indexOf(currentLevel(editorStore.getState()));
  if (it.kind === 'container') return containerLabel(it.defId, idx.containers.get(it.defId)?.label);
  const n = idx.nodes.get(it.defId);
  return n ? `${n.label || n.id} · ${n.type}` : it.defId;
}

export function FarLayer({
  nodes,
  edges,
  minimap,
}: {
  nodes: FlowNode[];
  edges: FlowEdge[];
  minimap: boolean;
}) {
  const flow = useStoreApi();
  const canvas = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<HTMLCanvasElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const scene = useMemo(() => buildFarScene(nodes, edges), [nodes, edges]);
  const [controller] = useState(() => new FarController(flow, scene));
  useLayoutEffect(() => controller.setScene(scene), [controller, scene]);
  useEffect(() => {
    const el = canvas.current;
    const over = overlay.current;
    if (!el || !over) return;
    const detach = controller.attach(el, over);
    const showTip = (index: number) => {
      const t = tip.current;
      const dom = flow.getState().domNode;
      if (dom) dom.dataset.farHover = index >= 0 ? 'item' : '';
      if (!t) return;
      const it = controller.scene.items[index];
      if (!it) return void (t.hidden = true);
      const [tx, ty, k] = flow.getState().transform;
      t.textContent = tooltipOf(controller, index);
      t.style.left = `${it.x * k + tx}px`;
      t.style.top = `${it.y * k + ty}px`;
      t.hidden = false;
    };
    const detachInput = attachFarInput(controller, showTip);
    // A pan or zoom moves the boxes away from under the tooltip: it goes until the next hover.
    const offTip = flow.subscribe((s, prev) => {
      if (s.transform !== prev.transform && tip.current && !tip.current.hidden) tip.current.hidden = true;
    });
    return () => {
      offTip();
      detachInput();
      detach();
      const dom = flow.getState().domNode;
      if (dom) dom.dataset.farHover = '';
    };
  }, [controller, flow]);
  return (
    <>
      <canvas ref={canvas} data-testid="far-layer" className="sw-far-layer" />
      <canvas ref={overlay} data-testid="far-hover" className="sw-far-hover" />
      <div ref={tip} data-testid="far-tooltip" className="sw-far-tip" hidden />
      {minimap && <FarMinimap controller={controller} />}
    </>
  );
}
