// Pointer input of the far view. Far out there are no DOM nodes, only React Flow's pane, so a press
// on the pane is looked up in the scene's grid: on an item it is ours (click selects, a multi-selection
// key toggles, a drag moves the selection as one undo step, a double click opens a composite) and is
// kept from React Flow's pane, which would start a pan (d3-zoom) or a box selection; elsewhere it is
// React Flow's (pan; Shift-drag box-selects, which farSelect.ts turns into a selection of items).
// Listeners sit on the document in the capture phase: React dispatches the pane's own capture-phase
// handlers from its root, which is below the document and above the pane.
import type { Position } from '../../../domain/graph/graph.schema.ts';
import { commitMove } from '../../store/actions.ts';
import { currentLevel, editorStore, indexOf } from '../../store/editor.store.ts';
import { fromFlowNodeId } from '../flowMapping.ts';
import { flowIdsOfSelection } from '../selectionSync.ts';
import type { FarController } from './farController.ts';
import { boxSelection, clickSelection, dragSelection } from './farSelect.ts';

/** Screen px a press must travel before it drags instead of clicking (far-out boxes are small). */
export const DRAG_THRESHOLD_PX = 3;

interface Press {
  index: number;
  pointerId: number;
  x: number;
  y: number;
  multi: boolean;
  /** Dragged items and their flow positions when the drag started; null until it starts. */
  origins: Map<number, [number, number]> | null;
}

const isMulti = (e: MouseEvent) => e.shiftKey || e.metaKey || e.ctrlKey;

export function attachFarInput(c: FarController, onHover: (index: number) => void): () => void {
  let press: Press | null = null;
  let swallowClick = false;
  const onPane = (target: EventTarget | null): boolean => {
    const dom = c.flow.getState().domNode;
    return (
      target instanceof Element && target.classList.contains('react-flow__pane') && !!dom?.contains(target)
    );
  };
  const select = (sel: ReturnType<typeof clickSelection>) => editorStore.getState().setSelection(sel);

  const onMove = (e: PointerEvent) => {
    if (!press || e.pointerId !== press.pointerId) return;
    const { transform, snapToGrid, snapGrid } = c.flow.getState();
    if (!press.origins) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_THRESHOLD_PX) return;
      const flowId = c.scene.items[press.index]!.flowId;
      const sel = dragSelection(editorStore.getState().selection, flowId, press.multi);
      select(sel);
      press.origins = new Map();
      for (const id of flowIdsOfSelection(sel)) {
        const i = c.scene.byFlowId.get(id);
        if (i !== undefined) press.origins.set(i, [c.scene.items[i]!.x, c.scene.items[i]!.y]);
      }
      c.setHovered(-1);
      onHover(-1);
    }
    const dx = (e.clientX - press.x) / transform[2];
    const dy = (e.clientY - press.y) / transform[2];
    const offsets = new Map<number, [number, number]>();
    for (const [i, [ox, oy]] of press.origins) {
      // As React Flow snaps a dragged node: its new position, to the grid.
      const nx = snapToGrid ? Math.round((ox + dx) / snapGrid[0]) * snapGrid[0] : ox + dx;
      const ny = snapToGrid ? Math.round((oy + dy) / snapGrid[1]) * snapGrid[1] : oy + dy;
      offsets.set(i, [nx - ox, ny - oy]);
    }
    c.setDrag(offsets);
  };

  const end = (e: PointerEvent) => {
    if (!press || e.pointerId !== press.pointerId) return;
    window.removeEventListener('pointermove', onMove, true);
    window.removeEventListener('pointerup', end, true);
    window.removeEventListener('pointercancel', end, true);
    const done = press;
    press = null;
    c.pressing = false;
    if (e.type === 'pointercancel') return c.setDrag(null);
    swallowClick = true;
    if (!done.origins) {
      const flowId = c.scene.items[done.index]!.flowId;
      select(clickSelection(editorStore.getState().selection, flowId, done.multi));
      return;
    }
    // One undo step, as a drag of DOM nodes (Canvas.tsx onNodeDragStop). The offsets stay drawn
    // until the scene is rebuilt from the moved level, so the boxes never jump back for a frame.
    const positions = new Map<string, Position>();
    for (const [i, [ox, oy]] of done.origins) {
      const [dx, dy] = c.drag?.get(i) ?? [0, 0];
      const it = c.scene.items[i]!;
      const to = { x: Math.round(ox + dx), y: Math.round(oy + dy) };
      if (to.x !== it.x || to.y !== it.y) positions.set(fromFlowNodeId(it.flowId).id, to);
    }
    if (positions.size === 0 || !commitMove(positions).ok) c.setDrag(null);
  };

  const onPointerDown = (e: PointerEvent) => {
    swallowClick = false;
    if (e.button !== 0 || e.pointerType === 'touch' || !onPane(e.target)) return;
    const index = c.itemAt(e.clientX, e.clientY);
    if (index < 0) return;
    // Ours: no pan (its mousedown is never sent) and no box selection (the pane never sees it).
    e.stopPropagation();
    e.preventDefault();
    press = { index, pointerId: e.pointerId, x: e.clientX, y: e.clientY, multi: isMulti(e), origins: null };
    c.pressing = true;
    window.addEventListener('pointermove', onMove, true);
    window.addEventListener('pointerup', end, true);
    window.addEventListener('pointercancel', end, true);
  };

  // The click that ends our press would reach the pane, which clears the selection.
  const onClick = (e: MouseEvent) => {
    if (!swallowClick) return;
    swallowClick = false;
    e.stopPropagation();
  };

  const onDoubleClick = (e: MouseEvent) => {
    if (!onPane(e.target)) return;
    const it = c.scene.items[c.itemAt(e.clientX, e.clientY)];
    if (!it || it.kind !== 'node') return;
    const s = editorStore.getState();
    const def = indexOf(currentLevel(s)).nodes.get(it.defId);
    if (!def?.subgraph) return;
    e.stopPropagation();
    s.enterComposite(def.id);
  };

  // Anywhere but on the pane (a panel, outside the canvas) nothing is hovered.
  const onHoverMove = (e: PointerEvent) => {
    if (e.buttons !== 0 || press) return;
    const index = onPane(e.target) ? c.itemAt(e.clientX, e.clientY) : -1;
    if (index === c.hovered) return;
    c.setHovered(index);
    onHover(index);
  };
  // The pointer left the window.
  const onLeave = () => {
    c.setHovered(-1);
    onHover(-1);
  };

  // Shift-drag on the pane: React Flow draws its selection box (it selects no DOM node: there are
  // none); the items it touches are selected here, live, as React Flow does with nodes.
  const offBox = c.flow.subscribe((s, prev) => {
    const r = s.userSelectionRect;
    if (!r || !s.userSelectionActive || r === prev.userSelectionRect) return;
    const [tx, ty, k] = s.transform;
    const items = c.scene.grid.overlapping(
      (r.x - tx) / k,
      (r.y - ty) / k,
      (r.x + r.width - tx) / k,
      (r.y + r.height - ty) / k,
    );
    select(boxSelection(c.scene, items));
  });

  document.addEventListener('pointerdown', onPointerDown, true);
  document.addEventListener('click', onClick, true);
  document.addEventListener('dblclick', onDoubleClick, true);
  document.addEventListener('pointermove', onHoverMove, { passive: true });
  document.documentElement.addEventListener('pointerleave', onLeave);
  return () => {
    document.documentElement.removeEventListener('pointerleave', onLeave);
    offBox();
    document.removeEventListener('pointerdown', onPointerDown, true);
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('dblclick', onDoubleClick, true);
    document.removeEventListener('pointermove', onHoverMove);
    window.removeEventListener('pointermove', onMove, true);
    window.removeEventListener('pointerup', end, true);
    window.removeEventListener('pointercancel', end, true);
  };
}
