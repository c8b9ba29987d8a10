// Group a selection into a composite node and ungroup it again, as pure operations. Edges crossing
// the boundary are rewired through generated graphIn/graphOut nodes (the composite's ports).
// ungroup(group(g, sel)) gives back g: the same nodes, edges (ids included), containers and grants.
// A graph's own graphIn/graphOut nodes never move into a composite: inside one they would become the
// composite's ports (and vanish again on ungroup), so they stay at their level as outside nodes.
// Grants follow the engine's rule (src/engine/flatten.ts, docs/reference-differences.md 15): a grant
// inside a composite to a container its subgraph does not declare resolves to the enclosing graph's
// container. So a grouped node keeps its grants to containers left outside (they still reach them,
// and the validator agrees); only a container moved inside while an outside node holds a grant to it
// is refused, since nothing resolves inward.
import type { OpResult } from '../../../domain/graph/graph.ops.ts';
import { emptyGraph, type EdgeDef, type GraphDef, type NodeDef } from '../../../domain/graph/graph.schema.ts';
import { pairedId } from '../../../domain/flow/loopPorts.ts';
import { freshId, usedIds } from '../ids.ts';

/** graphIn/graphOut: a level's boundary ports (inside a composite, the composite's ports). */
export const isBoundaryNode = (n: NodeDef): boolean => n.type === 'graphIn' || n.type === 'graphOut';

/** The nodes a group of `nodeIds` really moves: no boundary ports, loop pivots with their partner. */
export function groupedNodeIds(level: GraphDef, nodeIds: readonly string[]): Set<string> {
  const ns = new Set(nodeIds);
  for (const n of level.nodes)
    if (ns.has(n.id) && (n.type === 'iterIn' || n.type === 'iterOut') && pairedId(n)) ns.add(pairedId(n)!);
  for (const n of level.nodes) if (isBoundaryNode(n)) ns.delete(n.id);
  return new Set(level.nodes.filter((n) => ns.has(n.id)).map((n) => n.id));
}

export function groupNodes(
  level: GraphDef,
  nodeIds: readonly string[],
  containerIds: readonly string[],
  compositeId: string,
): OpResult {
  const ns = groupedNodeIds(level, nodeIds);
  const cs = new Set(containerIds);
  if (ns.size === 0)
    return {
      ok: false,
      reason:
        nodeIds.length > 0
          ? 'graph inputs and outputs stay at their level; select other nodes to group'
          : 'select the nodes to group',
    };
  for (const g of level.access_grants) {
    if (cs.has(g.container_id) && !ns.has(g.node_id)) {
      return {
        ok: false,
        reason: nodeIds.includes(g.node_id)
          ? `container "${g.container_id}" is granted to "${g.node_id}", a graph input/output, which stays at this level; leave the container out or remove the grant`
          : `container "${g.container_id}" is granted to "${g.node_id}", which stays outside; select that node too`,
      };
    }
  }
  const inner = level.nodes.filter((n) => ns.has(n.id));
  const minX = Math.min(...inner.map((n) => n.position.x));
  const minY = Math.min(...inner.map((n) => n.position.y));
  const used = usedIds(level);
  used.add(compositeId);
  const sub: GraphDef = { ...emptyGraph(compositeId), eval_graph: false };
  const subNodes: NodeDef[] = inner.map((n) => ({
    ...n,
    position: { x: n.position.x - minX + 250, y: n.position.y - minY },
  }));
  const subEdges: EdgeDef[] = [];
  const outerEdges: EdgeDef[] = [];
  const portNames = new Set<string>();
  let inY = 0;
  let outY = 0;
  for (const e of level.edges) {
    const sIn = ns.has(e.source);
    const tIn = ns.has(e.target);
    if (sIn && tIn) subEdges.push(e);
    else if (!sIn && !tIn) outerEdges.push(e);
    else if (tIn) {
      const port = freshId(`${e.target}_${e.targetHandle || 'in'}`, portNames);
      const gi = freshId('graphIn', used);
      subNodes.push({
        id: gi,
        type: 'graphIn',
        label: port,
        position: { x: 0, y: (inY += 80) },
        config: { portName: port },
      });
      subEdges.push({
        id: freshId(`e_${gi}`, used),
        source: gi,
        target: e.target,
        sourceHandle: 'value',
        targetHandle: e.targetHandle,
      });
      outerEdges.push({ ...e, target: compositeId, targetHandle: port });
    } else {
      const port = freshId(`${e.source}_${e.sourceHandle || 'out'}`, portNames);
      const go = freshId('graphOut', used);
      subNodes.push({
        id: go,
        type: 'graphOut',
        label: port,
        position: { x: 700, y: (outY += 80) },
        config: { portName: port },
      });
      subEdges.push({
        id: freshId(`e_${go}`, used),
        source: e.source,
        target: go,
        sourceHandle: e.sourceHandle,
        targetHandle: 'value',
      });
      outerEdges.push({ ...e, source: compositeId, sourceHandle: port });
    }
  }
  sub.nodes = subNodes;
  sub.edges = subEdges;
  const inside = (p: { x: number; y: number }) => ({ x: p.x - minX + 250, y: p.y - minY });
  sub.containers = level.containers
    .filter((c) => cs.has(c.id))
    .map((c) => ({ ...c, position: inside(c.position) }));
  sub.access_grants = level.access_grants.filter((g) => ns.has(g.node_id));
  const composite: NodeDef = {
    id: compositeId,
    type: 'compositeNode',
    label: 'Composite',
    position: { x: minX, y: minY },
    config: {},
    subgraph: sub,
  };
  return {
    ok: true,
    graph: {
      ...level,
      nodes: [...level.nodes.filter((n) => !ns.has(n.id)), composite],
      edges: outerEdges,
      containers: level.containers.filter((c) => !cs.has(c.id)),
      access_grants: level.access_grants.filter((g) => !ns.has(g.node_id)),
    },
  };
}

export function ungroupNode(level: GraphDef, compositeId: string): OpResult {
  const comp = level.nodes.find((n) => n.id === compositeId);
  if (!comp?.subgraph) return { ok: false, reason: 'select a composite node to ungroup' };
  const sub = comp.subgraph;
  const outerIds = new Set([...level.nodes.map((n) => n.id), ...level.containers.map((c) => c.id)]);
  const moved = sub.nodes.filter((n) => !isBoundaryNode(n));
  const clash = [...moved.map((n) => n.id), ...sub.containers.map((c) => c.id)].find(
    (id) => outerIds.has(id) && id !== compositeId,
  );
  if (clash)
    return {
      ok: false,
      reason: `id "${clash}" exists both inside and outside the composite; rename it first`,
    };
  const portOf = (n: NodeDef, dflt: string) =>
    typeof n.config.portName === 'string' && n.config.portName ? n.config.portName : dflt;
  const ins = new Map(sub.nodes.filter((n) => n.type === 'graphIn').map((n) => [n.id, portOf(n, 'input')]));
  const outs = new Map(
    sub.nodes.filter((n) => n.type === 'graphOut').map((n) => [n.id, portOf(n, 'output')]),
  );
  const edges: EdgeDef[] = level.edges.filter((e) => e.source !== compositeId && e.target !== compositeId);
  // Every id of the result level, so a restored edge keeps its outer id when it is free.
  const used = usedIds({ ...level, edges });
  for (const n of moved) used.add(n.id);
  for (const c of sub.containers) used.add(c.id);
  for (const g of sub.access_grants) used.add(g.id);
  const idFor = (id: string) => {
    if (used.has(id)) return freshId(id, used);
    used.add(id);
    return id;
  };
  const feeding = (port: string | undefined) =>
    level.edges.filter((x) => x.target === compositeId && x.targetHandle === port);
  const fedBy = (port: string | undefined) =>
    level.edges.filter((x) => x.source === compositeId && x.sourceHandle === port);
  // Inner edges first (their ids are taken as they are), then the ones rebuilt across the boundary.
  const crossing: EdgeDef[] = [];
  for (const e of sub.edges) {
    if (!ins.has(e.source) && !outs.has(e.target)) edges.push({ ...e, id: idFor(e.id) });
    else crossing.push(e);
  }
  for (const e of crossing) {
    // Each end resolves to the outer edges at its port, or to the inner node itself.
    const from = ins.has(e.source)
      ? feeding(ins.get(e.source)).map((o) => ({ id: o.id, source: o.source, sourceHandle: o.sourceHandle }))
      : [{ id: e.id, source: e.source, sourceHandle: e.sourceHandle }];
    const to = outs.has(e.target)
      ? fedBy(outs.get(e.target)).map((o) => ({ id: o.id, target: o.target, targetHandle: o.targetHandle }))
      : [{ id: e.id, target: e.target, targetHandle: e.targetHandle }];
    for (const f of from)
      for (const t of to) {
        const outerId = ins.has(e.source) ? f.id : t.id;
        edges.push({ ...e, ...f, ...t, id: idFor(outerId) });
      }
  }
  const off = (p: { x: number; y: number }) => ({ x: p.x + comp.position.x - 250, y: p.y + comp.position.y });
  return {
    ok: true,
    graph: {
      ...level,
      nodes: [
        ...level.nodes.filter((n) => n.id !== compositeId),
        ...moved.map((n) => ({ ...n, position: off(n.position) })),
      ],
      edges,
      containers: [...level.containers, ...sub.containers.map((c) => ({ ...c, position: off(c.position) }))],
      access_grants: [...level.access_grants.filter((g) => g.node_id !== compositeId), ...sub.access_grants],
    },
  };
}
