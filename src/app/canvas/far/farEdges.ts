// The far view's edges (farDraw.ts draws them first, under the boxes): data edges as React Flow's
// beziers between their ports, grants straight and dashed, each style one path, culled by the box
// around their ends.
import { Position } from '@xyflow/react';
import type { FarScene } from './farScene.ts';
import { Buckets, GRANT_ALPHA, GRANT_COLOR, GRANT_DASH, SELECTED_EDGE } from './farStyle.ts';
import type { Ctx2D, FarFrame, FarView } from './farTypes.ts';

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

export function drawEdges(ctx: Ctx2D, scene: FarScene, view: FarView, frame: FarFrame): void {
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
