// While a grant is dragged from a node's state handle, the whole container box is a drop target:
// an invisible target handle covering it (React Flow prefers the handle under the cursor), so a
// drop on the body grants just like a drop on the small top handle.
import { Handle, Position, useConnection, type ConnectionState } from '@xyflow/react';
import { STATE_HANDLE } from '../../domain/graph/graph.ops.ts';
import { CONTAINER_DROP_HANDLE } from './flowMapping.ts';

const grantDragged = (c: ConnectionState): boolean =>
  c.inProgress && c.fromHandle.type === 'source' && c.fromHandle.id === STATE_HANDLE;

export function ContainerDropTarget({ containerId }: { containerId: string }) {
  const active = useConnection(grantDragged);
  if (!active) return null;
  return (
    <Handle
      type="target"
      position={Position.Top}
      id={CONTAINER_DROP_HANDLE}
      isConnectableStart={false}
      data-testid={`container-drop-${containerId}`}
      className="sw-container-drop"
    />
  );
}
