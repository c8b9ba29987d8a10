// Reads one graph object (a file's top level, or a composite's subgraph) into the normalized model:
// defaults, extra-key warnings, schema errors with JSON paths, and the legacy migrations. Loop-port
// synthesis and the public entry points live in graph.parse.ts.
import type { AccessGrantDef, ContainerDef, EdgeDef, GraphDef, HookDef, NodeDef } from './graph.schema.ts';
import { DEFAULT_STEP_BUDGET, emptyGraph } from './graph.schema.ts';
import type { ParseCtx } from './graph.parse.fields.ts';
import {
  MAX_DEPTH,
  has,
  isRawObject,
  optArray,
  preview,
  optBoolean,
  optObject,
  optString,
  readPosition,
  reqString,
  typeName,
  warnExtraKeys,
  type IssueIds,
  type RawObject,
} from './graph.parse.fields.ts';
import { parseContainer, parseEdge, parseGrant, parseHook } from './graph.parse.elements.ts';
import {
  dropStateContainers,
  migrateGraphState,
  migrateStateContainerNodes,
  migrateStateEdges,
  type IndexedEdge,
  type LegacyNode,
} from './graph.parse.legacy.ts';
import { keySeg } from '../validate/issues.ts';
import { applyRoutes, readExtensionBlock, readFeatures } from '../routing/routing.parse.ts';
import { EXTENSION_KEY } from '../routing/routing.schema.ts';

/** GraphDef's fields: emptyGraph sets every one (the compiler keeps it complete and exact). */
const GRAPH_KEYS: ReadonlySet<string> = new Set(Object.keys(emptyGraph()));
/** Keys handled by a migration rather than dropped as unknown. */
const LEGACY_KEYS = new Set(['maxIterations', 'state_containers', 'state_edges', 'graph_state']);
/** The Statewire routing extension (src/domain/routing): the saved block, or features written inline. */
const EXTENSION_KEYS = new Set([EXTENSION_KEY, 'features']);
const NODE_KEYS = new Set(['id', 'type', 'label', 'position', 'config', 'subgraph']);

function parseNode(ctx: ParseCtx, raw: RawObject, path: string, depth: number): NodeDef | undefined {
  const nodeId = typeof raw.id === 'string' && raw.id ? raw.id : undefined;
  const ids: IssueIds = nodeId ? { nodeId } : {};
  warnExtraKeys(ctx, raw, NODE_KEYS, path, 'node', ids);
  const id = reqString(ctx, raw, 'id', path, ids);
  const type = optString(ctx, raw, 'type', path, 'unknown', ids);
  const label = optString(ctx, raw, 'label', path, '', ids);
  const position = readPosition(ctx, raw, path, ids);
  const config = optObject(ctx, raw, 'config', path, ids);
  let subgraph: GraphDef | undefined;
  let subOk = true;
  if (raw.subgraph === null)
    ctx.warn('null-field', `${path}.subgraph`, "'subgraph' is null; the node is not a composite", ids);
  else if (raw.subgraph !== undefined) {
    subgraph = parseGraphObject(ctx, raw.subgraph, `${path}.subgraph`, depth + 1);
    subOk = subgraph !== undefined;
  }
  if (
    id === undefined ||
    type === undefined ||
    label === undefined ||
    position === undefined ||
    config === undefined ||
    !subOk
  )
    return undefined;
  const node: NodeDef = { id, type, label, position, config };
  if (subgraph) node.subgraph = subgraph;
  return node;
}

/** Reads each array entry with `read`; undefined entries were errors already recorded. */
function readList<T>(
  ctx: ParseCtx,
  o: RawObject,
  key: string,
  path: string,
  read: (ctx: ParseCtx, raw: unknown, p: string) => T | undefined,
): { items: { item: T; path: string }[]; ok: boolean } {
  const arr = optArray(ctx, o, key, path);
  if (!arr) return { items: [], ok: false };
  const items: { item: T; path: string }[] = [];
  let ok = true;
  arr.forEach((raw, i) => {
    const p = `${path}.${key}[${i}]`;
    const item = read(ctx, raw, p);
    if (item === undefined) ok = false;
    else items.push({ item, path: p });
  });
  return { items, ok };
}

function readStepBudget(ctx: ParseCtx, raw: RawObject, path: string): number | null | undefined {
  const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
  if (has(raw, 'maxIterations') && raw.maxIterations !== undefined) {
    const p = `${path}.maxIterations`;
    if (has(raw, 'step_budget') && raw.step_budget !== undefined) {
      ctx.warn(
        'legacy-max-iterations',
        p,
        "legacy 'maxIterations' ignored because 'step_budget' is present; it is dropped on save",
      );
    } else if (isInt(raw.maxIterations)) {
      ctx.warn(
        'legacy-max-iterations',
        p,
        `legacy 'maxIterations' read as step_budget ${raw.maxIterations}; saved as 'step_budget'`,
      );
      return raw.maxIterations === 0 ? 0 : raw.maxIterations;
    } else {
      ctx.warn(
        'legacy-max-iterations',
        p,
        `legacy 'maxIterations' is ${typeName(raw.maxIterations)}, not an integer; using step_budget ${DEFAULT_STEP_BUDGET}`,
      );
    }
  }
  const v = raw.step_budget;
  if (v === undefined) return DEFAULT_STEP_BUDGET;
  if (v === null) return null;
  if (isInt(v)) return v === 0 ? 0 : v;
  ctx.error(
    'wrong-type',
    `${path}.step_budget`,
    `'step_budget' must be an integer or null, got ${typeof v === 'number' ? v : typeName(v)}`,
  );
  return undefined;
}

/** Parses one graph object (the file, or a composite's subgraph) without loop-port synthesis. */
export function parseGraphObject(
  ctx: ParseCtx,
  raw: unknown,
  path: string,
  depth: number,
): GraphDef | undefined {
  if (!isRawObject(raw)) {
    ctx.error('wrong-type', path, `a graph must be a JSON object, got ${typeName(raw)}`);
    return undefined;
  }
  if (depth > MAX_DEPTH) {
    ctx.error('too-deep', path, `subgraphs nested deeper than ${MAX_DEPTH} levels`);
    return undefined;
  }
  for (const k of Object.keys(raw)) {
    if (!GRAPH_KEYS.has(k) && !LEGACY_KEYS.has(k) && !EXTENSION_KEYS.has(k))
      ctx.warn(
        'unknown-key',
        path + keySeg(k),
        `unknown top-level key '${k}' dropped (the reference backend drops it on save)`,
      );
  }
  let ok = true;
  const name = optString(ctx, raw, 'name', path, '');
  const description = optString(ctx, raw, 'description', path, '');
  const group = optString(ctx, raw, 'group', path, '');
  const eval_graph = optBoolean(ctx, raw, 'eval_graph', path, true);
  const step_budget = readStepBudget(ctx, raw, path);
  let kind: GraphDef['kind'] = 'graph';
  if (raw.kind !== undefined && raw.kind !== null) {
    if (raw.kind === 'graph' || raw.kind === 'node') kind = raw.kind;
    else {
      ctx.error(
        'invalid-value',
        `${path}.kind`,
        `'kind' must be "graph" or "node", got ${preview(raw.kind)}`,
      );
      ok = false;
    }
  }
  let presetId: string | null = null;
  if (typeof raw.presetId === 'string') presetId = raw.presetId;
  else if (raw.presetId !== undefined && raw.presetId !== null) {
    ctx.error(
      'wrong-type',
      `${path}.presetId`,
      `'presetId' must be a string or null, got ${typeName(raw.presetId)}`,
    );
    ok = false;
  }

  // Nodes: legacy stateContainer entries are set aside for migration (never dropped).
  const nodes: NodeDef[] = [];
  const legacy: LegacyNode[] = [];
  const nodeList = optArray(ctx, raw, 'nodes', path);
  if (!nodeList) ok = false;
  (nodeList ?? []).forEach((n, i) => {
    const p = `${path}.nodes[${i}]`;
    if (!isRawObject(n)) {
      ctx.error('wrong-type', p, `a node must be an object, got ${typeName(n)}`);
      ok = false;
    } else if (n.type === 'stateContainer') legacy.push({ raw: n, path: p });
    else {
      const node = parseNode(ctx, n, p, depth);
      if (node) nodes.push(node);
      else ok = false;
    }
  });
  const edges = readList<EdgeDef>(ctx, raw, 'edges', path, parseEdge);
  const containers = readList<ContainerDef>(ctx, raw, 'containers', path, parseContainer);
  const grants = readList<AccessGrantDef>(ctx, raw, 'access_grants', path, parseGrant);
  const hooks = readList<HookDef>(ctx, raw, 'hooks', path, parseHook);
  const block = readExtensionBlock(ctx, raw[EXTENSION_KEY], path);
  const inlineFeatures =
    raw.features === undefined || raw.features === null
      ? undefined
      : readFeatures(ctx, raw.features, `${path}.features`);
  ok = ok && edges.ok && containers.ok && grants.ok && hooks.ok;
  ok = ok && (raw.features === undefined || raw.features === null || inlineFeatures !== undefined);
  if (
    !ok ||
    name === undefined ||
    description === undefined ||
    group === undefined ||
    eval_graph === undefined ||
    step_budget === undefined ||
    block === undefined
  )
    return undefined;

  const containerDefs = containers.items.map((c) => c.item);
  const grantDefs = grants.items.map((g) => g.item);
  let indexedEdges: IndexedEdge[] = edges.items.map((e) => ({ edge: e.item, path: e.path }));
  if (legacy.length > 0)
    indexedEdges = migrateStateContainerNodes(ctx, legacy, containerDefs, grantDefs, indexedEdges);
  if (raw.graph_state !== undefined)
    migrateGraphState(ctx, raw.graph_state, `${path}.graph_state`, containerDefs);
  if (raw.state_edges !== undefined)
    migrateStateEdges(ctx, raw.state_edges, `${path}.state_edges`, containerDefs, grantDefs);
  if (raw.state_containers !== undefined)
    dropStateContainers(ctx, raw.state_containers, `${path}.state_containers`);

  const features = block?.features ?? inlineFeatures;
  const graph: GraphDef = {
    name,
    description,
    nodes,
    edges: applyRoutes(
      ctx,
      block,
      indexedEdges.map((e) => e.edge),
      path,
    ),
    containers: containerDefs,
    access_grants: grantDefs,
    hooks: hooks.items.map((h) => h.item),
    step_budget,
    eval_graph,
    kind,
    group,
    presetId,
  };
  if (features && features.length > 0) graph.features = features;
  return graph;
}
