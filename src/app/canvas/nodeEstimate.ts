// Sizes and handle positions React Flow is given before it has measured a node (a zoomed-out graph
// node or state container). Without them React Flow mounts every new node hidden, measures it
// (ResizeObserver), then renders it again visible — and its culling mounts every unmeasured node,
// on screen or not, and draws no edge until both ends are measured. A zoomed-out graph node is a
// box whose whole geometry is known (nodeBox.ts), so its flow node carries it as React Flow's own
// `measured` size and `handles`: it is visible from its first render, edges attach from frame one,
// culling skips it when it is off screen, and React Flow's first ResizeObserver pass finds the size
// it already has, so it dispatches no size change (before, it dispatched one per node and every
// node was rendered again). React Flow still measures every node it mounts (handle bounds from the
// DOM, and a box whose laid-out size differs gets its real size, as any node). The `handles` leave
// a node when a size change shows the estimate was wrong (dropMeasuredEstimates) and when the
// canvas zooms in past the boxes (dropBoxHandles).
import { Position, type NodeChange, type NodeHandle } from '@xyflow/react';
import { CONTAINER_HANDLE, STATE_HANDLE } from '../../domain/graph/graph.ops.ts';
import type { NodePorts } from '../store/derived.ts';
import { CONTAINER_BOX_WIDTH_PX, containerBoxHeight } from './containerBox.ts';
import type { FlowNode } from './flowMapping.ts';
import { ANCHOR_PX, anchorRect, boxAnchors, boxHeight, BOX_WIDTH_PX } from './nodeBox.ts';

/** What a flow node carries before its first measurement. */
export type NodeEstimate = Required<
  Pick<FlowNode, 'initialWidth' | 'initialHeight' | 'handles' | 'measured'>
>;

const SIDE = { left: Position.Left, right: Position.Right, bottom: Position.Bottom } as const;

/** The exact geometry of a graph node drawn as a box (NodeBox.tsx) with these ports and wired handles. */
export function boxEstimate(ports: NodePorts, wired: string, stateVisible: boolean): NodeEstimate {
  const height = boxHeight(ports);
  const handles: NodeHandle[] = boxAnchors(ports, wired, stateVisible, STATE_HANDLE).map((a) => ({
    id: a.id,
    type: a.type,
    position: SIDE[a.side],
    ...anchorRect(a, height),
  }));
  return {
    initialWidth: BOX_WIDTH_PX,
    initialHeight: height,
    handles,
    measured: { width: BOX_WIDTH_PX, height },
  };
}

/**
 * The exact geometry of a state container drawn as a box (ContainerBox.tsx): its size, and its two
 * anchors centred on the top and bottom edges by React Flow's handle CSS (hence the half pixels).
 */
export function containerBoxEstimate(slots: number): NodeEstimate {
  const width = CONTAINER_BOX_WIDTH_PX;
  const height = containerBoxHeight(slots);
  const half = ANCHOR_PX / 2;
  const at = (y: number) => ({ x: width / 2 - half, y, width: ANCHOR_PX, height: ANCHOR_PX });
  const handles: NodeHandle[] = [
    { id: CONTAINER_HANDLE, type: 'target', position: Position.Top, ...at(-half) },
    { id: CONTAINER_HANDLE, type: 'source', position: Position.Bottom, ...at(height - half) },
  ];
  return { initialWidth: width, initialHeight: height, handles, measured: { width, height } };
}

/**
 * The nodes after React Flow's changes, without the estimated handles of the nodes it has just
 * measured (a dimensions change with dimensions): from then on its measured handle bounds are the
 * truth, and a node object that still carried `handles` would override them on every update.
 */
export function dropMeasuredEstimates(
  nodes: FlowNode[],
  changes: readonly NodeChange<FlowNode>[],
): FlowNode[] {
  let measured: Set<string> | null = null;
  for (const c of changes) if (c.type === 'dimensions' && c.dimensions) (measured ??= new Set()).add(c.id);
  if (!measured) return nodes;
  return nodes.map((n) => {
    if (!n.handles || !measured.has(n.id)) return n;
    const { handles: _estimated, ...rest } = n;
    return rest;
  });
}

/**
 * Leaving the boxes (zoomed in to full detail): no node carries the box's `handles` any more. React
 * Flow re-reads a node's `handles` whenever the node object changes (a selection, a move) and would
 * put its edges back on the box's anchors; without them it keeps the handle bounds it measured (a
 * node it has not drawn yet is measured, handles included, when it first is).
 */
export function dropBoxHandles(nodes: FlowNode[]): FlowNode[] {
  if (!nodes.some((n) => n.handles)) return nodes;
  return nodes.map((n) => {
    if (!n.handles) return n;
    const { handles: _box, ...rest } = n;
    return rest;
  });
}
