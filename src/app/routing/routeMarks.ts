// Which route marks a data edge shows: the edge a routing node's latest visit took (live), or the one
// it took in the step the timeline inspects; the same port's other conditional edges are "untaken"
// (dimmed) until that node routes again. Plus the per-level lookup of routed edges the canvas uses.
import type { EdgeDef, GraphDef } from '../../domain/graph/graph.schema.ts';
import {
  routePortKey as portKey,
  type RouteFailure,
  type RouteTaken,
  type RunState,
} from '../run/run.store.ts';

const routedCache = new WeakMap<GraphDef, Map<string, EdgeDef>>();

/** The level's edge of that id when it carries a condition or effect (one map per level object). */
export function routedEdgeOf(level: GraphDef, edgeId: string): EdgeDef | undefined {
  let m = routedCache.get(level);
  if (!m) {
    m = new Map(
      level.edges.filter((e) => e.condition !== undefined || e.effect !== undefined).map((e) => [e.id, e]),
    );
    routedCache.set(level, m);
  }
  return m.get(edgeId);
}

/** The route of a node's port the canvas shows: the inspected step's last one, else the latest. */
export function shownRoute(s: RunState, node: string, port: string): RouteTaken | undefined {
  if (s.inspectedStep === null) return s.lastRoute[portKey(node, port)];
  const list = s.routes[s.inspectedStep];
  if (!list) return undefined;
  const key = portKey(node, port);
  for (let i = list.length - 1; i >= 0; i--) {
    const r = list[i]!;
    if (portKey(r.node_id, r.port) === key) return r;
  }
  return undefined;
}

export type RouteMark =
  | { kind: 'none'; seq?: undefined; reason?: undefined; choice?: undefined }
  /** `choice`: the port had several candidates (a real branch), so the taken edge stays bright. */
  | { kind: 'taken' | 'untaken'; seq: number; reason: string; choice: boolean }
  /** One of the edges a failed route decision names (the run stopped there). */
  | { kind: 'failed'; seq: number; reason: string; choice: true };

const NONE: RouteMark = { kind: 'none' };

/** The failure the canvas shows for this port: live only (an inspected step was committed, so routed). */
export function shownFailure(s: RunState, node: string, port: string): RouteFailure | undefined {
  const f = s.routeFailure;
  if (!f || s.inspectedStep !== null) return undefined;
  return portKey(f.node_id, f.port) === portKey(node, port) ? f : undefined;
}

/**
 * What an edge shows given its port's route (and failure): taken, untaken (only conditional edges
 * dim), failed (named by the decision that stopped the run), or nothing.
 */
export function markOf(
  route: RouteTaken | undefined,
  edgeId: string,
  conditional: boolean,
  failure?: RouteFailure,
): RouteMark {
  if (failure && failure.edges.includes(edgeId))
    return { kind: 'failed', seq: failure.seq, reason: failure.message, choice: true };
  if (!route || (failure && failure.seq > route.seq)) return NONE;
  const choice = route.candidates.length > 1;
  if (route.edge_id === edgeId) return { kind: 'taken', seq: route.seq, reason: route.reason, choice };
  return conditional ? { kind: 'untaken', seq: route.seq, reason: route.reason, choice } : NONE;
}

/** The chip tooltip's second part: why the edge is marked as it is ('' when it is not). */
export function markNote(mark: RouteMark): string {
  if (mark.kind === 'none') return '';
  if (mark.kind === 'failed') return `\n\nroute failed: ${mark.reason}`;
  if (mark.kind === 'taken') return `\n\ntaken: ${mark.reason}`;
  return `\n\nnot taken: the route went elsewhere (${mark.reason})`;
}
