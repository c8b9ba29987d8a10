// The zoomed-out body of a graph node (level of detail): ONE box with the label and only the anchors
// that edges and grants attach to, placed at the height of their full-detail rows (nodeBox.ts) so
// edges meet the box where they will meet the port rows after zooming in.
//
// The anchors are plain elements with React Flow's handle classes and data attributes, not
// <Handle>s. At this zoom a handle is under two screen pixels and invisible: nothing to start a
// connection from (connecting is done zoomed in, on the port rows). React Flow reads a box's handle
// geometry from its estimate (nodeEstimate.ts), or, if the box's size came out different, measures
// these elements exactly as it measures handles (by class and data-handleid / data-handlepos). A
// <Handle> would add, per anchor, a component with two store subscriptions, run on every store
// update (every frame of a pan), for a connection no one can start.
import { Position } from '@xyflow/react';
import { STATE_HANDLE } from '../../domain/graph/graph.ops.ts';
import type { NodePorts } from '../store/derived.ts';
import { anchorTop, boxAnchors, boxHeight } from './nodeBox.ts';

const SIDE = { left: Position.Left, right: Position.Right, bottom: Position.Bottom } as const;

export function NodeBoxBody({
  nodeId,
  label,
  ports,
  wired,
  stateVisible,
}: {
  nodeId: string;
  label: string;
  ports: NodePorts;
  /** Wired handle keys (detail.ts wiredHandles): `*` = every handle. */
  wired: string;
  stateVisible: boolean;
}) {
  return (
    <>
      {label}
      {boxAnchors(ports, wired, stateVisible, STATE_HANDLE).map((a) => (
        <BoxAnchor
          key={a.key}
          nodeId={nodeId}
          handleId={a.id}
          type={a.type}
          side={SIDE[a.side]}
          top={a.side === 'bottom' ? undefined : anchorTop(a.row)}
        />
      ))}
    </>
  );
}

/**
 * One anchor of a zoomed-out box (a graph node's or a container's): React Flow's handle classes and
 * data attributes, by which it measures handles (and exactEstimates.ts checks them), on a plain
 * element. `top`: flow px below the box's top edge for a side anchor; a top/bottom one sits on its edge.
 */
export function BoxAnchor({
  nodeId,
  handleId,
  type,
  side,
  top,
}: {
  nodeId: string;
  handleId: string;
  type: 'source' | 'target';
  side: Position;
  top?: number;
}) {
  return (
    <div
      data-handleid={handleId}
      data-nodeid={nodeId}
      data-handlepos={side}
      className={`react-flow__handle react-flow__handle-${side} ${type} sw-box-anchor`}
      style={top === undefined ? undefined : { top }}
    />
  );
}

/** Inline height of the box (the one per-node style it needs). */
export function boxStyle(
  ports: NodePorts,
  color: string | undefined,
): { height: number; borderTopColor: string } {
  return { height: boxHeight(ports), borderTopColor: color ?? '#52525b' };
}
