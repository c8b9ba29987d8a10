// Pure graph edit operations used by the editor's store. Each takes a graph level (the root or a
// composite's subgraph) and returns the next graph, or a refusal with a reason a user can read.
// Ids and positions are passed in (domain has no randomness). Unchanged nodes/edges keep their
// object identity so the canvas re-renders only what changed.
import type { Catalog } from '../catalog/catalog.schema.ts';
import type { AccessGrantDef, ContainerDef, EdgeDef, GraphDef, NodeDef, Position } from './graph.schema.ts';
import { pairedId } from '../flow/loopPorts.ts';
import { resolvePorts } from '../flow/ports.ts';
import { wireCompatibility } from '../flow/wireTypes.ts';

export type OpResult = { ok: true; graph: GraphDef } | { ok: false; reason: string };

const ok = (graph: GraphDef): OpResult => ({ ok: true, graph });
const refuse = (reason: string): OpResult => ({ ok: false, reason });

/** Handle id of the per-node "state" handle used to draw grants (reference: `__state__`). */
export const STATE_HANDLE = '__state__';
/** Handle id of the container's top/bottom handles (reference: `state`). */
export const CONTAINER_HANDLE = 'state';

export function addNodes(graph: GraphDef, nodes: NodeDef[]): OpResult {
  const ids = new Set([...graph.nodes.map((n) => n.id), ...graph.containers.map((c) => c.id)]);
  for (const n of nodes) {
    if (ids.has(n.id)) return refuse(`id "${n.id}" is already used`);
    ids.add(n.id);
  }
  return ok({ ...graph, nodes: [...graph.nodes, ...nodes] });
}

/** Adds an iterIn and its iterOut, paired both ways (the reference's root mode forgot this, docs/reference-system.md §8.2 item 21). */
export function addLoopPair(graph: GraphDef, inId: string, outId: string, at: Position): OpResult {
  const iterIn: NodeDef = {
    id: inId,
    type: 'iterIn',
    label: 'Iter In',
    position: at,
    config: { version: 3, pairedWith: outId, initPorts: [] },
  };
  const iterOut: NodeDef = {
    id: outId,
    type: 'iterOut',
    label: 'Iter Out',
    position: { x: at.x + 500, y: at.y },
    config: { pairedWith: inId, ports: [{ name: 'value', wire_type: 'ANY', persist: true }] },
  };
  return addNodes(graph, [iterIn, iterOut]);
}

export interface Selection {
  nodes?: readonly string[];
  edges?: readonly string[];
  containers?: readonly string[];
  grants?: readonly string[];
}

/**
 * Deletes the selection. A loop pivot takes its partner with it; a node takes its edges and
 * grants; a container takes its grants.
 */
export function removeElements(graph: GraphDef, sel: Selection): OpResult {
  const nodes = new Set(sel.nodes ?? []);
  for (const n of graph.nodes) {
    if (!nodes.has(n.id) || (n.type !== 'iterIn' && n.type !== 'iterOut')) continue;
    const partner = pairedId(n);
    if (partner) nodes.add(partner);
  }
  const edges = new Set(sel.edges ?? []);
  const containers = new Set(sel.containers ?? []);
  const grants = new Set(sel.grants ?? []);
  return ok({
    ...graph,
    nodes: graph.nodes.filter((n) => !nodes.has(n.id)),
    edges: graph.edges.filter((e) => !edges.has(e.id) && !nodes.has(e.source) && !nodes.has(e.target)),
    containers: graph.containers.filter((c) => !containers.has(c.id)),
    access_grants: graph.access_grants.filter(
      (g) => !grants.has(g.id) && !nodes.has(g.node_id) && !containers.has(g.container_id),
    ),
  });
}

/** Moves nodes and containers (one undo step per drag: the caller passes every moved id at once). */
export function moveElements(graph: GraphDef, positions: ReadonlyMap<string, Position>): OpResult {
  const moved = (p: Position, id: string) => {
    const next = positions.get(id);
    return next && (next.x !== p.x || next.y !== p.y) ? next : null;
  };
  let changed = false;
  const nodes = graph.nodes.map((n) => {
    const p = moved(n.position, n.id);
    if (!p) return n;
    changed = true;
    return { ...n, position: { x: p.x, y: p.y } };
  });
  const containers = graph.containers.map((c) => {
    const p = moved(c.position, c.id);
    if (!p) return c;
    changed = true;
    return { ...c, position: { x: p.x, y: p.y } };
  });
  return changed ? ok({ ...graph, nodes, containers }) : refuse('nothing moved');
}

export interface ConnectRequest {
  source: string;
  sourceHandle: string | null;
  target: string;
  targetHandle: string | null;
}

export type ConnectResult =
  { ok: true; graph: GraphDef; kind: 'edge' | 'grant' } | { ok: false; reason: string };

/**
 * One entry point for every drag between handles. Grants when exactly one end is a container (or a
 * state handle is involved); otherwise a data edge checked against port wire types.
 */
export function connect(
  graph: GraphDef,
  req: ConnectRequest,
  ids: { edgeId: string; grantId: string },
  catalog: Catalog,
): ConnectResult {
  const containerIds = new Set(graph.containers.map((c) => c.id));
  const srcIsC = containerIds.has(req.source);
  const tgtIsC = containerIds.has(req.target);
  const stateHandle = req.sourceHandle === STATE_HANDLE || req.targetHandle === STATE_HANDLE;
  if (srcIsC || tgtIsC || stateHandle) {
    if (srcIsC && tgtIsC)
      return { ok: false, reason: 'a grant links a node to a container, not two containers' };
    if (!srcIsC && !tgtIsC) return { ok: false, reason: 'a state handle connects only to a state container' };
    const nodeId = srcIsC ? req.target : req.source;
    const containerId = srcIsC ? req.source : req.target;
    const r = addGrant(graph, { id: ids.grantId, node_id: nodeId, container_id: containerId });
    return r.ok ? { ok: true, graph: r.graph, kind: 'grant' } : r;
  }
  return connectData(graph, req, ids.edgeId, catalog);
}

function connectData(graph: GraphDef, req: ConnectRequest, edgeId: string, catalog: Catalog): ConnectResult {
  const src = graph.nodes.find((n) => n.id === req.source);
  const tgt = graph.nodes.find((n) => n.id === req.target);
  if (!src || !tgt) return { ok: false, reason: 'both ends must be nodes of this graph' };
  if (src.id === tgt.id)
    return { ok: false, reason: 'a node cannot feed itself; loops go through iterIn/iterOut' };
  if (
    (src.type === 'iterIn' && tgt.type === 'iterOut') ||
    (src.type === 'iterOut' && tgt.type === 'iterIn')
  ) {
    if (pairedId(src) === tgt.id || pairedId(tgt) === src.id) {
      return {
        ok: false,
        reason: 'paired loop pivots carry values internally; no edge between iterIn and iterOut',
      };
    }
  }
  const sh = req.sourceHandle ?? '';
  const th = req.targetHandle ?? '';
  if (
    graph.edges.some(
      (e) => e.source === src.id && e.target === tgt.id && e.sourceHandle === sh && e.targetHandle === th,
    )
  ) {
    return { ok: false, reason: `${src.id}.${sh} is already connected to ${tgt.id}.${th}` };
  }
  const sp = resolvePorts(src, graph, catalog).outputs.find((p) => p.name === sh);
  const tp = resolvePorts(tgt, graph, catalog).inputs.find((p) => p.name === th);
  const compat = wireCompatibility(sp?.wire_type, tp?.wire_type);
  if (!compat.ok) return { ok: false, reason: compat.reason };
  const edge: EdgeDef = { id: edgeId, source: src.id, target: tgt.id, sourceHandle: sh, targetHandle: th };
  return { ok: true, graph: { ...graph, edges: [...graph.edges, edge] }, kind: 'edge' };
}

export function addGrant(graph: GraphDef, grant: AccessGrantDef): OpResult {
  if (!graph.containers.some((c) => c.id === grant.container_id))
    return refuse(`container "${grant.container_id}" does not exist`);
  if (graph.access_grants.some((g) => g.node_id === grant.node_id && g.container_id === grant.container_id)) {
    return refuse(`"${grant.node_id}" already has access to "${grant.container_id}"`);
  }
  if (graph.access_grants.some((g) => g.id === grant.id))
    return refuse(`grant id "${grant.id}" is already used`);
  return ok({ ...graph, access_grants: [...graph.access_grants, grant] });
}

export function addContainer(graph: GraphDef, container: ContainerDef): OpResult {
  if (graph.containers.some((c) => c.id === container.id) || graph.nodes.some((n) => n.id === container.id)) {
    return refuse(`id "${container.id}" is already used`);
  }
  return ok({ ...graph, containers: [...graph.containers, container] });
}

export function updateContainer(
  graph: GraphDef,
  id: string,
  fn: (c: ContainerDef) => ContainerDef | string,
): OpResult {
  const c = graph.containers.find((x) => x.id === id);
  if (!c) return refuse(`container "${id}" does not exist`);
  const next = fn(c);
  if (typeof next === 'string') return refuse(next);
  return ok({ ...graph, containers: graph.containers.map((x) => (x.id === id ? next : x)) });
}

export function updateNode(graph: GraphDef, id: string, fn: (n: NodeDef) => NodeDef): OpResult {
  const n = graph.nodes.find((x) => x.id === id);
  if (!n) return refuse(`node "${id}" does not exist`);
  return ok({ ...graph, nodes: graph.nodes.map((x) => (x.id === id ? fn(x) : x)) });
}

/** Sets one config key of a node (undefined removes it). */
export function setNodeConfig(graph: GraphDef, id: string, key: string, value: unknown): OpResult {
  return updateNode(graph, id, (n) => {
    const config = { ...n.config };
    if (value === undefined) delete config[key];
    else config[key] = value;
    return { ...n, config };
  });
}

/** Renames a graph element id everywhere it is referenced (edges, grants, pairedWith). */
export function renameNodeId(graph: GraphDef, from: string, to: string): OpResult {
  if (!to.trim()) return refuse('id must not be empty');
  if (graph.nodes.some((n) => n.id === to) || graph.containers.some((c) => c.id === to))
    return refuse(`id "${to}" is already used`);
  const isContainer = graph.containers.some((c) => c.id === from);
  return ok({
    ...graph,
    nodes: graph.nodes.map((n) => {
      let next = n.id === from ? { ...n, id: to } : n;
      if (pairedId(next) === from) next = { ...next, config: { ...next.config, pairedWith: to } };
      return next;
    }),
    containers: isContainer
      ? graph.containers.map((c) => (c.id === from ? { ...c, id: to } : c))
      : graph.containers,
    edges: graph.edges.map((e) =>
      e.source === from || e.target === from
        ? { ...e, source: e.source === from ? to : e.source, target: e.target === from ? to : e.target }
        : e,
    ),
    access_grants: graph.access_grants.map((g) =>
      g.node_id === from || g.container_id === from
        ? {
            ...g,
            node_id: g.node_id === from ? to : g.node_id,
            container_id: g.container_id === from ? to : g.container_id,
          }
        : g,
    ),
  });
}
