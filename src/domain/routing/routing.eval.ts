// The semantics of conditions and effects (docs/routing.md "Semantics"), pure and shared by the engine (routing.ts) and
// the static checker (routing.check.ts):
// - a condition is evaluated against the feature state *before* the source node's visit; reading a
//   feature that is still unset is an error (RoutingEvalError); `all`/`any`
//   short-circuit left to right;
// - an effect is checked against that state and the node's proposals and yields the successor state.
// Feature state: every declared feature by name, `null` while unset.
import { meets } from '../debug/breakpoints.ts';
import { walkPath, type PathSegment } from '../graphtest/slotPath.ts';
import type { Condition, Effect, FeatureValue, SlotCondition, SlotOp } from './routing.schema.ts';

/** Every declared feature by name; `null` = unset (the start value). */
export type FeatureState = Readonly<Record<string, FeatureValue | null>>;

export class RoutingEvalError extends Error {
  override name = 'RoutingEvalError';
  constructor(
    readonly code: 'unset-feature' | 'unknown-feature' | 'slot-unreadable',
    message: string,
    readonly feature?: string,
  ) {
    super(message);
  }
}

/** What a condition may read: features, and granted slot values (full value, unkeyed). */
export interface ConditionEnv {
  features: FeatureState;
  /** The slot's value, or a RoutingEvalError when the slot cannot be read (ungranted, undeclared). */
  slot(ref: string): unknown;
}

/** Parses a JSON path `$`, `$.a.b`, `$[0]`, `$["odd key"]` into segments; a string is the problem. */
export function parseJsonPath(path: string): PathSegment[] | string {
  if (!path.startsWith('$')) return `path ${JSON.stringify(path)} must start with $`;
  const out: PathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    if (path[i] === '.') {
      const m = /^[^.[\]]+/.exec(path.slice(i + 1));
      if (!m) return `path ${JSON.stringify(path)}: missing name after "." at character ${i + 1}`;
      out.push(m[0]);
      i += 1 + m[0].length;
    } else if (path[i] === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) return `path ${JSON.stringify(path)}: missing ] after character ${i + 1}`;
      const inner = path.slice(i + 1, close);
      if (/^\d+$/.test(inner)) out.push(Number(inner));
      else {
        let key: unknown;
        try {
          key = JSON.parse(inner);
        } catch {
          key = undefined;
        }
        if (typeof key !== 'string')
          return `path ${JSON.stringify(path)}: [${inner}] is neither an index nor a quoted key`;
        out.push(key);
      }
      i = close + 1;
    } else return `path ${JSON.stringify(path)}: unexpected ${JSON.stringify(path[i])} at character ${i + 1}`;
  }
  return out;
}

/** `container.slot` → its parts (the first dot separates them). */
export function splitSlotRef(ref: string): { container: string; slot: string } {
  const dot = ref.indexOf('.');
  return { container: ref.slice(0, dot), slot: ref.slice(dot + 1) };
}

/** The value at the condition's path, or undefined when the path does not resolve. */
export function readSlotPath(value: unknown, path: string): unknown {
  const segs = parseJsonPath(path);
  if (typeof segs === 'string') throw new RoutingEvalError('slot-unreadable', segs);
  const r = walkPath(value, segs, '$');
  return r.found ? r.value : undefined;
}

/**
 * A slot comparison. A path that does not resolve reads as null. `< <= > >=` compare two numbers or
 * two strings (anything else does not hold); `contains`: a substring of a string, a deep-equal
 * element of a list, or a key of an object.
 */
export function compareSlot(op: SlotOp, actual: unknown, expected: unknown): boolean {
  // The same comparison as data breakpoints (`meets`), so a condition and a breakpoint agree.
  return meets(actual === undefined ? null : actual, op, expected);
}

function readFeature(env: ConditionEnv, name: string): FeatureValue {
  if (!Object.hasOwn(env.features, name))
    throw new RoutingEvalError('unknown-feature', `condition reads undeclared feature '${name}'`, name);
  const v = env.features[name];
  if (v === null || v === undefined)
    throw new RoutingEvalError(
      'unset-feature',
      `condition reads feature '${name}', which is still unset (assign it first through an edge effect)`,
      name,
    );
  return v;
}

function evalSlot(c: SlotCondition, env: ConditionEnv): boolean {
  return compareSlot(c.op, readSlotPath(env.slot(c.slot), c.path), c.value);
}

/** Evaluates a condition; throws RoutingEvalError on an unset or undeclared feature. */
export function evalCondition(c: Condition, env: ConditionEnv): boolean {
  if ('all' in c) return c.all.every((x) => evalCondition(x, env));
  if ('any' in c) return c.any.some((x) => evalCondition(x, env));
  if ('not' in c) return !evalCondition(c.not, env);
  if ('slot' in c) return evalSlot(c, env);
  const v = readFeature(env, c.feature);
  return 'in' in c ? c.in.some((x) => x === v) : v === c.eq;
}

export type Truth = boolean | 'unknown';

/**
 * Three-valued evaluation for the static checker: features from `values` (all set), every slot
 * comparison `unknown` (Kleene logic: false wins in `all`, true wins in `any`).
 */
export function evalCondition3(c: Condition, values: Readonly<Record<string, FeatureValue>>): Truth {
  if ('all' in c) {
    let out: Truth = true;
    for (const x of c.all) {
      const t = evalCondition3(x, values);
      if (t === false) return false;
      if (t === 'unknown') out = 'unknown';
    }
    return out;
  }
  if ('any' in c) {
    let out: Truth = false;
    for (const x of c.any) {
      const t = evalCondition3(x, values);
      if (t === true) return true;
      if (t === 'unknown') out = 'unknown';
    }
    return out;
  }
  if ('not' in c) {
    const t = evalCondition3(c.not, values);
    return t === 'unknown' ? t : !t;
  }
  if ('slot' in c) return 'unknown';
  const v = values[c.feature];
  return 'in' in c ? c.in.some((x) => x === v) : v === c.eq;
}

/** Features a condition reads, in first-use order. */
export function conditionFeatures(c: Condition, out: string[] = []): string[] {
  if ('all' in c) c.all.forEach((x) => conditionFeatures(x, out));
  else if ('any' in c) c.any.forEach((x) => conditionFeatures(x, out));
  else if ('not' in c) conditionFeatures(c.not, out);
  else if ('feature' in c && !out.includes(c.feature)) out.push(c.feature);
  return out;
}

export function hasSlotComparison(c: Condition): boolean {
  if ('all' in c) return c.all.some(hasSlotComparison);
  if ('any' in c) return c.any.some(hasSlotComparison);
  if ('not' in c) return hasSlotComparison(c.not);
  return 'slot' in c;
}

/** Features an effect can set from unset: those it assigns, or every feature when unconstrained. */
export function effectInitialises(e: Effect | undefined, feature: string): boolean {
  if (e === undefined) return false;
  if (e === 'unconstrained') return true;
  return e.assign !== undefined && Object.hasOwn(e.assign, feature);
}

/** Features an effect names (assign and allow). */
export function effectFeatures(e: Effect | undefined): string[] {
  if (e === undefined || e === 'unconstrained') return [];
  return [...new Set([...Object.keys(e.assign ?? {}), ...Object.keys(e.allow ?? {})])];
}

export type EffectCheck = { ok: true; after: FeatureState } | { ok: false; reason: string };

const show = (v: FeatureValue | null | undefined): string =>
  v === null || v === undefined ? 'unset' : typeof v === 'string' ? v : JSON.stringify(v);

/**
 * Whether taking an edge with effect `e` is compatible with the node's proposals, and the successor
 * state if so. No effect = nothing may change. See routing.schema.ts EffectObjectSchema.
 */
export function checkEffect(
  e: Effect | undefined,
  before: FeatureState,
  proposals: Readonly<Record<string, FeatureValue>>,
): EffectCheck {
  const after: Record<string, FeatureValue | null> = { ...before, ...proposals };
  if (e === 'unconstrained') return { ok: true, after };
  const assign = e?.assign ?? {};
  const allow = e?.allow ?? {};
  for (const [f, v] of Object.entries(assign)) {
    if (Object.hasOwn(proposals, f) && proposals[f] !== v)
      return {
        ok: false,
        reason: `proposes ${f}=${show(proposals[f])} but the edge assigns ${f}=${show(v)}`,
      };
    after[f] = v;
  }
  for (const [f, v] of Object.entries(proposals)) {
    if (Object.hasOwn(assign, f)) continue;
    const from = before[f] ?? null;
    if (from === v) continue;
    const pairs = Object.hasOwn(allow, f) ? allow[f]! : undefined;
    if (!pairs)
      return {
        ok: false,
        reason: `proposes ${f}: ${show(from)} → ${show(v)}, which the edge's effect does not allow`,
      };
    if (from === null)
      return {
        ok: false,
        reason: `proposes ${f}=${show(v)} while ${f} is unset: a first value needs an assign or unconstrained effect`,
      };
    if (!pairs.some(([a, b]) => a === from && b === v))
      return {
        ok: false,
        reason: `proposes ${f}: ${show(from)} → ${show(v)}, not among the allowed transitions`,
      };
  }
  return { ok: true, after };
}

export { show as showFeatureValue };
