// Flattening of composites (docs/reference-system.md §3.9) with the reference's container defects fixed (§8.2 item 12):
// - a grant on a composite node applies to every node inside it (the reference made it inert);
// - an inner grant to a container the subgraph does not declare resolves to the enclosing graph's
//   container (the reference pointed it at a prefixed ghost);
// - each grant keeps the id the node's own graph uses (`alias`), so inside a composite
//   `ctx.containers[alias]` and `ctx.graph_state` work exactly as at top level; an inner graph_state is
//   the composite's own blackboard (flat id `<composite>__graph_state`).
import type { ContainerDef, EdgeDef, GraphDef, NodeDef } from '../domain/graph/graph.schema.ts';
import type { FeatureDef } from '../domain/routing/routing.schema.ts';

export interface FlatGrant {
  id: string;
  node_id: string;
  /** Flat container id (what the engine built). */
  container_id: string;
  /** The container id as the node's own graph names it (key in ctx.containers). */
  alias: string;
}

export interface FlatGraph {
  name: string;
  step_budget: number | null;
  /** Routing features of the top-level graph (src/domain/routing; subgraphs cannot declare any yet). */
  features: FeatureDef[];
  nodes: NodeDef[];
  edges: EdgeDef[];
  containers: ContainerDef[];
  grants: FlatGrant[];
  /** Flat node id → composite path (e.g. "outer/inner") for error messages; absent for top-level nodes. */
  compositePath: Map<string, string>;
  warnings: string[];
}

interface Level {
  nodes: NodeDef[];
  edges: EdgeDef[];
  containers: ContainerDef[];
  grants: FlatGrant[];
}

const isComposite = (n: NodeDef) => Boolean(n.subgraph && n.subgraph.nodes.length > 0);
const portNameOf = (n: NodeDef, dflt: string) =>
  typeof n.config.portName === 'string' && n.config.portName ? n.config.portName : dflt;

export function flattenGraph(graph: GraphDef): FlatGraph {
  const compositePath = new Map<string, string>();
  const warnings: string[] = [];
  const level = flattenLevel(graph, '', () => undefined, [], '', compositePath, warnings);
  return {
    name: graph.name,
    step_budget: graph.step_budget,
    features: graph.features ?? [],
    ...level,
    compositePath,
    warnings,
  };
}

function flattenLevel(
  g: GraphDef,
  prefix: string,
  outerResolve: (id: string) => string | undefined,
  inherited: readonly { alias: string; container_id: string }[],
  path: string,
  compositePath: Map<string, string>,
  warnings: string[],
): Level {
  const own = new Set(g.containers.map((c) => c.id));
  const resolve = (id: string): string | undefined => (own.has(id) ? prefix + id : outerResolve(id));
  const containers: ContainerDef[] = g.containers.map((c) => ({ ...c, id: prefix + c.id }));
  const grants: FlatGrant[] = [];
  let nodes: NodeDef[] = [];
  let edges: EdgeDef[] = g.edges.map((e) => ({
    ...e,
    id: prefix + e.id,
    source: prefix + e.source,
    target: prefix + e.target,
  }));
  const byId = new Map(g.nodes.map((n) => [n.id, n]));

  for (const n of g.nodes) {
    if (isComposite(n)) continue;
    const config = { ...n.config };
    if (prefix && typeof config.pairedWith === 'string' && config.pairedWith)
      config.pairedWith = prefix + config.pairedWith;
    nodes.push({ id: prefix + n.id, type: n.type, label: n.label, position: n.position, config });
    if (path) compositePath.set(prefix + n.id, path);
  }

  const compositeGrants = new Map<string, { alias: string; container_id: string }[]>();
  for (const gr of g.access_grants) {
    const target = resolve(gr.container_id);
    if (target === undefined) {
      warnings.push(
        `grant '${prefix + gr.id}': container '${gr.container_id}' does not exist (grant is inert)`,
      );
      continue;
    }
    const holder = byId.get(gr.node_id);
    if (holder && isComposite(holder)) {
      const list = compositeGrants.get(holder.id) ?? [];
      list.push({ alias: gr.container_id, container_id: target });
      compositeGrants.set(holder.id, list);
      continue;
    }
    grants.push({
      id: prefix + gr.id,
      node_id: prefix + gr.node_id,
      container_id: target,
      alias: gr.container_id,
    });
  }
  // Grants inherited from enclosing composites: every node here gets them unless it holds its own.
  for (const n of nodes) {
    for (const inh of inherited) {
      if (grants.some((x) => x.node_id === n.id && x.alias === inh.alias)) continue;
      grants.push({
        id: `${n.id}::inherited::${inh.alias}`,
        node_id: n.id,
        container_id: inh.container_id,
        alias: inh.alias,
      });
    }
  }

  for (const comp of g.nodes) {
    if (!isComposite(comp) || !comp.subgraph) continue;
    const cid = prefix + comp.id;
    const innerPrefix = `${cid}__`;
    const inner = flattenLevel(
      comp.subgraph,
      innerPrefix,
      resolve,
      [...(compositeGrants.get(comp.id) ?? []), ...inherited],
      path ? `${path}/${comp.id}` : comp.id,
      compositePath,
      warnings,
    );
    containers.push(...inner.containers);
    grants.push(...inner.grants);
    const keep = comp.subgraph.nodes.some((n) => n.type === 'iterIn');
    const graphIns = inner.nodes.filter(
      (n) =>
        n.type === 'graphIn' &&
        n.id.startsWith(innerPrefix) &&
        !n.id.slice(innerPrefix.length).includes('__'),
    );
    const graphOuts = inner.nodes.filter(
      (n) =>
        n.type === 'graphOut' &&
        n.id.startsWith(innerPrefix) &&
        !n.id.slice(innerPrefix.length).includes('__'),
    );
    let innerEdges = inner.edges;
    let innerNodes = inner.nodes;
    const parentIn = edges.filter((e) => e.target === cid);
    const parentOut = edges.filter((e) => e.source === cid);
    edges = edges.filter((e) => e.target !== cid && e.source !== cid);
    const spliced: EdgeDef[] = [];
    if (keep) {
      for (const e of parentIn) {
        const gi = graphIns.find(
          (n) => portNameOf(n, 'input') === (e.targetHandle || e.sourceHandle || 'input'),
        );
        if (gi)
          spliced.push({
            id: `flat_${e.id}_to_${gi.id}`,
            source: e.source,
            sourceHandle: e.sourceHandle,
            target: gi.id,
            targetHandle: 'value',
          });
        else warnings.push(`edge '${e.id}': composite '${cid}' has no graphIn port '${e.targetHandle}'`);
      }
      for (const e of parentOut) {
        const go = graphOuts.find((n) => portNameOf(n, 'output') === (e.sourceHandle || 'output'));
        if (go)
          spliced.push({
            id: `flat_${go.id}_to_${e.id}`,
            source: go.id,
            sourceHandle: 'value',
            target: e.target,
            targetHandle: e.targetHandle,
          });
        else warnings.push(`edge '${e.id}': composite '${cid}' has no graphOut port '${e.sourceHandle}'`);
      }
    } else {
      const boundary = new Set([...graphIns, ...graphOuts].map((n) => n.id));
      for (const e of parentIn) {
        const gi = graphIns.find(
          (n) => portNameOf(n, 'input') === (e.targetHandle || e.sourceHandle || 'input'),
        );
        if (!gi) {
          warnings.push(`edge '${e.id}': composite '${cid}' has no graphIn port '${e.targetHandle}'`);
          continue;
        }
        for (const ie of innerEdges.filter((x) => x.source === gi.id)) {
          innerEdges.push({
            id: `flat_${e.id}_${ie.id}`,
            source: e.source,
            sourceHandle: e.sourceHandle,
            target: ie.target,
            targetHandle: ie.targetHandle,
          });
        }
      }
      for (const e of parentOut) {
        const go = graphOuts.find((n) => portNameOf(n, 'output') === (e.sourceHandle || 'output'));
        if (!go) {
          warnings.push(`edge '${e.id}': composite '${cid}' has no graphOut port '${e.sourceHandle}'`);
          continue;
        }
        for (const ie of innerEdges.filter((x) => x.target === go.id && !boundary.has(x.source))) {
          spliced.push({
            id: `flat_${ie.id}_${e.id}`,
            source: ie.source,
            sourceHandle: ie.sourceHandle,
            target: e.target,
            targetHandle: e.targetHandle,
          });
        }
      }
      innerEdges = innerEdges.filter((x) => !boundary.has(x.source) && !boundary.has(x.target));
      innerNodes = innerNodes.filter((n) => !boundary.has(n.id));
      for (let i = grants.length - 1; i >= 0; i--) if (boundary.has(grants[i]!.node_id)) grants.splice(i, 1);
    }
    nodes = [...nodes, ...innerNodes];
    edges = [...edges, ...innerEdges, ...spliced];
  }
  return { nodes, edges, containers, grants };
}
