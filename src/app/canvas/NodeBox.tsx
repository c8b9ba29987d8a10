// The zoomed-out body of a graph node (level of detail): ONE box with the label and only the handles
// that edges and grants attach to, placed at the height of their full-detail rows (nodeBox.ts) so
// edges meet the box where they will meet the port rows after zooming in.
import { Handle, Position } from '@xyflow/react';
import { STATE_HANDLE } from '../../domain/graph/graph.ops.ts';
import type { NodePorts } from '../store/derived.ts';
import { anchorTop, boxAnchors, boxHeight } from './nodeBox.ts';

/** Handles in the box are invisible anchors: at this zoom a dot would be under a pixel. */
const ANCHOR = 'sw-box-anchor';

const SIDE = { left: Position.Left, right: Position.Right, bottom: Position.Bottom } as const;

export function NodeBoxBody({
  label,
  ports,
  wired,
  stateVisible,
}: {
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
        <Handle
          key={a.key}
          type={a.type}
          position={SIDE[a.side]}
          id={a.id}
          className={ANCHOR}
          style={a.side === 'bottom' ? undefined : { top: anchorTop(a.row) }}
        />
      ))}
    </>
  );
}

/** Inline height of the box (the one per-node style it needs). */
export function boxStyle(
  ports: NodePorts,
  color: string | undefined,
): { height: number; borderTopColor: string } {
  return { height: boxHeight(ports), borderTopColor: color ?? '#52525b' };
}
