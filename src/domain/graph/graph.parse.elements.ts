// Tolerant readers for the leaf elements of a graph file: edges, containers with their states,
// access grants and hooks. Defaults are the reference backend's (docs/reference-system.md §1.3–1.7).
import type { AccessGrantDef, ContainerDef, EdgeDef, HookDef, StateDef } from './graph.schema.ts';
import {
  type ParseCtx,
  isRawObject,
  optArray,
  optBoolean,
  optNumber,
  optObject,
  optString,
  readPosition,
  reqString,
  typeName,
  warnExtraKeys,
  type IssueIds,
  type RawObject,
} from './graph.parse.fields.ts';
import { keySeg } from '../validate/issues.ts';
import { readRouteFields } from '../routing/routing.parse.ts';

// condition/effect: Statewire routing written inline (saved in the x-statewire block).
const EDGE_KEYS = new Set(['id', 'source', 'target', 'sourceHandle', 'targetHandle', 'condition', 'effect']);
const CONTAINER_KEYS = new Set(['id', 'label', 'position', 'states']);
const STATE_KEYS = new Set(['type', 'value_type', 'config', 'lifetime', 'reset_on']);
const GRANT_KEYS = new Set(['id', 'node_id', 'container_id']);
const HOOK_KEYS = new Set(['event', 'command', 'match_node_type', 'match_node_id', 'timeout_ms', 'enabled']);

function requireObject(ctx: ParseCtx, v: unknown, path: string, what: string): v is RawObject {
  if (isRawObject(v)) return true;
  ctx.error('wrong-type', path, `${what} must be an object, got ${typeName(v)}`);
  return false;
}

const idOf = (o: RawObject): string | undefined => (typeof o.id === 'string' && o.id ? o.id : undefined);

/** A handle: missing or null → "" (the backend writes "" when absent). */
function handle(ctx: ParseCtx, o: RawObject, key: string, path: string, ids: IssueIds): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  ctx.error('wrong-type', path + keySeg(key), `'${key}' must be a string, got ${typeName(v)}`, ids);
  return undefined;
}

export function parseEdge(ctx: ParseCtx, raw: unknown, path: string): EdgeDef | undefined {
  if (!requireObject(ctx, raw, path, 'an edge')) return undefined;
  const edgeId = idOf(raw);
  const ids: IssueIds = edgeId ? { edgeId } : {};
  warnExtraKeys(ctx, raw, EDGE_KEYS, path, 'edge', ids);
  const id = reqString(ctx, raw, 'id', path, ids);
  const source = reqString(ctx, raw, 'source', path, ids);
  const target = reqString(ctx, raw, 'target', path, ids);
  const sourceHandle = handle(ctx, raw, 'sourceHandle', path, ids);
  const targetHandle = handle(ctx, raw, 'targetHandle', path, ids);
  const route = readRouteFields(ctx, raw, path, ids);
  if (
    id === undefined ||
    source === undefined ||
    target === undefined ||
    sourceHandle === undefined ||
    targetHandle === undefined ||
    route === undefined
  )
    return undefined;
  return { id, source, target, sourceHandle, targetHandle, ...route };
}

export function parseState(ctx: ParseCtx, raw: unknown, path: string, ids: IssueIds): StateDef | undefined {
  if (!requireObject(ctx, raw, path, `state '${ids.slot ?? ''}'`)) return undefined;
  warnExtraKeys(ctx, raw, STATE_KEYS, path, 'state', ids);
  const type = optString(ctx, raw, 'type', path, 'lastWrite', ids);
  const value_type = optString(ctx, raw, 'value_type', path, 'ANY', ids);
  const config = optObject(ctx, raw, 'config', path, ids);
  const lifetime = optString(ctx, raw, 'lifetime', path, 'forever', ids);
  const resetRaw = optArray(ctx, raw, 'reset_on', path, ids);
  let reset_on: string[] | undefined;
  if (resetRaw) {
    reset_on = [];
    resetRaw.forEach((s, i) => {
      if (typeof s === 'string') reset_on!.push(s);
      else
        ctx.error(
          'wrong-type',
          `${path}.reset_on[${i}]`,
          `signal names must be strings, got ${typeName(s)}`,
          ids,
        );
    });
    if (reset_on.length !== resetRaw.length) reset_on = undefined;
  }
  if (
    type === undefined ||
    value_type === undefined ||
    config === undefined ||
    lifetime === undefined ||
    reset_on === undefined
  )
    return undefined;
  return { type, value_type, config, lifetime, reset_on };
}

/** A `states` map: missing/null → {}; built with fromEntries so a `__proto__` slot name stays a key. */
export function parseStates(
  ctx: ParseCtx,
  raw: unknown,
  path: string,
  containerId: string | undefined,
): Record<string, StateDef> | undefined {
  if (raw === undefined) return {};
  if (raw === null) {
    ctx.warn('null-field', path, `'states' is null; using {}`, containerId ? { containerId } : {});
    return {};
  }
  if (!requireObject(ctx, raw, path, "'states'")) return undefined;
  const entries: [string, StateDef][] = [];
  let ok = true;
  for (const name of Object.keys(raw)) {
    const ids: IssueIds = { slot: name, ...(containerId ? { containerId } : {}) };
    const s = parseState(ctx, raw[name], path + keySeg(name), ids);
    if (s) entries.push([name, s]);
    else ok = false;
  }
  return ok ? Object.fromEntries(entries) : undefined;
}

export function parseContainer(ctx: ParseCtx, raw: unknown, path: string): ContainerDef | undefined {
  if (!requireObject(ctx, raw, path, 'a container')) return undefined;
  const containerId = idOf(raw);
  const ids: IssueIds = containerId ? { containerId } : {};
  warnExtraKeys(ctx, raw, CONTAINER_KEYS, path, 'container', ids);
  const id = reqString(ctx, raw, 'id', path, ids);
  const label = optString(ctx, raw, 'label', path, '', ids);
  const position = readPosition(ctx, raw, path, ids);
  const states = parseStates(ctx, raw.states, `${path}.states`, containerId);
  if (id === undefined || label === undefined || position === undefined || states === undefined)
    return undefined;
  return { id, label, position, states };
}

export function parseGrant(ctx: ParseCtx, raw: unknown, path: string): AccessGrantDef | undefined {
  if (!requireObject(ctx, raw, path, 'an access grant')) return undefined;
  const grantId = idOf(raw);
  const ids: IssueIds = grantId ? { grantId } : {};
  warnExtraKeys(ctx, raw, GRANT_KEYS, path, 'access grant', ids);
  const id = reqString(ctx, raw, 'id', path, ids);
  const node_id = reqString(ctx, raw, 'node_id', path, ids);
  const container_id = reqString(ctx, raw, 'container_id', path, ids);
  if (id === undefined || node_id === undefined || container_id === undefined) return undefined;
  return { id, node_id, container_id };
}

export function parseHook(ctx: ParseCtx, raw: unknown, path: string): HookDef | undefined {
  if (!requireObject(ctx, raw, path, 'a hook')) return undefined;
  warnExtraKeys(ctx, raw, HOOK_KEYS, path, 'hook');
  const event = reqString(ctx, raw, 'event', path);
  // A command may legitimately be "" (a disabled placeholder), so it is only type-checked.
  const command =
    raw.command === undefined
      ? reqString(ctx, raw, 'command', path)
      : optString(ctx, raw, 'command', path, '');
  const match_node_type = optString(ctx, raw, 'match_node_type', path, '*');
  const matchId = raw.match_node_id === null ? undefined : optString(ctx, raw, 'match_node_id', path, '');
  const timeout_ms = optNumber(ctx, raw, 'timeout_ms', path, 1000);
  const enabled = optBoolean(ctx, raw, 'enabled', path, true);
  if (
    event === undefined ||
    command === undefined ||
    match_node_type === undefined ||
    timeout_ms === undefined ||
    enabled === undefined
  )
    return undefined;
  if (raw.match_node_id !== undefined && raw.match_node_id !== null && matchId === undefined)
    return undefined;
  const hook: HookDef = { event, command, match_node_type, timeout_ms, enabled };
  if (typeof raw.match_node_id === 'string' && raw.match_node_id) hook.match_node_id = raw.match_node_id;
  return hook;
}
