// Copy/paste/duplicate as pure operations: cut a fragment (selected nodes and containers, the edges
// and grants wholly inside them) out of a level, and insert a fragment with fresh ids, remapping
// every reference (edges, grants, pairedWith) and offsetting positions.
import type { OpResult } from '../../../domain/graph/graph.ops.ts';
import type {
  AccessGrantDef,
  ContainerDef,
  EdgeDef,
  GraphDef,
  NodeDef,
} from '../../../domain/graph/graph.schema.ts';
import { pairedId } from '../../../domain/flow/loopPorts.ts';
import { freshId, usedIds } from '../ids.ts';

export interface Fragment {
  statewire: 'fragment';
  nodes: NodeDef[];
  edges: EdgeDef[];
  containers: ContainerDef[];
  access_grants: AccessGrantDef[];
}

export function cutFragment(
  level: GraphDef,
  nodeIds: readonly string[],
  containerIds: readonly string[],
): Fragment {
  const ns = new Set(nodeIds);
  // A loop pivot copies with its partner, so a pasted loop is never half a loop.
  for (const n of level.nodes)
    if (ns.has(n.id) && (n.type === 'iterIn' || n.type === 'iterOut') && pairedId(n)) ns.add(pairedId(n)!);
  const cs = new Set(containerIds);
  return {
    statewire: 'fragment',
    nodes: level.nodes.filter((n) => ns.has(n.id)),
    edges: level.edges.filter((e) => ns.has(e.source) && ns.has(e.target)),
    containers: level.containers.filter((c) => cs.has(c.id)),
    access_grants: level.access_grants.filter((g) => ns.has(g.node_id) && cs.has(g.container_id)),
  };
}

export function isFragment(v: unknown): v is Fragment {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { statewire?: unknown }).statewire === 'fragment' &&
    Array.isArray((v as Fragment).nodes)
  );
}

/** Inserts a copy of the fragment; returns the new graph and the ids created (for selection). */
export function insertFragment(
  level: GraphDef,
  frag: Fragment,
  offset: { x: number; y: number },
): OpResult & { nodeIds?: string[]; containerIds?: string[] } {
  if (frag.nodes.length === 0 && frag.containers.length === 0)
    return { ok: false, reason: 'nothing to paste' };
  const used = usedIds(level);
  const map = new Map<string, string>();
  for (const n of frag.nodes) map.set(n.id, freshId(n.id.replace(/_\d+$/, ''), used));
  for (const c of frag.containers) map.set(c.id, freshId(c.id.replace(/_\d+$/, ''), used));
  const at = (p: { x: number; y: number }) => ({ x: p.x + offset.x, y: p.y + offset.y });
  const nodes = frag.nodes.map((n) => {
    const config = { ...n.config };
    const p = pairedId(n);
    if (p) {
      if (map.has(p)) config.pairedWith = map.get(p);
      else delete config.pairedWith;
    }
    return { ...n, id: map.get(n.id)!, position: at(n.position), config };
  });
  const containers = frag.containers.map((c) => ({ ...c, id: map.get(c.id)!, position: at(c.position) }));
  const edges = frag.edges.map((e) => ({
    ...e,
    id: freshId(
      `e_${map.get(e.source)}_${e.sourceHandle || 'out'}__${map.get(e.target)}_${e.targetHandle || 'in'}`,
      used,
    ),
    source: map.get(e.source)!,
    target: map.get(e.target)!,
  }));
  const grants = frag.access_grants.map((g) => ({
    id: freshId(`ag_${map.get(g.node_id)}_${map.get(g.container_id)}`, used),
    node_id: map.get(g.node_id)!,
    container_id: map.get(g.container_id)!,
  }));
  return {
    ok: true,
    graph: {
      ...level,
      nodes: [...level.nodes, ...nodes],
      containers: [...level.containers, ...containers],
      edges: [...level.edges, ...edges],
      access_grants: [...level.access_grants, ...grants],
    },
    nodeIds: nodes.map((n) => n.id),
    containerIds: containers.map((c) => c.id),
  };
}
