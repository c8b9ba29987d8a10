// Would a connection be refused, and why? The same pure `connect` the store runs on drop, asked
// while the user is still dragging (React Flow's isValidConnection, the dimming and the hint at the
// cursor), so what the drag shows and what the drop does never disagree.
import {
  connect,
  CONTAINER_HANDLE,
  STATE_HANDLE,
  type ConnectRequest,
} from '../../domain/graph/graph.ops.ts';
import { currentLevel, editorStore, type EditorState } from '../store/editor.store.ts';
import { CONTAINER_DROP_HANDLE, fromFlowNodeId } from './flowMapping.ts';

export interface FlowConnection {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

const handleOf = (h: string | null | undefined): string | null =>
  h === CONTAINER_DROP_HANDLE ? CONTAINER_HANDLE : (h ?? null);

/** A flow connection (flow ids, the container body's drop handle) as the store's connect request. */
export function toConnectRequest(c: FlowConnection): ConnectRequest {
  return {
    source: fromFlowNodeId(c.source).id,
    target: fromFlowNodeId(c.target).id,
    sourceHandle: handleOf(c.sourceHandle),
    targetHandle: handleOf(c.targetHandle),
  };
}

const PROBE_IDS = { edgeId: '__probe_edge__', grantId: '__probe_grant__' };

/** Why dropping this connection on the current level would be refused; null when it would connect. */
export function refusalOf(c: FlowConnection, s: EditorState = editorStore.getState()): string | null {
  const r = connect(currentLevel(s), toConnectRequest(c), PROBE_IDS, s.catalog);
  return r.ok ? null : r.reason;
}

/**
 * A drag dropped on a handle of its own direction: an output on an output, an input on an input.
 * React Flow never offers that as a connection, so the store is never asked; this says why instead
 * of nothing. State handles are left to `refusalOf` (they connect only to containers).
 */
export function directionRefusal(
  from: { type: 'source' | 'target'; id?: string | null },
  over: { type: 'source' | 'target'; id?: string | null },
): string | null {
  if (from.type !== over.type || from.id === STATE_HANDLE || over.id === STATE_HANDLE) return null;
  return from.type === 'source'
    ? 'an output connects to an input: drop it on an input handle (the left side of a node)'
    : 'an input takes its value from an output: start the wire at an output handle (the right side of a node)';
}
