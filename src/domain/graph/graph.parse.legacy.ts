// Migrations of legacy state shapes found in real files (docs/reference-system.md §1.13, §7). The reference
// backend silently ignores most of them and loses grants; we move what we can into `containers` /
// `access_grants` and warn about every entry, so nothing disappears without a word.
import type { AccessGrantDef, ContainerDef, EdgeDef, StateDef } from './graph.schema.ts';
import { GRAPH_STATE_ID } from './graph.schema.ts';
import {
  type ParseCtx,
  isRawObject,
  preview,
  readPosition,
  typeName,
  type RawObject,
} from './graph.parse.fields.ts';
import { parseState, parseStates } from './graph.parse.elements.ts';

export interface IndexedEdge {
  edge: EdgeDef;
  path: string;
}

export interface LegacyNode {
  raw: RawObject;
  path: string;
}

/** Adds slots the container does not have yet; returns the names that were already there. */
function mergeStates(into: ContainerDef, states: Record<string, StateDef>): string[] {
  const clashes: string[] = [];
  const merged = Object.fromEntries(Object.entries(into.states));
  for (const [name, s] of Object.entries(states)) {
    if (Object.prototype.hasOwnProperty.call(merged, name)) clashes.push(name);
    else merged[name] = s;
  }
  into.states = Object.fromEntries(Object.entries(merged));
  return clashes;
}

function addOrMerge(ctx: ParseCtx, containers: ContainerDef[], c: ContainerDef, path: string): string {
  const existing = containers.find((x) => x.id === c.id);
  if (!existing) {
    containers.push(c);
    return 'moved to containers';
  }
  const clashes = mergeStates(existing, c.states);
  if (clashes.length > 0) {
    ctx.warn(
      'legacy-state-conflict',
      path,
      `slots ${clashes.map((s) => `'${s}'`).join(', ')} already exist in container '${c.id}'; the legacy definitions were dropped`,
      { containerId: c.id },
    );
  }
  return `merged into the existing container '${c.id}'`;
}

function uniqueGrantId(grants: AccessGrantDef[], wanted: string): string {
  let id = wanted;
  for (let k = 2; grants.some((g) => g.id === id); k++) id = `${wanted}_${k}`;
  return id;
}

/** Adds a grant unless the same node/container pair is already granted. */
function addGrant(
  grants: AccessGrantDef[],
  node_id: string,
  container_id: string,
  wantedId: string,
): AccessGrantDef | undefined {
  if (grants.some((g) => g.node_id === node_id && g.container_id === container_id)) return undefined;
  const g = { id: uniqueGrantId(grants, wantedId), node_id, container_id };
  grants.push(g);
  return g;
}

/**
 * A `stateContainer` entry inside `nodes` (config `{name, reducer, value_type}` or `{states}`) becomes
 * a container with the node's id/label/position; data edges touching it become grants.
 */
export function migrateStateContainerNodes(
  ctx: ParseCtx,
  legacy: LegacyNode[],
  containers: ContainerDef[],
  grants: AccessGrantDef[],
  edges: IndexedEdge[],
): IndexedEdge[] {
  let remaining = edges;
  for (const { raw, path } of legacy) {
    const id = typeof raw.id === 'string' && raw.id ? raw.id : undefined;
    if (!id) {
      ctx.error('missing-field', `${path}.id`, "legacy stateContainer node has no 'id'");
      continue;
    }
    const ids = { containerId: id, nodeId: id };
    const cfg = isRawObject(raw.config) ? raw.config : {};
    const position = readPosition(ctx, raw, path, ids) ?? { x: 0, y: 0 };
    const label = typeof raw.label === 'string' ? raw.label : typeof cfg.label === 'string' ? cfg.label : '';
    let states: Record<string, StateDef> = {};
    let what = 'no slot';
    if (isRawObject(cfg.states)) {
      states = parseStates(ctx, cfg.states, `${path}.config.states`, id) ?? {};
      what = `${Object.keys(states).length} slot(s)`;
    } else if (typeof cfg.name === 'string' && cfg.name && typeof cfg.reducer === 'string') {
      const slotRaw: RawObject = { type: cfg.reducer, value_type: cfg.value_type ?? 'ANY' };
      if (cfg.initial_value !== undefined) slotRaw.config = { initial_value: cfg.initial_value };
      const s = parseState(ctx, slotRaw, `${path}.config`, { containerId: id, slot: cfg.name });
      if (s) {
        states = Object.fromEntries([[cfg.name, s]]);
        what = `slot '${cfg.name}' (${s.type}, ${s.value_type})`;
      }
    }
    const outcome = addOrMerge(ctx, containers, { id, label, position, states }, path);
    ctx.warn(
      'legacy-state-container',
      path,
      `legacy stateContainer node '${id}' ${outcome} with ${what}`,
      ids,
    );
    const kept: IndexedEdge[] = [];
    for (const ie of remaining) {
      const { edge } = ie;
      const touches = edge.source === id || edge.target === id;
      const other: string = edge.source === id ? edge.target : edge.source;
      if (!touches || other === id) {
        kept.push(ie);
        continue;
      }
      const g = addGrant(grants, other, id, edge.id);
      const msg = g
        ? `edge '${edge.id}' between '${other}' and legacy container '${id}' became access grant '${g.id}'`
        : `edge '${edge.id}' duplicated an existing grant of '${other}' to '${id}' and was dropped`;
      ctx.warn('legacy-state-edge', ie.path, msg, { edgeId: edge.id, nodeId: other, containerId: id });
    }
    remaining = kept;
  }
  return remaining;
}

/** Top-level `state_edges`: entries `{node_id, container_id}` or `{source, target}` touching a container. */
export function migrateStateEdges(
  ctx: ParseCtx,
  raw: unknown,
  path: string,
  containers: ContainerDef[],
  grants: AccessGrantDef[],
): void {
  if (!Array.isArray(raw)) {
    ctx.warn('legacy-state-edges', path, `legacy 'state_edges' is ${typeName(raw)}, not a list; dropped`);
    return;
  }
  const isContainer = (id: unknown): id is string =>
    typeof id === 'string' && containers.some((c) => c.id === id);
  raw.forEach((e, i) => {
    const p = `${path}[${i}]`;
    let pair: [string, string] | undefined;
    if (isRawObject(e)) {
      if (typeof e.node_id === 'string' && e.node_id && typeof e.container_id === 'string' && e.container_id)
        pair = [e.node_id, e.container_id];
      else if (typeof e.source === 'string' && isContainer(e.target)) pair = [e.source, e.target];
      else if (typeof e.target === 'string' && isContainer(e.source)) pair = [e.target, e.source];
    }
    if (!pair) {
      ctx.warn(
        'legacy-state-edges',
        p,
        `legacy state edge could not be migrated (no node/container pair): ${preview(e)}`,
      );
      return;
    }
    const [node_id, container_id] = pair;
    const wanted =
      isRawObject(e) && typeof e.id === 'string' && e.id ? e.id : `ag_${node_id}_${container_id}`;
    const g = addGrant(grants, node_id, container_id, wanted);
    ctx.warn(
      'legacy-state-edges',
      p,
      g
        ? `legacy state edge migrated to access grant '${g.id}' (${node_id} → ${container_id})`
        : `legacy state edge ${node_id} → ${container_id} duplicates an existing grant; dropped`,
      { nodeId: node_id, containerId: container_id },
    );
  });
}

/** Top-level `graph_state`: a container-like object or a bare `{slot: StateDef}` map → container `graph_state`. */
export function migrateGraphState(
  ctx: ParseCtx,
  raw: unknown,
  path: string,
  containers: ContainerDef[],
): void {
  const ids = { containerId: GRAPH_STATE_ID };
  if (!isRawObject(raw)) {
    ctx.warn(
      'legacy-graph-state',
      path,
      `legacy top-level 'graph_state' is ${typeName(raw)}, not an object; dropped`,
      ids,
    );
    return;
  }
  const containerLike = isRawObject(raw.states);
  const states = parseStates(
    ctx,
    containerLike ? raw.states : raw,
    containerLike ? `${path}.states` : path,
    GRAPH_STATE_ID,
  );
  if (!states) {
    ctx.warn(
      'legacy-graph-state',
      path,
      "legacy top-level 'graph_state' could not be read as slots; dropped",
      ids,
    );
    return;
  }
  const label = containerLike && typeof raw.label === 'string' ? raw.label : '';
  const position = (containerLike ? readPosition(ctx, raw, path, ids) : undefined) ?? { x: 0, y: 0 };
  const outcome = addOrMerge(ctx, containers, { id: GRAPH_STATE_ID, label, position, states }, path);
  ctx.warn(
    'legacy-graph-state',
    path,
    `legacy top-level 'graph_state' ${outcome} (${Object.keys(states).length} slot(s))`,
    ids,
  );
}

/** `state_containers` is dropped by the reference on save; we drop it too, but say what it held. */
export function dropStateContainers(ctx: ParseCtx, raw: unknown, path: string): void {
  const n = Array.isArray(raw) ? raw.length : undefined;
  const ids = Array.isArray(raw)
    ? raw
        .filter(isRawObject)
        .map((c) => c.id)
        .filter((x): x is string => typeof x === 'string')
    : [];
  const detail =
    n === 0
      ? 'empty'
      : n === undefined
        ? typeName(raw)
        : `${n} entr${n === 1 ? 'y' : 'ies'}${ids.length ? ` (${ids.map((s) => `'${s}'`).join(', ')})` : ''}; use 'containers'`;
  ctx.warn('legacy-state-containers', path, `legacy key 'state_containers' dropped (${detail})`);
}
