// Draws the far view (farScene.ts) into a canvas 2D context: edges first, then every item's box,
// status, border and issue outline, then (only where it is at least MIN_LABEL_PX on screen) its label,
// as the DOM boxes draw them (NodeBox.tsx, ContainerBox.tsx; colours in farStyle.ts). Items and edges
// are batched by style into one path each, so a frame costs a few fills and strokes whatever the node
// count; what lies outside the view is skipped through the scene's grid.
import { Position } from '@xyflow/react';
import { boxLabelPx } from '../LabelScale.tsx';
import type { FarKind, FarScene } from './farScene.ts';
import {
  BAR_DEFAULT,
  BODY,
  CONTAINER_DASH,
  CONTAINER_TEXT,
  containerBorder,
  GRANT_ALPHA,
  GRANT_COLOR,
  GRANT_DASH,
  isPlainBorder,
  MARK_STROKE,
  NODE_TEXT,
  NOTE_BODY,
  nodeBorder,
  noteBorder,
  SELECTED_EDGE,
  STATUS_BODY,
  STATUS_COLOR,
  type ItemState,
  type RunState,
  type Stroke,
} from './farStyle.ts';

/** What an item shows besides its geometry (farLooks.ts reads it from the editor store). */
export interface FarLook {
  label: string;
  /** The node type's colour (its colour bar). */
  color: string | undefined;
  mark: 'error' | 'warning' | undefined;
  composite: boolean;
}

/** The viewport of the drawn area: transform and size, screen px. */
export interface FarView {
  tx: number;
  ty: number;
  k: number;
  width: number;
  height: number;
}

export interface FarFrame {
  /** Selected flow ids (items and edges). */
  selected: ReadonlySet<string>;
  hovered: number;
  /** Items related to the hovered one through grants (hoverRelations.ts). */
  related: ReadonlySet<number>;
  /** A graph node's run status in the followed run (useNodeRunStatus.ts's rule). */
  status: (defId: string) => RunState | undefined;
  /** The graph node a breakpoint stopped at. */
  breakpoint: string | null;
  /** Items being dragged and by how much (flow px). */
  drag: { items: Iterable<number>; offset(i: number): readonly [number, number] | undefined } | null;
}

export interface FarStats {
  /** Graph nodes (and notes) drawn. */
  nodes: number;
  /** Screen px of every label drawn. */
  labelPx: number[];
}

/** The subset of CanvasRenderingContext2D the far view uses (a recording fake in the unit tests). */
export type Ctx2D = Pick<
  CanvasRenderingContext2D,
  | 'beginPath'
  | 'rect'
  | 'moveTo'
  | 'lineTo'
  | 'bezierCurveTo'
  | 'fill'
  | 'stroke'
  | 'fillText'
  | 'measureText'
  | 'save'
  | 'restore'
  | 'clearRect'
  | 'setTransform'
> & {
  fillStyle: CanvasRenderingContext2D['fillStyle'];
  strokeStyle: CanvasRenderingContext2D['strokeStyle'];
  lineWidth: number;
  globalAlpha: number;
  font: string;
  textBaseline: CanvasTextBaseline;
};

/** The DOM box's padding (4 px 8 px) and colour bar (border-top 6 px), flow px. */
const PAD_X = 8;
const PAD_Y = 4;
const BAR_PX = 6;
/** Under this many screen px tall a box is one fill: no bar, no plain border. */
const TINY_PX = 3;

/** Lists of indices by style (a colour string or an interned Stroke), each drawn as one path. */
class Buckets<K> {
  readonly map = new Map<K, number[]>();
  add(key: K, i: number): void {
    const list = this.map.get(key);
    if (list) list.push(i);
    else this.map.set(key, [i]);
  }
}

function controlOffset(distance: number): number {
  return distance >= 0 ? 0.5 * distance : 0.25 * 25 * Math.sqrt(-distance);
}

/** React Flow's bezier control point for an edge end (getBezierPath, curvature 0.25). */
function control(pos: Position, x1: number, y1: number, x2: number, y2: number): [number, number] {
  switch (pos) {
    case Position.Left:
      return [x1 - controlOffset(x1 - x2), y1];
    case Position.Right:
      return [x1 + controlOffset(x2 - x1), y1];
    case Position.Top:
      return [x1, y1 - controlOffset(y1 - y2)];
    default:
      return [x1, y1 + controlOffset(y2 - y1)];
  }
}

/**
 * A dashed line as dash segments of one path (moveTo/lineTo each), from its start: `on` px drawn,
 * `off` px skipped. Chrome's setLineDash computes the same dashes several times slower (1,000 long
 * grants: ~24 ms a frame against ~4), and a frame draws every grant in view.
 */
export function dashTo(
  ctx: Ctx2D,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  dash: readonly [number, number],
): void {
  const len = Math.hypot(x1 - x0, y1 - y0);
  if (len === 0) return;
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  for (let d = 0; d < len; d += dash[0] + dash[1]) {
    const e = Math.min(len, d + dash[0]);
    ctx.moveTo(x0 + ux * d, y0 + uy * d);
    ctx.lineTo(x0 + ux * e, y0 + uy * e);
  }
}

/** Label text cut to `max` screen px with an ellipsis; cached per font, width and text. */
const fitted = new Map<string, string>();
function fitText(ctx: Ctx2D, text: string, max: number, font: string): string {
  const key = `${font}|${Math.floor(max)}|${text}`;
  let out = fitted.get(key);
  if (out !== undefined) return out;
  out = text;
  if (ctx.measureText(text).width > max) {
    let n = text.length;
    while (n > 0 && ctx.measureText(`${text.slice(0, n)}…`).width > max) n--;
    out = n > 0 ? `${text.slice(0, n)}…` : '';
  }
  if (fitted.size > 20_000) fitted.clear();
  fitted.set(key, out);
  return out;
}

/** The items in view and each one's screen rectangle (position `v` of `at`: x, y, w, h at 4v…). */
interface Placed {
  at: number[];
  rect: Float64Array;
}

function place(scene: FarScene, view: FarView, frame: FarFrame): Placed {
  const { tx, ty, k, width, height } = view;
  const at = scene.grid.overlapping(-tx / k, -ty / k, (width - tx) / k, (height - ty) / k);
  if (frame.drag) {
    const shown = new Set(at);
    for (const i of frame.drag.items) if (!shown.has(i)) at.push(i);
  }
  const rect = new Float64Array(at.length * 4);
  at.forEach((i, v) => {
    const it = scene.items[i]!;
    const [dx, dy] = frame.drag?.offset(i) ?? [0, 0];
    rect[4 * v] = (it.x + dx) * k + tx;
    rect[4 * v + 1] = (it.y + dy) * k + ty;
    rect[4 * v + 2] = it.w * k;
    rect[4 * v + 3] = it.h * k;
  });
  return { at, rect };
}

function drawEdges(ctx: Ctx2D, scene: FarScene, view: FarView, frame: FarFrame): void {
  const { tx, ty, k, width, height } = view;
  const [x0, y0, x1, y1] = [-tx / k, -ty / k, (width - tx) / k, (height - ty) / k];
  const data = new Buckets<string>();
  const grants: number[] = [];
  const selectedGrants: number[] = [];
  const ends = new Float64Array(scene.edges.length * 4);
  const offset = (i: number) => frame.drag?.offset(i);
  scene.edges.forEach((e, n) => {
    const s = scene.items[e.source]!;
    const t = scene.items[e.target]!;
    const so = offset(e.source);
    const to = offset(e.target);
    const sx = s.x + e.sx + (so?.[0] ?? 0);
    const sy = s.y + e.sy + (so?.[1] ?? 0);
    const ex = t.x + e.tx + (to?.[0] ?? 0);
    const ey = t.y + e.ty + (to?.[1] ?? 0);
    // Culled by the box around its ends, widened by how far a bezier's control points reach.
    const reach = e.grant ? 0 : Math.abs(ex - sx) / 2 + 60;
    if (Math.max(sx, ex) + reach < x0 || Math.min(sx, ex) - reach > x1) return;
    if (Math.max(sy, ey) + reach < y0 || Math.min(sy, ey) - reach > y1) return;
    ends[4 * n] = sx;
    ends[4 * n + 1] = sy;
    ends[4 * n + 2] = ex;
    ends[4 * n + 3] = ey;
    const selected = frame.selected.has(e.flowId);
    if (e.grant) (selected ? selectedGrants : grants).push(n);
    else data.add(selected ? SELECTED_EDGE : e.stroke, n);
  });
  for (const [color, list] of data.map) {
    ctx.beginPath();
    let w = 0;
    for (const n of list) {
      const e = scene.edges[n]!;
      w = Math.max(w, e.width);
      const sx = ends[4 * n]!;
      const sy = ends[4 * n + 1]!;
      const ex = ends[4 * n + 2]!;
      const ey = ends[4 * n + 3]!;
      const [c1x, c1y] = control(e.sourcePosition, sx, sy, ex, ey);
      const [c2x, c2y] = control(e.targetPosition, ex, ey, sx, sy);
      ctx.moveTo(sx * k + tx, sy * k + ty);
      ctx.bezierCurveTo(c1x * k + tx, c1y * k + ty, c2x * k + tx, c2y * k + ty, ex * k + tx, ey * k + ty);
    }
    ctx.strokeStyle = color;
    ctx.lineWidth = Math.max(0.75, (color === SELECTED_EDGE ? w + 0.5 : w) * k);
    ctx.stroke();
  }
  // Grants: straight, dashed "6 4", violet, half transparent, no arrowhead (GrantEdge.tsx).
  for (const [list, alpha, lineWidth] of [
    [grants, GRANT_ALPHA, Math.max(1, 1.5 * k)],
    [selectedGrants, 1, Math.max(1.5, 2 * k)],
  ] as const) {
    if (list.length === 0) continue;
    ctx.beginPath();
    for (const n of list)
      dashTo(
        ctx,
        ends[4 * n]! * k + tx,
        ends[4 * n + 1]! * k + ty,
        ends[4 * n + 2]! * k + tx,
        ends[4 * n + 3]! * k + ty,
        GRANT_DASH,
      );
    ctx.strokeStyle = GRANT_COLOR;
    ctx.globalAlpha = alpha;
    ctx.lineWidth = lineWidth;
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
}

/** An item's state this frame (farStyle.ts ItemState). */
function stateOf(scene: FarScene, i: number, frame: FarFrame): ItemState {
  const it = scene.items[i]!;
  return {
    selected: frame.selected.has(it.flowId),
    hovered: i === frame.hovered,
    related: frame.related.has(i),
    atBreakpoint: frame.breakpoint === it.defId && it.kind === 'node',
    status: it.kind === 'node' ? frame.status(it.defId) : undefined,
  };
}

/** An item's border and whether it is dashed (a container's). */
function borderOf(kind: FarKind, state: ItemState, look: FarLook | undefined): [Stroke, boolean] {
  if (kind === 'container') return [containerBorder(state), true];
  if (kind === 'note') return [noteBorder(state), false];
  return [nodeBorder(state, look?.composite ?? false), false];
}

/**
 * Strokes a border round each of these screen rectangles: inside the box (`grow` < 0) as CSS draws
 * a border, or outside it (an outline).
 */
function strokeRects(
  ctx: Ctx2D,
  rects: Iterable<readonly [number, number, number, number]>,
  stroke: Stroke,
  grow: number,
  dash?: readonly [number, number],
): void {
  ctx.beginPath();
  for (const [rx, ry, rw, rh] of rects) {
    const [x, y, w, h] = [rx - grow, ry - grow, Math.max(0, rw + 2 * grow), Math.max(0, rh + 2 * grow)];
    if (!dash) ctx.rect(x, y, w, h);
    else
      for (const [ax, ay, bx, by] of [
        [x, y, x + w, y],
        [x + w, y, x + w, y + h],
        [x + w, y + h, x, y + h],
        [x, y + h, x, y],
      ] as const)
        dashTo(ctx, ax, ay, bx, by, dash);
  }
  ctx.strokeStyle = stroke.color;
  ctx.lineWidth = stroke.width;
  ctx.stroke();
}

function drawBoxes(
  ctx: Ctx2D,
  scene: FarScene,
  looks: readonly FarLook[],
  k: number,
  frame: FarFrame,
  p: Placed,
): number {
  const bodies = new Buckets<string>();
  const bars = new Buckets<string>();
  const borders = new Buckets<Stroke>();
  const dashed = new Buckets<Stroke>();
  const outlines = new Buckets<Stroke>();
  let nodes = 0;
  p.at.forEach((i, v) => {
    const it = scene.items[i]!;
    const look = looks[i];
    const state = stateOf(scene, i, frame);
    const [border, isDashed] = borderOf(it.kind, state, look);
    if (look?.mark) outlines.add(MARK_STROKE[look.mark], v);
    if (it.kind === 'container') {
      bodies.add(BODY, v);
      (isDashed ? dashed : borders).add(border, v);
      return;
    }
    nodes++;
    if (it.kind === 'note') {
      bodies.add(NOTE_BODY, v);
      borders.add(border, v);
      return;
    }
    const { status } = state;
    // Too small for a bar: the whole box takes its status colour, else its type's colour.
    if (p.rect[4 * v + 3]! < TINY_PX) {
      bodies.add((status && STATUS_COLOR[status]) ?? look?.color ?? BAR_DEFAULT, v);
      if (!isPlainBorder(border)) borders.add(border, v);
      return;
    }
    bodies.add((status && STATUS_BODY[status]) ?? BODY, v);
    bars.add(look?.color ?? BAR_DEFAULT, v);
    borders.add(border, v);
  });
  const r = p.rect;
  const rectAt = (v: number) => [r[4 * v]!, r[4 * v + 1]!, r[4 * v + 2]!, r[4 * v + 3]!] as const;
  const fillAll = (buckets: Buckets<string>, shape: (v: number) => void) => {
    for (const [fill, list] of buckets.map) {
      ctx.beginPath();
      for (const v of list) shape(v);
      ctx.fillStyle = fill;
      ctx.fill();
    }
  };
  fillAll(bodies, (v) => ctx.rect(...rectAt(v)));
  const bar = Math.max(1, BAR_PX * k);
  fillAll(bars, (v) => ctx.rect(r[4 * v]!, r[4 * v + 1]!, r[4 * v + 2]!, bar));
  for (const [stroke, list] of borders.map) strokeRects(ctx, list.map(rectAt), stroke, -stroke.width / 2);
  for (const [stroke, list] of dashed.map)
    strokeRects(ctx, list.map(rectAt), stroke, -stroke.width / 2, CONTAINER_DASH);
  // Issue outlines outside the box (outline-offset 2 px).
  for (const [stroke, list] of outlines.map)
    strokeRects(ctx, list.map(rectAt), stroke, Math.max(1.5, 2 * k) + stroke.width / 2);
  return nodes;
}

function drawLabels(ctx: Ctx2D, scene: FarScene, looks: readonly FarLook[], k: number, p: Placed): number[] {
  const drawn: number[] = [];
  // Only where a label is readable (MIN_LABEL_PX on screen), sized as the DOM boxes size it.
  const px = boxLabelPx(k) * k;
  if (px === 0) return drawn;
  const font = `600 ${px.toFixed(1)}px ui-sans-serif, system-ui, sans-serif`;
  ctx.font = font;
  ctx.textBaseline = 'top';
  p.at.forEach((i, v) => {
    const it = scene.items[i]!;
    const label = looks[i]?.label;
    if (!label || it.kind === 'note') return;
    const room = p.rect[4 * v + 2]! - 2 * PAD_X * k;
    if (room < px) return;
    const text = fitText(ctx, label, room, font);
    if (!text) return;
    ctx.fillStyle = it.kind === 'container' ? CONTAINER_TEXT : NODE_TEXT;
    // Below the bar and the padding (a container: its 2 px border and the padding).
    const top = it.kind === 'container' ? 2 + PAD_Y : BAR_PX + PAD_Y;
    ctx.fillText(text, p.rect[4 * v]! + PAD_X * k, p.rect[4 * v + 1]! + top * k + 0.1 * px);
    drawn.push(px);
  });
  return drawn;
}

/**
 * The hover layer, over the main one (drawn without the hover): the hovered item's border and those
 * of the items related to it through grants, so a hover redraws a few boxes instead of the level.
 * An item whose border the hover does not change (selected, at a breakpoint, running) is left as is.
 */
export function drawFarHover(
  ctx: Ctx2D,
  scene: FarScene,
  looks: readonly FarLook[],
  view: FarView,
  frame: FarFrame,
): void {
  const { tx, ty, k } = view;
  ctx.clearRect(0, 0, view.width, view.height);
  const still: FarFrame = { ...frame, hovered: -1, related: new Set() };
  for (const i of new Set([frame.hovered, ...frame.related])) {
    const it = scene.items[i];
    if (!it) continue;
    const [border, dashed] = borderOf(it.kind, stateOf(scene, i, frame), looks[i]);
    if (border === borderOf(it.kind, stateOf(scene, i, still), looks[i])[0]) continue;
    const [dx, dy] = frame.drag?.offset(i) ?? [0, 0];
    const rect = [(it.x + dx) * k + tx, (it.y + dy) * k + ty, it.w * k, it.h * k] as const;
    strokeRects(ctx, [rect], border, -border.width / 2, dashed ? CONTAINER_DASH : undefined);
  }
}

export function drawFar(
  ctx: Ctx2D,
  scene: FarScene,
  looks: readonly FarLook[],
  view: FarView,
  frame: FarFrame,
): FarStats {
  ctx.clearRect(0, 0, view.width, view.height);
  ctx.save();
  const placed = place(scene, view, frame);
  drawEdges(ctx, scene, view, frame);
  const nodes = drawBoxes(ctx, scene, looks, view.k, frame, placed);
  const labelPx = drawLabels(ctx, scene, looks, view.k, placed);
  ctx.restore();
  return { nodes, labelPx };
}
