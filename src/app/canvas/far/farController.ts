// The far view's imperative side: it holds the scene, what each item looks like, the hovered item and
// a drag in progress, and draws them into the layer's canvas at most once per animation frame, when
// something it draws changed: the viewport (React Flow's store), the selection, the level, the catalog
// or the issues (the editor store), the followed run's node statuses or breakpoint (the run store).
// None of this goes through React.
//
// The canvas is larger than the pane by PAN_MARGIN on every side and drawn for that larger area, so
// a pan (the viewport moved, the zoom unchanged) is a CSS translate of the drawn canvas, applied in the
// same task as React Flow's own viewport update; it is drawn again when the pan has gone past the
// margin, the zoom changed or anything it shows did. A pan frame then rasterizes nothing. Hover
// highlights go to a second canvas over it (drawFarHover), so a hover redraws a few borders, not the
// level.
import type { ReactFlowState } from '@xyflow/react';
import { runStore, type RunState as RunStoreState } from '../../run/run.store.ts';
import { currentLevel, editorStore, type EditorState } from '../../store/editor.store.ts';
import { issuesOf } from '../../store/derived.ts';
import { relatedFlowIds } from '../hoverRelations.ts';
import { flowIdsOfSelection } from '../selectionSync.ts';
import { drawFar, drawFarHover } from './farDraw.ts';
import type { FarFrame, FarLook, FarStats, FarView } from './farTypes.ts';
import type { RunState } from './farStyle.ts';
import { farLooks } from './farLooks.ts';
import type { FarScene } from './farScene.ts';

/** React Flow's store (useStoreApi()): the viewport, the pane's size and element, snapping. */
export interface FlowStoreApi {
  getState(): ReactFlowState;
  subscribe(listener: (s: ReactFlowState, prev: ReactFlowState) => void): () => void;
}

/** Item index → flow px it is moved by, while a drag is in progress. */
export type DragOffsets = ReadonlyMap<number, readonly [number, number]>;

/** How far past each side of the pane the canvas is drawn, as a share of the pane's size. */
export const PAN_MARGIN = 0.25;

const looksDeps = (s: EditorState) => [currentLevel(s), s.catalog, issuesOf(s)] as const;

/** A graph node's status in the followed run, as canvas nodes show it (useNodeRunStatus.ts). */
function statusReader(r: RunStoreState, activeTabId: string | null): (defId: string) => RunState | undefined {
  const followed = r.tabId === null || r.tabId === activeTabId;
  return (defId) => {
    const st = followed ? r.nodeStatus[defId]?.status : undefined;
    return st === 'idle' ? undefined : st;
  };
}

export class FarController {
  scene: FarScene;
  private looks: FarLook[];
  private looksFor: readonly unknown[];
  hovered = -1;
  private related: ReadonlySet<number> = new Set();
  drag: DragOffsets | null = null;
  /** A press on an item is in progress (farInput.ts): its drag offsets outlive a scene rebuild. */
  pressing = false;
  private canvas: HTMLCanvasElement | null = null;
  private overlay: HTMLCanvasElement | null = null;
  private frameId = 0;
  /** The main canvas must be drawn again at the next frame (else only the hover layer is). */
  private stale = true;
  /** The viewport the canvases were last drawn for, and the area drawn (margins included). */
  private drawnFor: { tx: number; ty: number; k: number; width: number; height: number } | null = null;
  private drawnView: FarView | null = null;
  private readonly drawnListeners = new Set<() => void>();
  /** The last frame's stats, also written to the canvas's data attributes (tests, the bench probe). */
  stats: FarStats = { nodes: 0, labelPx: [] };

  constructor(
    readonly flow: FlowStoreApi,
    scene: FarScene,
  ) {
    this.scene = scene;
    const s = editorStore.getState();
    this.looksFor = looksDeps(s);
    this.looks = farLooks(scene.items, s);
  }

  setScene(scene: FarScene): void {
    if (scene === this.scene) return;
    const hoveredId = this.scene.items[this.hovered]?.flowId;
    this.scene = scene;
    // A finished drag's offsets are drawn until the moved level arrives as a new scene.
    if (!this.pressing) this.drag = null;
    this.looks = farLooks(scene.items, editorStore.getState());
    this.hovered = hoveredId === undefined ? -1 : (scene.byFlowId.get(hoveredId) ?? -1);
    this.setHovered(this.hovered, true);
    this.invalidate();
  }

  /** Starts drawing into `canvas` (and hovers into `overlay`) and following the stores; returns the undo. */
  attach(canvas: HTMLCanvasElement, overlay: HTMLCanvasElement): () => void {
    this.canvas = canvas;
    this.overlay = overlay;
    const offFlow = this.flow.subscribe((s, prev) => {
      if (s.transform !== prev.transform || s.width !== prev.width || s.height !== prev.height) this.follow();
    });
    const offEditor = editorStore.subscribe((s, prev) => {
      const deps = looksDeps(s);
      if (deps.some((d, i) => d !== this.looksFor[i])) {
        this.looksFor = deps;
        this.looks = farLooks(this.scene.items, s);
        this.invalidate();
      } else if (s.selection !== prev.selection || s.activeTabId !== prev.activeTabId) this.invalidate();
    });
    const offRun = runStore.subscribe((s, prev) => {
      if (
        s.nodeStatus !== prev.nodeStatus ||
        s.breakpointHit !== prev.breakpointHit ||
        s.tabId !== prev.tabId
      )
        this.invalidate();
    });
    this.invalidate();
    return () => {
      offFlow();
      offEditor();
      offRun();
      cancelAnimationFrame(this.frameId);
      this.frameId = 0;
      this.canvas = null;
      this.overlay = null;
    };
  }

  /** Called after every frame drawn (the far minimap follows). */
  onDrawn(listener: () => void): () => void {
    this.drawnListeners.add(listener);
    return () => this.drawnListeners.delete(listener);
  }

  /** Follows the viewport: a pan within the margin moves the drawn canvas, anything else draws it. */
  private follow(): void {
    const d = this.drawnFor;
    const canvas = this.canvas;
    const { transform, width, height } = this.flow.getState();
    const [tx, ty, k] = transform;
    if (
      canvas &&
      d &&
      !this.frameId &&
      d.k === k &&
      d.width === width &&
      d.height === height &&
      Math.abs(tx - d.tx) <= width * PAN_MARGIN &&
      Math.abs(ty - d.ty) <= height * PAN_MARGIN
    ) {
      const moved = `translate(${tx - d.tx}px, ${ty - d.ty}px)`;
      canvas.style.transform = moved;
      if (this.overlay) this.overlay.style.transform = moved;
      return;
    }
    this.drawnFor = null;
    this.invalidate();
  }

  /** Draws on the next animation frame (once, however many changes came before it). */
  invalidate(): void {
    this.drawnFor = null;
    this.stale = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.frameId || !this.canvas) return;
    this.frameId = requestAnimationFrame(() => {
      this.frameId = 0;
      if (this.stale || !this.drawnView) this.draw();
      this.drawHover();
    });
  }

  /** The hovered item (-1: none) and the items related to it through grants. */
  setHovered(index: number, force = false): void {
    if (index === this.hovered && !force) return;
    this.hovered = index;
    const item = this.scene.items[index];
    const related = item ? relatedFlowIds(currentLevel(editorStore.getState()), item.flowId) : [];
    this.related = new Set(
      related.map((id) => this.scene.byFlowId.get(id)).filter((i): i is number => i !== undefined),
    );
    this.schedule();
  }

  setDrag(drag: DragOffsets | null): void {
    this.drag = drag;
    this.invalidate();
  }

  /** Flow coordinates of a client point (the React Flow container's own box and viewport). */
  toFlow(clientX: number, clientY: number): [number, number] | null {
    const { domNode, transform } = this.flow.getState();
    const r = domNode?.getBoundingClientRect();
    if (!r) return null;
    const [tx, ty, k] = transform;
    return [(clientX - r.left - tx) / k, (clientY - r.top - ty) / k];
  }

  /** The item under a client point (with a few screen px of slack around tiny boxes), or -1. */
  itemAt(clientX: number, clientY: number): number {
    const p = this.toFlow(clientX, clientY);
    if (!p) return -1;
    const k = this.flow.getState().transform[2];
    return this.scene.grid.at(p[0], p[1], 2 / k);
  }

  /** What the canvases show besides the scene, now. */
  private frame(): FarFrame {
    const s = editorStore.getState();
    const r = runStore.getState();
    const drag = this.drag;
    return {
      selected: flowIdsOfSelection(s.selection),
      hovered: this.hovered,
      related: this.related,
      status: statusReader(r, s.activeTabId),
      breakpoint: r.breakpointHit?.node_id ?? null,
      drag: drag && { offset: (i) => drag.get(i), items: drag.keys() },
    };
  }

  /** A canvas's 2D context, its backing store sized to `view` and placed `mx`, `my` past the pane. */
  private context(canvas: HTMLCanvasElement, view: FarView, mx: number, my: number) {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(view.width * dpr);
    const h = Math.round(view.height * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
      canvas.style.width = `${view.width}px`;
      canvas.style.height = `${view.height}px`;
      canvas.style.left = `${-mx}px`;
      canvas.style.top = `${-my}px`;
    }
    canvas.style.transform = '';
    const ctx = canvas.getContext('2d');
    ctx?.setTransform(dpr, 0, 0, dpr, 0, 0);
    return ctx;
  }

  private draw(): void {
    const canvas = this.canvas;
    if (!canvas) return;
    const { transform, width, height } = this.flow.getState();
    const [tx, ty, k] = transform;
    // The canvases reach PAN_MARGIN past every side of the pane.
    const mx = Math.round(width * PAN_MARGIN);
    const my = Math.round(height * PAN_MARGIN);
    const view = { tx: tx + mx, ty: ty + my, k, width: width + 2 * mx, height: height + 2 * my };
    const ctx = this.context(canvas, view, mx, my);
    if (this.overlay) this.context(this.overlay, view, mx, my);
    if (!ctx) return;
    // The hover is the overlay's.
    this.stats = drawFar(ctx, this.scene, this.looks, view, {
      ...this.frame(),
      hovered: -1,
      related: new Set(),
    });
    this.stale = false;
    this.drawnView = view;
    this.drawnFor = { tx, ty, k, width, height };
    canvas.dataset.drawnNodes = String(this.stats.nodes);
    canvas.dataset.labels = String(this.stats.labelPx.length);
    canvas.dataset.labelPxMin = this.stats.labelPx.length ? String(Math.min(...this.stats.labelPx)) : '';
    for (const l of this.drawnListeners) l();
  }

  /** The hover layer, for the viewport the main canvas was drawn for (both move together). */
  private drawHover(): void {
    const ctx = this.overlay?.getContext('2d');
    if (!ctx || !this.drawnView) return;
    drawFarHover(ctx, this.scene, this.looks, this.drawnView, this.frame());
  }
}
