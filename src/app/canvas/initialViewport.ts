// The viewport a canvas starts at, estimated from positions before React Flow has measured anything,
// so a big graph renders at its fitted zoom from the first frame (boxes, not full nodes at 100 %),
// and React Flow's own fitView, once nodes are measured, has nothing or little left to move.
import { getViewportForBounds, type Viewport } from '@xyflow/react';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { containerFlowId } from './flowMapping.ts';

/**
 * fitView's options, shared with the canvas so the estimate fits the way React Flow will. The canvas
 * never hides nodes; `includeHiddenNodes` makes fitView count the nodes React Flow has not measured
 * by the size they were given (nodeEstimate.ts): without it a big level, culled before its nodes
 * were ever mounted, would be fitted to the nodes on screen only.
 */
export const FIT_OPTIONS = { padding: 0.08, maxZoom: 1.2, includeHiddenNodes: true };
/**
 * Far enough out that a 3,000-node graph of the usual layered shape (120 columns of 25) or a
 * 10,000-node one of 100 × 100 fits the view whole: the fitted view is what a graph opens on.
 */
export const MIN_ZOOM = 0.02;
/** A node whose size is not known yet is counted this big (about a full-detail node). */
const GUESS = { width: 200, height: 160 };

/** By flow id (a graph node's id, a container's `c:` id). */
export type SizeOf = (flowId: string) => { width: number; height: number } | undefined;

/**
 * Fits the level's flow nodes (its containers only while State is shown) into width × height as
 * fitView does (bounds, padding, zoom limits). `sizeOf` gives the nodes whose size is known (the
 * boxes of a zoomed-out graph); the others count as GUESS.
 */
export function estimatedViewport(
  level: GraphDef,
  width: number,
  height: number,
  withContainers: boolean,
  sizeOf: SizeOf = () => undefined,
): Viewport | undefined {
  const rects = [
    ...level.nodes.map((n) => ({ ...n.position, ...(sizeOf(n.id) ?? GUESS) })),
    ...(withContainers ? level.containers : []).map((c) => ({
      ...c.position,
      ...(sizeOf(containerFlowId(c.id)) ?? GUESS),
    })),
  ];
  if (rects.length === 0) return undefined;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const r of rects) {
    x0 = Math.min(x0, r.x);
    y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.width);
    y1 = Math.max(y1, r.y + r.height);
  }
  const bounds = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  return getViewportForBounds(bounds, width, height, MIN_ZOOM, FIT_OPTIONS.maxZoom, FIT_OPTIONS.padding);
}
