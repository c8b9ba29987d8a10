// The zoomed-out body of a graph node (level of detail): ONE box with the label and only the handles
// that edges and grants attach to, placed at the height of their full-detail rows (nodeBox.ts) so
// edges meet the box where they will meet the port rows after zooming in.
import { Handle, Position } from '@xyflow/react';
import { STATE_HANDLE } from '../../domain/graph/graph.ops.ts';
import type { NodePorts } from '../store/derived.ts';
import { anchorTop, boxHeight } from './nodeBox.ts';

/** Handles in the box are invisible anchors: at this zoom a dot would be under a pixel. */
const ANCHOR = 'sw-box-anchor';

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
  const all = wired === '*';
  const keys = all ? null : new Set(wired.split(','));
  const shows = (key: string) => keys === null || keys.has(key);
  return (
    <>
      {label}
      {ports.inputs.map((p, i) =>
        shows(`i:${p.name}`) ? (
          <Handle
            key={`i:${p.name}`}
            type="target"
            position={Position.Left}
            id={p.name}
            className={ANCHOR}
            style={{ top: anchorTop(i) }}
          />
        ) : null,
      )}
      {ports.outputs.map((p, i) =>
        shows(`o:${p.name}`) ? (
          <Handle
            key={`o:${p.name}`}
            type="source"
            position={Position.Right}
            id={p.name}
            className={ANCHOR}
            style={{ top: anchorTop(i) }}
          />
        ) : null,
      )}
      {stateVisible && shows('s') && (
        <Handle type="source" position={Position.Bottom} id={STATE_HANDLE} className={ANCHOR} />
      )}
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
