// Identity and reference rules: duplicate ids, dangling edges and grants, duplicate grants,
// containers nobody may touch, and node types that are removed, frontend-only or unknown.
import { FRONTEND_ONLY_TYPES, REMOVED_NODE_TYPES } from '../catalog/catalog.builtins.ts';
import type { GraphDef } from '../graph/graph.schema.ts';
import type { IssueIds, ValidateCtx } from './validate.ctx.ts';

function duplicates(
  ctx: ValidateCtx,
  ids: readonly string[],
  list: string,
  what: string,
  idKey: keyof IssueIds,
): void {
  const seen = new Map<string, number>();
  ids.forEach((id, i) => {
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, i);
      return;
    }
    ctx.error(
      `duplicate-${what}-id`,
      `.${list}[${i}].id`,
      `${what} id '${id}' is used more than once (first at ${list}[${first}])`,
      { [idKey]: id },
    );
  });
}

export function checkDuplicateIds(ctx: ValidateCtx): void {
  const g = ctx.graph;
  duplicates(
    ctx,
    g.nodes.map((n) => n.id),
    'nodes',
    'node',
    'nodeId',
  );
  duplicates(
    ctx,
    g.edges.map((e) => e.id),
    'edges',
    'edge',
    'edgeId',
  );
  duplicates(
    ctx,
    g.containers.map((c) => c.id),
    'containers',
    'container',
    'containerId',
  );
  duplicates(
    ctx,
    g.access_grants.map((a) => a.id),
    'access_grants',
    'grant',
    'grantId',
  );
}

export function checkDanglingEdges(ctx: ValidateCtx): void {
  ctx.graph.edges.forEach((e, i) => {
    for (const end of ['source', 'target'] as const) {
      const id = e[end];
      if (ctx.nodeById.has(id)) continue;
      const hint = ctx.containerIds.has(id)
        ? ` ('${id}' is a container: use an access grant, not a data edge)`
        : '';
      ctx.error(
        'dangling-edge',
        `.edges[${i}].${end}`,
        `edge '${e.id}' ${end} '${id}' is not a node of this graph${hint}`,
        { edgeId: e.id },
      );
    }
  });
}

export function checkGrants(ctx: ValidateCtx): void {
  const pairs = new Map<string, string>();
  ctx.graph.access_grants.forEach((g, i) => {
    const ids: IssueIds = { grantId: g.id, nodeId: g.node_id, containerId: g.container_id };
    const p = `.access_grants[${i}]`;
    const node = ctx.nodeById.get(g.node_id);
    if (!node)
      ctx.warn(
        'dangling-grant',
        `${p}.node_id`,
        `grant '${g.id}' names node '${g.node_id}', which does not exist (kept; it is inert)`,
        ids,
      );
    // Inside a composite a grant may name a container of an enclosing graph (the engine resolves it
    // there); only a name no graph on the way up declares is dangling.
    if (!ctx.containerIds.has(g.container_id) && !ctx.outerContainerIds.has(g.container_id)) {
      ctx.warn(
        'dangling-grant',
        `${p}.container_id`,
        ctx.isRoot
          ? `grant '${g.id}' names container '${g.container_id}', which does not exist (kept; it is inert)`
          : `grant '${g.id}' names container '${g.container_id}', which neither this subgraph nor an enclosing graph declares (kept; it is inert)`,
        ids,
      );
    }
    if (node?.type === 'note')
      ctx.warn(
        'grant-on-note',
        `${p}.node_id`,
        `grant '${g.id}' is held by note '${g.node_id}', which never runs`,
        ids,
      );
    const key = `${g.node_id}\u0000${g.container_id}`;
    const first = pairs.get(key);
    if (first !== undefined)
      ctx.warn(
        'duplicate-grant',
        p,
        `grant '${g.id}' repeats grant '${first}' (${g.node_id} → ${g.container_id})`,
        ids,
      );
    else pairs.set(key, g.id);
  });
}

/**
 * Container ids the grants inside `graph`'s composites reach outside them: an inner grant to a
 * container its subgraph does not declare resolves to an enclosing graph's (src/engine/flatten.ts).
 * Only composites the engine flattens count (a subgraph with nodes).
 */
function reachedFromInside(graph: GraphDef): Set<string> {
  const out = new Set<string>();
  for (const n of graph.nodes) {
    const sub = n.subgraph;
    if (!sub || sub.nodes.length === 0) continue;
    const own = new Set(sub.containers.map((c) => c.id));
    const nodes = new Set(sub.nodes.map((x) => x.id));
    for (const g of sub.access_grants)
      if (nodes.has(g.node_id) && !own.has(g.container_id)) out.add(g.container_id);
    for (const id of reachedFromInside(sub)) if (!own.has(id)) out.add(id);
  }
  return out;
}

export function checkUngrantedContainers(ctx: ValidateCtx): void {
  const granted = new Set([
    ...ctx.graph.access_grants.filter((g) => ctx.nodeById.has(g.node_id)).map((g) => g.container_id),
    ...reachedFromInside(ctx.graph),
  ]);
  ctx.graph.containers.forEach((c, i) => {
    if (!granted.has(c.id))
      ctx.warn(
        'ungranted-container',
        `.containers[${i}]`,
        `no node holds a grant to container '${c.id}', so nothing can read or write it`,
        { containerId: c.id },
      );
  });
}

const FRONTEND_ONLY = new Set<string>(FRONTEND_ONLY_TYPES);

export function checkNodeTypes(ctx: ValidateCtx): void {
  ctx.graph.nodes.forEach((n, i) => {
    const p = `.nodes[${i}]`;
    const ids = { nodeId: n.id };
    const removed = REMOVED_NODE_TYPES[n.type];
    if (removed !== undefined) {
      ctx.error(
        'removed-node-type',
        `${p}.type`,
        `node '${n.id}' has removed type '${n.type}': ${removed}`,
        ids,
      );
      return;
    }
    if (n.subgraph && n.subgraph.nodes.length > 0) return; // a composite: its ports come from the subgraph
    if (FRONTEND_ONLY.has(n.type)) {
      ctx.warn(
        'frontend-only-node',
        `${p}.type`,
        `node '${n.id}' has canvas-only type '${n.type}'${n.type === 'compositeNode' ? ' but no subgraph' : ''}; it never runs`,
        ids,
      );
      return;
    }
    if (!ctx.catalog.has(n.type)) {
      const sep = n.type.indexOf('__');
      ctx.warn(
        'unknown-node-type',
        `${p}.type`,
        sep > 0
          ? `node '${n.id}' has type '${n.type}' of node service '${n.type.slice(0, sep)}', which is not loaded (list it in workspace/services.json or pass --service ${n.type.slice(0, sep)}=URL; its ports are not checked)`
          : `node '${n.id}' has type '${n.type}', which is not loaded (node types come from plugins; its ports are not checked)`,
        ids,
      );
    }
  });
}

export function checkEvalGraph(ctx: ValidateCtx): void {
  if (!ctx.isRoot || !ctx.graph.eval_graph) return;
  const outs = ctx.graph.nodes.filter((n) => n.type === 'graphOut').length;
  if (outs === 0)
    ctx.error(
      'eval-without-graphout',
      '.eval_graph',
      'eval graph must declare at least one graphOut node, found 0 (add a graphOut, or set eval_graph to false)',
    );
}
