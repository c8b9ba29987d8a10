// Where a canvas starts: its viewport, fitted before React Flow has measured anything, and, when
// that viewport is zoomed out, every node's box geometry (nodeEstimate.ts) and whether the level
// starts in the far view (far/farMode.ts). Also the estimator the canvas uses whenever nodes get
// their box geometry again (new nodes while zoomed out, entering the far view).
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { currentLevel, editorStore } from '../store/editor.store.ts';
import { portsOf } from '../store/derived.ts';
import { LOW_DETAIL_ZOOM, wiredHandles } from './detail.ts';
import { FAR_ENTER_ZOOM, isFarLevel } from './far/farMode.ts';
import { containerFlowId, type Estimator } from './flowMapping.ts';
import { estimatedViewport } from './initialViewport.ts';
import { boxEstimate, containerBoxEstimate, type NodeEstimate } from './nodeEstimate.ts';

/**
 * The start of a canvas: its viewport and, when that viewport is zoomed out to boxes, each graph
 * node's box geometry (nodeEstimate.ts), so that React Flow draws the boxes visible and their edges
 * from the first render instead of measuring every node first. The viewport is fitted to those
 * sizes, so React Flow's own fit after measuring does not move it.
 */
export function canvasStart(level: GraphDef, size: { width: number; height: number }, stateVisible: boolean) {
  const first = estimatedViewport(level, size.width, size.height, stateVisible);
  const low = first ? first.zoom < LOW_DETAIL_ZOOM : false;
  if (!low) return { viewport: first, low, far: false, exact: false, estimates: undefined };
  // Keyed by flow id: a container may share its id with a graph node.
  const estimates = new Map<string, NodeEstimate | undefined>();
  const estimate = boxEstimator(stateVisible);
  for (const n of level.nodes) estimates.set(n.id, estimate('node', n.id));
  if (stateVisible)
    for (const c of level.containers) estimates.set(containerFlowId(c.id), estimate('container', c.id));
  const sizeOf = (flowId: string) => {
    const e = estimates.get(flowId);
    return e && { width: e.initialWidth, height: e.initialHeight };
  };
  const viewport = estimatedViewport(level, size.width, size.height, stateVisible, sizeOf);
  const byKind: Estimator = (kind, id) => estimates.get(kind === 'node' ? id : containerFlowId(id));
  // Every box's size known: the viewport is the one React Flow's fit would compute.
  const exact = [...estimates.values()].every((e) => e !== undefined);
  // A big level that starts zoomed out starts in the far view (far/farMode.ts).
  const far = isFarLevel(estimates.size) && viewport !== undefined && viewport.zoom < FAR_ENTER_ZOOM;
  return { viewport, low, far, exact, estimates: byKind };
}

/** A box's geometry from the store, as GraphNode (its ports, its wired handles) or ContainerNode draws it. */
export function boxEstimator(stateVisible: boolean): Estimator {
  const s = editorStore.getState();
  const level = currentLevel(s);
  const wired = wiredHandles(level);
  const containers = new Map(level.containers.map((c) => [c.id, c]));
  return (kind, id) => {
    if (kind === 'container') {
      const c = containers.get(id);
      return c && containerBoxEstimate(Object.keys(c.states).length);
    }
    const ports = portsOf(s, id);
    return ports && boxEstimate(ports, wired.get(id) ?? '', stateVisible);
  };
}
