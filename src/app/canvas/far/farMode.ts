// When the canvas draws a level far out (the far view: FarLayer.tsx, one canvas 2D layer) instead of
// React Flow's DOM. A big level zoomed out is thousands of DOM boxes and edges on screen at once, and
// profiles of the fitted view put most of every pan and zoom frame in the browser's per-element work
// on them (layerizing, hit testing and painting every box, docs/performance.md), so there the level is
// drawn in one layer instead. Smaller levels keep their DOM boxes (detail.ts): below FAR_MIN_NODES
// they cost the browser no more than bare React Flow's nodes do.
//
// The switch has hysteresis: the view enters far below FAR_ENTER_ZOOM and leaves it only above
// FAR_LEAVE_ZOOM, so a wheel that wobbles around one zoom never swaps a thousand nodes in and out of
// the DOM on every tick. Leaving far out brings full DOM nodes (the ones on screen: the canvas culls).
import { LOW_DETAIL_ZOOM } from '../detail.ts';

/** Flow nodes (graph nodes and shown containers) a level needs before it is drawn far out. */
export const FAR_MIN_NODES = 800;
/** Zoomed out past this, a big level is drawn far out: where its nodes would turn into boxes. */
export const FAR_ENTER_ZOOM = LOW_DETAIL_ZOOM;
/** Zoomed in past this, a big level far out is drawn as DOM nodes again. */
export const FAR_LEAVE_ZOOM = 0.3;

/** Whether a level with this many flow nodes is big enough to be drawn far out when zoomed out. */
export function isFarLevel(flowNodeCount: number): boolean {
  return flowNodeCount >= FAR_MIN_NODES;
}

/** Far out or not at `zoom`, given whether the view was far out just before (the hysteresis). */
export function nextFar(wasFar: boolean, zoom: number, flowNodeCount: number): boolean {
  if (!isFarLevel(flowNodeCount)) return false;
  return wasFar ? zoom <= FAR_LEAVE_ZOOM : zoom < FAR_ENTER_ZOOM;
}
