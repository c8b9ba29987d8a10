// While a connection is dragged: the nodes and handles that would refuse it dim (one constructed
// style sheet computed when the drag starts, so no node re-renders; the CSP forbids <style>
// elements), and the reason of the refusal under the cursor is shown beside it. The reasons are
// the store's own (connectionCheck.ts).
import { useEffect, useMemo, type RefObject } from 'react';
import { useConnection, useStore, useStoreApi, type ConnectionState, type InternalNode } from '@xyflow/react';
import { editorStore } from '../store/editor.store.ts';
import { directionRefusal, refusalOf, type FlowConnection } from './connectionCheck.ts';
import { CONTAINER_DROP_HANDLE, type FlowNode } from './flowMapping.ts';

type HandleType = 'source' | 'target';
const handleKey = (nodeId: string, handleId: string | null | undefined, type: HandleType) =>
  `${nodeId}\u0000${handleId ?? ''}\u0000${type}`;

interface Refusals {
  /** Nodes none of whose handles would take the connection, with the first reason. */
  nodes: Map<string, string>;
  /** Handles that would refuse it (key: handleKey). */
  handles: Map<string, string>;
  css: string;
}

const NONE: Refusals = { nodes: new Map(), handles: new Map(), css: '' };

/** The connection from the dragged handle to (nodeId, handleId), oriented source → target. */
function towards(
  from: { nodeId: string; id?: string | null; type: HandleType },
  nodeId: string,
  handleId: string | null | undefined,
): FlowConnection {
  return from.type === 'source'
    ? { source: from.nodeId, sourceHandle: from.id ?? null, target: nodeId, targetHandle: handleId ?? null }
    : { source: nodeId, sourceHandle: handleId ?? null, target: from.nodeId, targetHandle: from.id ?? null };
}

const attr = (v: string) => JSON.stringify(v);

export function connectionRefusals(
  from: { nodeId: string; id?: string | null; type: HandleType },
  nodes: Iterable<InternalNode<FlowNode>>,
): Refusals {
  const s = editorStore.getState();
  const want: HandleType = from.type === 'source' ? 'target' : 'source';
  const out: Refusals = { nodes: new Map(), handles: new Map(), css: '' };
  const rules: string[] = [];
  for (const n of nodes) {
    let first: string | null = null;
    let anyOk = false;
    for (const h of n.internals.handleBounds?.[want] ?? []) {
      if (h.id === CONTAINER_DROP_HANDLE) continue;
      const reason = refusalOf(towards(from, n.id, h.id), s);
      if (!reason) {
        anyOk = true;
        continue;
      }
      first ??= reason;
      out.handles.set(handleKey(n.id, h.id, want), reason);
      rules.push(
        `.react-flow__handle.${want}[data-nodeid=${attr(n.id)}][data-handleid=${attr(h.id ?? '')}]{opacity:.2}`,
      );
    }
    if (!anyOk) {
      out.nodes.set(
        n.id,
        first ?? `nothing on this node takes a ${from.type === 'source' ? 'output' : 'input'}`,
      );
      rules.push(`.react-flow__node[data-id=${attr(n.id)}]{opacity:.35}`);
    }
  }
  out.css = rules.join('\n');
  return out;
}

/** The reason the drop under the pointer would be refused, or null. */
function reasonAt(
  conn: ConnectionState<InternalNode<FlowNode>>,
  refusals: Refusals,
  domNode: Element | null,
): string | null {
  if (!conn.inProgress || conn.isValid === true) return null;
  const from = { nodeId: conn.fromHandle.nodeId, id: conn.fromHandle.id, type: conn.fromHandle.type };
  if (conn.toHandle) {
    const t = conn.toHandle;
    return (
      directionRefusal(from, t) ??
      refusals.handles.get(handleKey(t.nodeId, t.id, t.type)) ??
      refusalOf(towards(from, t.nodeId, t.id))
    );
  }
  const r = domNode?.getBoundingClientRect();
  if (!r || typeof document.elementFromPoint !== 'function') return null;
  const el = document.elementFromPoint(r.left + conn.pointer.x, r.top + conn.pointer.y);
  const handle = el?.closest('.react-flow__handle');
  const nodeId = handle?.getAttribute('data-nodeid');
  if (handle && nodeId) {
    const id = handle.getAttribute('data-handleid');
    const type = handle.classList.contains('source') ? 'source' : 'target';
    return directionRefusal(from, { type, id }) ?? refusalOf(towards(from, nodeId, id));
  }
  const node = el?.closest('.react-flow__node')?.getAttribute('data-id');
  return node ? (refusals.nodes.get(node) ?? null) : null;
}

export function ConnectionFeedback({ reasonRef }: { reasonRef: RefObject<string | null> }) {
  const conn = useConnection<FlowNode>();
  const api = useStoreApi<FlowNode>();
  const domNode = useStore((s) => s.domNode);
  const fromKey = conn.inProgress
    ? handleKey(conn.fromHandle.nodeId, conn.fromHandle.id, conn.fromHandle.type)
    : null;
  const refusals = useMemo(() => {
    if (!conn.inProgress) return NONE;
    const from = { nodeId: conn.fromHandle.nodeId, id: conn.fromHandle.id, type: conn.fromHandle.type };
    return connectionRefusals(from, api.getState().nodeLookup.values());
    // Computed once per drag: the graph does not change while a connection is dragged.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fromKey, api]);
  const reason = reasonAt(conn, refusals, domNode);
  useEffect(() => {
    reasonRef.current = reason;
  }, [reason, reasonRef]);
  useEffect(() => {
    if (!refusals.css || typeof CSSStyleSheet === 'undefined') return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(refusals.css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    document.documentElement.dataset.connectionDimming = String(refusals.nodes.size);
    return () => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((x) => x !== sheet);
      delete document.documentElement.dataset.connectionDimming;
    };
  }, [refusals]);
  if (!conn.inProgress || !reason) return null;
  return (
    <div
      data-testid="connection-hint"
      role="status"
      className="pointer-events-none absolute z-[1100] max-w-[320px] rounded border border-red-500/60 bg-zinc-950/95 px-2 py-1 text-xs text-red-200 shadow-lg"
      style={{ left: conn.pointer.x + 16, top: conn.pointer.y + 16 }}
    >
      <span className="mr-1 font-semibold">Will not connect:</span>
      {reason}
    </div>
  );
}
