// Draws the far view (farScene.ts) into a canvas 2D context: edges first (farEdges.ts), then every
// item's box, status, border and issue outline, then (only where it is at least MIN_LABEL_PX on
// screen) its label, as the DOM boxes draw them (NodeBox.tsx, ContainerBox.tsx; colours in
// farStyle.ts). Items and edges are batched by style into one path each, so a frame costs a few fills
// and strokes whatever the node count; what lies outside the view is skipped through the scene's grid.
import { boxLabelPx } from '../LabelScale.tsx';
import { dashTo, drawEdges } from './farEdges.ts';
import type { FarKind, FarScene } from './farScene.ts';
import {
  BAR_DEFAULT,
  BODY,
  Buckets,
  CONTAINER_DASH,
  CONTAINER_TEXT,
  containerBorder,
  isPlainBorder,
  MARK_STROKE,
  NODE_TEXT,
  NOTE_BODY,
  nodeBorder,
  noteBorder,
  STATUS_BODY,
  STATUS_COLOR,
  type ItemState,
  type Stroke,
} from './farStyle.ts';
import type { Ctx2D, FarFrame, FarLook, FarStats, FarView } from './farTypes.ts';

/** The DOM box's padding (4 px 8 px) and colour bar (border-top 6 px), flow px. */
const PAD_X = 8;
const PAD_Y = 4;
const BAR_PX = 6;
/** Under this many screen px tall a box is one fill: no bar, no plain border. */
const TINY_PX = 3;
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
