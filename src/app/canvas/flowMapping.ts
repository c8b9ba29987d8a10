// Graph level → React Flow elements. Nodes carry no graph data (each canvas node selects its own by
// id from the store); the mapping only decides ids, types and positions, and reuses the previous
// flow object whenever nothing it carries changed, so React Flow skips unchanged nodes.
import type { Edge, Node } from '@xyflow/react';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { CONTAINER_HANDLE, STATE_HANDLE } from '../../domain/graph/graph.ops.ts';
import { routedPorts } from '../../domain/routing/routing.ports.ts';
import type { NodeEstimate } from './nodeEstimate.ts';

export type FlowNodeData = { kind: 'node' | 'container'; defId: string };
export type FlowNode = Node<FlowNodeData>;
/**
 * `routedPort`: a data edge leaving a routed port (one whose edges carry a condition or an effect).
 * Only those can show a route mark or a chip, so only those subscribe to the stores (DataEdge.tsx);
 * the others are drawn from their props alone.
 */
export type FlowEdgeData = { kind: 'edge' | 'grant'; defId: string; routedPort?: true };
export type FlowEdge = Edge<FlowEdgeData>;

const CONTAINER_PREFIX = 'c:';
const EDGE_PREFIX = 'e:';
const GRANT_PREFIX = 'g:';

export const containerFlowId = (id: string) => CONTAINER_PREFIX + id;
/**
 * A target handle covering a container's whole body while a grant is being dragged, so a drop
 * anywhere on the box grants (it stands for the container's CONTAINER_HANDLE).
 */
export const CONTAINER_DROP_HANDLE = 'state-drop';
export const edgeFlowId = (id: string) => EDGE_PREFIX + id;
export const grantFlowId = (id: string) => GRANT_PREFIX + id;

/** Maps a flow node id back to the graph element it draws. */
export function fromFlowNodeId(flowId: string): { kind: 'node' | 'container'; id: string } {
  return flowId.startsWith(CONTAINER_PREFIX)
    ? { kind: 'container', id: flowId.slice(CONTAINER_PREFIX.length) }
    : { kind: 'node', id: flowId };
}

export function fromFlowEdgeId(flowId: string): { kind: 'edge' | 'grant'; id: string } {
  return flowId.startsWith(GRANT_PREFIX)
    ? { kind: 'grant', id: flowId.slice(GRANT_PREFIX.length) }
    : { kind: 'edge', id: flowId.slice(EDGE_PREFIX.length) };
}

/** Any graph element id → its flow node id, whether it names a node or a container of the level. */
export function flowIdForElement(level: GraphDef, id: string): string | null {
  if (level.nodes.some((n) => n.id === id)) return id;
  if (level.containers.some((c) => c.id === id)) return containerFlowId(id);
  return null;
}

function nodeType(type: string, hasSubgraph: boolean): string {
  if (hasSubgraph) return 'composite';
  if (type === 'note') return 'note';
  return 'graphNode';
}

/** A graph node's or a state container's known geometry (nodeEstimate.ts), if it is known. */
export type Estimator = (kind: 'node' | 'container', defId: string) => NodeEstimate | undefined;

/**
 * `estimate` gives a graph node's or container's known geometry (a box), or undefined when it is not
 * known; it is asked for flow nodes made here and for reused ones that carry an estimate (a box),
 * whose estimate is replaced when it changed; other reused nodes keep what React Flow measured.
 */
export function buildFlowNodes(
  level: GraphDef,
  prev: readonly FlowNode[],
  stateVisible: boolean,
  selected: ReadonlySet<string>,
  estimate?: Estimator,
): FlowNode[] {
  const prevById = new Map(prev.map((n) => [n.id, n]));
  const out: FlowNode[] = [];
  const reuse = (
    id: string,
    type: string,
    x: number,
    y: number,
    kind: 'node' | 'container',
    defId: string,
  ): FlowNode => {
    const p = prevById.get(id);
    const isSel = selected.has(id);
    if (p && p.type === type) {
      // A box keeps its estimate only while it is right: its anchors change with its wired ports
      // and the State toggle, and React Flow takes a box's handles from the estimate (it does not
      // re-measure a box whose size the estimate got right, exactEstimates.ts).
      const est = p.handles && estimate ? estimate(kind, defId) : undefined;
      const stale = est !== undefined && !sameHandles(p.handles, est.handles);
      if (!stale && p.position.x === x && p.position.y === y && (p.selected ?? false) === isSel) return p;
      return { ...p, ...(stale ? est : {}), position: { x, y }, selected: isSel };
    }
    const known = type !== 'note' ? estimate?.(kind, defId) : undefined;
    return { ...known, id, type, position: { x, y }, data: { kind, defId }, selected: isSel };
  };
  for (const n of level.nodes) {
    out.push(
      reuse(
        n.id,
        nodeType(n.type, Boolean(n.subgraph && n.subgraph.nodes.length)),
        n.position.x,
        n.position.y,
        'node',
        n.id,
      ),
    );
  }
  if (stateVisible) {
    for (const c of level.containers)
      out.push(reuse(containerFlowId(c.id), 'container', c.position.x, c.position.y, 'container', c.id));
  }
  return sameItems(out, prev);
}

/** Same handles in the same order: ids, kinds, sides and rectangles. */
function sameHandles(a: FlowNode['handles'], b: FlowNode['handles']): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((h, i) => {
    const o = b[i]!;
    return (
      h.id === o.id &&
      h.type === o.type &&
      h.position === o.position &&
      h.x === o.x &&
      h.y === o.y &&
      h.width === o.width &&
      h.height === o.height
    );
  });
}

// Module-scope styles keep edge objects stable and cheap (no per-edge objects).
const DATA_EDGE_STYLE = { stroke: '#71717a', strokeWidth: 1.5 };
const ERROR_EDGE_STYLE = { stroke: '#ef4444', strokeWidth: 2 };

/** `errors` holds edge ids (graph ids) that validation marks as errors; they are drawn red. */
export function buildFlowEdges(
  level: GraphDef,
  prev: readonly FlowEdge[],
  stateVisible: boolean,
  selected: ReadonlySet<string>,
  errors: ReadonlySet<string> = new Set(),
): FlowEdge[] {
  const prevById = new Map(prev.map((e) => [e.id, e]));
  const out: FlowEdge[] = [];
  // The engine's and the validator's own grouping (a port's "" and "default" are one port).
  const routed = new Set(routedPorts(level.edges).flatMap((p) => p.edges.map((e) => e.id)));
  for (const e of level.edges) {
    const id = edgeFlowId(e.id);
    const p = prevById.get(id);
    const isSel = selected.has(id);
    const style = errors.has(e.id) ? ERROR_EDGE_STYLE : DATA_EDGE_STYLE;
    const onRoutedPort = routed.has(e.id);
    if (
      p &&
      p.source === e.source &&
      p.target === e.target &&
      p.sourceHandle === (e.sourceHandle || null) &&
      p.targetHandle === (e.targetHandle || null) &&
      (p.selected ?? false) === isSel &&
      p.style === style &&
      (p.data?.routedPort ?? false) === onRoutedPort
    ) {
      out.push(p);
      continue;
    }
    out.push({
      id,
      source: e.source,
      target: e.target,
      sourceHandle: e.sourceHandle || null,
      targetHandle: e.targetHandle || null,
      type: 'data',
      style,
      selected: isSel,
      data: onRoutedPort ? { kind: 'edge', defId: e.id, routedPort: true } : { kind: 'edge', defId: e.id },
    });
  }
  if (stateVisible) {
    for (const g of level.access_grants) {
      const id = grantFlowId(g.id);
      const p = prevById.get(id);
      const isSel = selected.has(id);
      const target = containerFlowId(g.container_id);
      if (p && p.source === g.node_id && p.target === target && (p.selected ?? false) === isSel) {
        out.push(p);
        continue;
      }
      out.push({
        id,
        source: g.node_id,
        target,
        sourceHandle: STATE_HANDLE,
        targetHandle: CONTAINER_HANDLE,
        type: 'grant',
        selected: isSel,
        data: { kind: 'grant', defId: g.id },
      });
    }
  }
  return sameItems(out, prev);
}

/**
 * `prev` itself when `next` holds the same objects in the same order: React Flow then sees no new
 * array and does no work (the mapping runs again after mount and on every selection or validation
 * change, most of which leave a big level's elements as they were).
 */
function sameItems<T>(next: T[], prev: readonly T[]): T[] {
  return next.length === prev.length && next.every((x, i) => x === prev[i]) ? (prev as T[]) : next;
}
