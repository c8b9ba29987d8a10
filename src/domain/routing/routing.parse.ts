// Reads the routing extension of one graph level: the `x-statewire` block (the saved form), and the
// same fields written inline (`features` at top level, `condition`/`effect` on an edge — what the
// in-memory model and its JSON Schema show), so either form loads. Malformed routing is an error with
// a JSON path (a dropped condition would silently change where data flows); unknown keys of the
// block itself are dropped with a warning, as elsewhere in the format.
import type { z } from 'zod';
import type { EdgeDef } from '../graph/graph.schema.ts';
import { isRawObject, typeName, type IssueIds, type ParseCtx } from '../graph/graph.parse.fields.ts';
import { jsonPath, keySeg } from '../validate/issues.ts';
import {
  ConditionSchema,
  EffectObjectSchema,
  EffectSchema,
  EXTENSION_KEY,
  FeatureDefSchema,
  SLOT_OPS,
  type Condition,
  type Effect,
  type FeatureDef,
} from './routing.schema.ts';

const BLOCK_KEYS = new Set(['features', 'edges']);
const ROUTE_KEYS = new Set(['condition', 'effect']);

const SHAPES = '{feature, in}, {feature, eq}, {all}, {any}, {not} or {slot, path, op, value}';

/** The most specific problem of a condition zod refused: which shape it meant, and what is off. */
function conditionProblem(raw: unknown, at: PropertyKey[]): { at: PropertyKey[]; message: string } {
  if (!isRawObject(raw))
    return { at, message: `a condition must be an object (${SHAPES}), got ${typeName(raw)}` };
  const keys = Object.keys(raw);
  for (const comb of ['all', 'any'] as const) {
    if (!(comb in raw)) continue;
    const list = raw[comb];
    if (keys.length !== 1) return { at, message: `'${comb}' takes no other keys (got ${keys.join(', ')})` };
    if (!Array.isArray(list) || list.length === 0)
      return { at: [...at, comb], message: `'${comb}' must be a non-empty array of conditions` };
    for (const [i, c] of list.entries())
      if (!ConditionSchema.safeParse(c).success) return conditionProblem(c, [...at, comb, i]);
  }
  if ('not' in raw) {
    if (keys.length !== 1) return { at, message: `'not' takes no other keys (got ${keys.join(', ')})` };
    return conditionProblem(raw.not, [...at, 'not']);
  }
  if ('slot' in raw) {
    if (typeof raw.slot !== 'string' || !/^[^.]+\..+$/.test(raw.slot))
      return { at: [...at, 'slot'], message: `'slot' must be "container.slot"` };
    if (typeof raw.path !== 'string' || !raw.path.startsWith('$'))
      return { at: [...at, 'path'], message: `'path' must be a JSON path starting with $` };
    if (!SLOT_OPS.includes(raw.op as never))
      return { at: [...at, 'op'], message: `'op' must be one of ${SLOT_OPS.join(' ')}` };
    return { at, message: `a slot comparison has exactly the keys slot, path, op, value` };
  }
  if ('feature' in raw) {
    if (typeof raw.feature !== 'string' || !raw.feature)
      return { at: [...at, 'feature'], message: `'feature' must be a feature name` };
    if ('in' in raw && (!Array.isArray(raw.in) || raw.in.length === 0))
      return { at: [...at, 'in'], message: `'in' must be a non-empty array of feature values` };
    return {
      at,
      message: `a feature condition is {feature, in: [values]} or {feature, eq: value}; values are strings, numbers or booleans`,
    };
  }
  return { at, message: `unknown condition shape (keys: ${keys.join(', ') || 'none'}); expected ${SHAPES}` };
}

function zodProblem(err: z.ZodError): { at: PropertyKey[]; message: string } {
  const first = err.issues[0];
  return { at: first?.path ?? [], message: first?.message ?? 'invalid' };
}

export function readCondition(
  ctx: ParseCtx,
  raw: unknown,
  path: string,
  ids: IssueIds = {},
): Condition | undefined {
  const r = ConditionSchema.safeParse(raw);
  if (r.success) return r.data;
  const p = conditionProblem(raw, []);
  ctx.error('invalid-condition', jsonPath(p.at, path), `invalid condition: ${p.message}`, ids);
  return undefined;
}

export function readEffect(
  ctx: ParseCtx,
  raw: unknown,
  path: string,
  ids: IssueIds = {},
): Effect | undefined {
  const r = EffectSchema.safeParse(raw);
  if (r.success) return r.data;
  const p =
    typeof raw === 'string' || !isRawObject(raw)
      ? {
          at: [] as PropertyKey[],
          message: `an effect is "unconstrained" or {assign?, allow?}, got ${typeName(raw)}`,
        }
      : zodProblem(EffectObjectSchema.safeParse(raw).error ?? r.error);
  ctx.error(
    'invalid-effect',
    jsonPath(p.at, path),
    `invalid effect: ${p.message} (assign: {feature: value}; allow: {feature: [[from, to], …]})`,
    ids,
  );
  return undefined;
}

export function readFeatures(ctx: ParseCtx, raw: unknown, path: string): FeatureDef[] | undefined {
  if (!Array.isArray(raw)) {
    ctx.error('wrong-type', path, `'features' must be an array, got ${typeName(raw)}`);
    return undefined;
  }
  const out: FeatureDef[] = [];
  let ok = true;
  raw.forEach((f, i) => {
    const r = FeatureDefSchema.safeParse(f);
    if (r.success) out.push(r.data);
    else {
      ok = false;
      const p = zodProblem(r.error);
      const hint =
        p.at[0] === 'domain' ? ' (a domain is {"enum": [...]}, "bool" or {"int": [min, max]})' : '';
      ctx.error('invalid-feature', jsonPath(p.at, `${path}[${i}]`), `invalid feature: ${p.message}${hint}`);
    }
  });
  return ok ? out : undefined;
}

export interface EdgeRouteFields {
  condition?: Condition;
  effect?: Effect;
}

/** Reads `condition`/`effect` from an object (an edge written inline, or a block entry). */
export function readRouteFields(
  ctx: ParseCtx,
  o: Record<string, unknown>,
  path: string,
  ids: IssueIds,
): EdgeRouteFields | undefined {
  const out: EdgeRouteFields = {};
  let ok = true;
  if (o.condition !== undefined && o.condition !== null) {
    const c = readCondition(ctx, o.condition, `${path}.condition`, ids);
    if (c) out.condition = c;
    else ok = false;
  }
  if (o.effect !== undefined && o.effect !== null) {
    const e = readEffect(ctx, o.effect, `${path}.effect`, ids);
    if (e !== undefined) out.effect = e;
    else ok = false;
  }
  return ok ? out : undefined;
}

export interface RoutingBlock {
  features?: FeatureDef[];
  routes: Map<string, EdgeRouteFields>;
}

/** Reads the `x-statewire` block of a graph level; undefined after an error. */
export function readExtensionBlock(ctx: ParseCtx, raw: unknown, graphPath: string): RoutingBlock | undefined {
  const path = graphPath + keySeg(EXTENSION_KEY);
  const out: RoutingBlock = { routes: new Map() };
  if (raw === null || raw === undefined) return out;
  if (!isRawObject(raw)) {
    ctx.error('wrong-type', path, `'${EXTENSION_KEY}' must be an object, got ${typeName(raw)}`);
    return undefined;
  }
  for (const k of Object.keys(raw))
    if (!BLOCK_KEYS.has(k))
      ctx.warn('extra-key', path + keySeg(k), `unknown key '${k}' of the ${EXTENSION_KEY} block dropped`);
  let ok = true;
  if (raw.features !== undefined && raw.features !== null) {
    const f = readFeatures(ctx, raw.features, `${path}.features`);
    if (f) out.features = f;
    else ok = false;
  }
  if (raw.edges !== undefined && raw.edges !== null) {
    const edges = raw.edges;
    if (!isRawObject(edges)) {
      ctx.error(
        'wrong-type',
        `${path}.edges`,
        `'edges' must be an object keyed by edge id, got ${typeName(edges)}`,
      );
      return undefined;
    }
    for (const id of Object.keys(edges)) {
      const p = `${path}.edges${keySeg(id)}`;
      const entry = edges[id];
      if (!isRawObject(entry)) {
        ctx.error('wrong-type', p, `the route of edge '${id}' must be an object, got ${typeName(entry)}`, {
          edgeId: id,
        });
        ok = false;
        continue;
      }
      for (const k of Object.keys(entry))
        if (!ROUTE_KEYS.has(k))
          ctx.warn('extra-key', p + keySeg(k), `unknown route key '${k}' dropped`, { edgeId: id });
      const fields = readRouteFields(ctx, entry, p, { edgeId: id });
      if (fields) out.routes.set(id, fields);
      else ok = false;
    }
  }
  return ok ? out : undefined;
}

/**
 * Puts the block's routes onto the edges (a block entry wins over inline fields of the same edge);
 * an entry naming no edge of this level is dropped with a `dangling-route` warning.
 */
export function applyRoutes(
  ctx: ParseCtx,
  block: RoutingBlock,
  edges: EdgeDef[],
  graphPath: string,
): EdgeDef[] {
  const ids = new Set(edges.map((e) => e.id));
  for (const id of block.routes.keys())
    if (!ids.has(id))
      ctx.warn(
        'dangling-route',
        `${graphPath}${keySeg(EXTENSION_KEY)}.edges${keySeg(id)}`,
        `the ${EXTENSION_KEY} block routes edge '${id}', which is not an edge of this graph; dropped`,
        { edgeId: id },
      );
  if (block.routes.size === 0) return edges;
  return edges.map((e) => {
    const r = block.routes.get(e.id);
    if (!r) return e;
    const next: EdgeDef = { ...e };
    if (r.condition !== undefined) next.condition = r.condition;
    if (r.effect !== undefined) next.effect = r.effect;
    return next;
  });
}
