// Field-level readers for the tolerant parser: each reads one key of a raw JSON object, applies the
// reference backend's default, and records an issue (with the JSON path) when it has to tolerate or
// reject something. Nothing here throws; a rejected field yields `undefined` plus an error issue.
import type { Position } from './graph.schema.ts';
import { keySeg, type Issue } from '../validate/issues.ts';

export type RawObject = Record<string, unknown>;
export type IssueIds = Pick<Issue, 'nodeId' | 'containerId' | 'edgeId' | 'grantId' | 'slot'>;

/** Deepest subgraph nesting / JSON nesting we accept; deeper input is an error, never a stack overflow. */
export const MAX_DEPTH = 64;
const MAX_JSON_DEPTH = 400;

export class ParseCtx {
  readonly issues: Issue[] = [];
  error(code: string, path: string, message: string, ids: IssueIds = {}): void {
    this.issues.push({ code, severity: 'error', path, message, ...ids });
  }
  warn(code: string, path: string, message: string, ids: IssueIds = {}): void {
    this.issues.push({ code, severity: 'warning', path, message, ...ids });
  }
  info(code: string, path: string, message: string, ids: IssueIds = {}): void {
    this.issues.push({ code, severity: 'info', path, message, ...ids });
  }
}

export function isRawObject(v: unknown): v is RawObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return isRawObject(v) ? 'an object' : 'a non-JSON object';
  return `a ${typeof v}`;
}

/** A short, never-throwing rendering of a raw value for messages (BigInt, cycles → its type name). */
export function preview(v: unknown, max = 80): string {
  let out: string | undefined;
  try {
    out = JSON.stringify(v);
  } catch {
    out = undefined;
  }
  if (out === undefined) return typeName(v);
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

export const has = (o: RawObject, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Warns about keys outside `known` (they are dropped, as the reference backend drops them). */
export function warnExtraKeys(
  ctx: ParseCtx,
  o: RawObject,
  known: ReadonlySet<string>,
  path: string,
  what: string,
  ids: IssueIds = {},
): void {
  for (const k of Object.keys(o)) {
    if (!known.has(k))
      ctx.warn(
        'extra-key',
        path + keySeg(k),
        `unknown ${what} key '${k}' dropped (the reference backend drops it on save)`,
        ids,
      );
  }
}

/** A required non-empty string (the reference raises KeyError when it is missing). */
export function reqString(
  ctx: ParseCtx,
  o: RawObject,
  key: string,
  path: string,
  ids: IssueIds = {},
): string | undefined {
  const v = o[key];
  const p = path + keySeg(key);
  if (!has(o, key) || v === undefined)
    ctx.error('missing-field', p, `required field '${key}' is missing`, ids);
  else if (typeof v !== 'string')
    ctx.error('wrong-type', p, `'${key}' must be a string, got ${typeName(v)}`, ids);
  else if (v === '') ctx.error('missing-field', p, `'${key}' must not be empty`, ids);
  else return v;
  return undefined;
}

/** An optional string with a default; null is read as the default (with a warning). */
export function optString(
  ctx: ParseCtx,
  o: RawObject,
  key: string,
  path: string,
  def: string,
  ids: IssueIds = {},
): string | undefined {
  const v = o[key];
  if (v === undefined) return def;
  if (typeof v === 'string') return v;
  const p = path + keySeg(key);
  if (v === null) {
    ctx.warn('null-field', p, `'${key}' is null; using the default ${JSON.stringify(def)}`, ids);
    return def;
  }
  ctx.error('wrong-type', p, `'${key}' must be a string, got ${typeName(v)}`, ids);
  return undefined;
}

export function optBoolean(
  ctx: ParseCtx,
  o: RawObject,
  key: string,
  path: string,
  def: boolean,
  ids: IssueIds = {},
): boolean | undefined {
  const v = o[key];
  if (v === undefined) return def;
  if (typeof v === 'boolean') return v;
  const p = path + keySeg(key);
  if (v === null) {
    ctx.warn('null-field', p, `'${key}' is null; using the default ${String(def)}`, ids);
    return def;
  }
  ctx.error('wrong-type', p, `'${key}' must be true or false, got ${typeName(v)}`, ids);
  return undefined;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** Why `v` is not a finite number: `1e999` parses to Infinity, which is a number but not a finite one. */
const notFinite = (label: string, v: unknown): string =>
  typeof v === 'number'
    ? `'${label}' must be a finite number, got ${String(v)}`
    : `'${label}' must be a number, got ${typeName(v)}`;
/** -0 survives JSON.parse but not JSON.stringify; normalise so parse(format(g)) deep-equals g. */
const num = (v: number): number => (Object.is(v, -0) ? 0 : v);

export function optNumber(
  ctx: ParseCtx,
  o: RawObject,
  key: string,
  path: string,
  def: number,
  ids: IssueIds = {},
): number | undefined {
  const v = o[key];
  if (v === undefined) return def;
  if (finite(v)) return num(v);
  ctx.error('wrong-type', path + keySeg(key), notFinite(key, v), ids);
  return undefined;
}

/** `{x, y}`; missing → {0,0} like the reference; null → {0,0} with a warning. */
export function readPosition(
  ctx: ParseCtx,
  o: RawObject,
  path: string,
  ids: IssueIds = {},
): Position | undefined {
  const v = o.position;
  const p = `${path}.position`;
  if (v === undefined) return { x: 0, y: 0 };
  if (v === null) {
    ctx.warn('null-field', p, `'position' is null; using {x: 0, y: 0}`, ids);
    return { x: 0, y: 0 };
  }
  if (!isRawObject(v)) {
    ctx.error('wrong-type', p, `'position' must be an object {x, y}, got ${typeName(v)}`, ids);
    return undefined;
  }
  warnExtraKeys(ctx, v, POSITION_KEYS, p, 'position', ids);
  let ok = true;
  for (const k of ['x', 'y'] as const) {
    if (!finite(v[k])) {
      ctx.error(
        has(v, k) ? 'wrong-type' : 'missing-field',
        `${p}.${k}`,
        notFinite(`position.${k}`, v[k]),
        ids,
      );
      ok = false;
    }
  }
  return ok ? { x: num(v.x as number), y: num(v.y as number) } : undefined;
}
const POSITION_KEYS = new Set(['x', 'y']);

/**
 * Deep-copies a JSON value (configs, initial values) so the parsed graph shares nothing with the
 * caller's object. Non-JSON values (functions, undefined in arrays, NaN, cycles…) are errors.
 */
export function cloneJson(
  ctx: ParseCtx,
  v: unknown,
  path: string,
  ids: IssueIds = {},
): { ok: boolean; value: unknown } {
  let ok = true;
  const seen = new Set<object>();
  const walk = (x: unknown, p: string, depth: number): unknown => {
    if (x === null || typeof x === 'string' || typeof x === 'boolean') return x;
    if (typeof x === 'number') {
      if (Number.isFinite(x)) return num(x);
      ok = false;
      ctx.error('not-json', p, `${String(x)} is not a JSON number`, ids);
      return null;
    }
    if (depth > MAX_JSON_DEPTH) {
      ok = false;
      ctx.error('too-deep', p, `value nested deeper than ${MAX_JSON_DEPTH} levels`, ids);
      return null;
    }
    if (Array.isArray(x) || isRawObject(x)) {
      if (seen.has(x)) {
        ok = false;
        ctx.error('not-json', p, 'value contains a cycle', ids);
        return null;
      }
      seen.add(x);
      let out: unknown;
      if (Array.isArray(x)) {
        // Array.from visits holes too, so a sparse array reports its `undefined` slots.
        out = Array.from(x, (item, i) => walk(item, `${p}[${i}]`, depth + 1));
      } else {
        const entries: [string, unknown][] = [];
        for (const k of Object.keys(x)) {
          if (x[k] === undefined) continue; // JSON.stringify drops it too; not worth an issue
          entries.push([k, walk(x[k], p + keySeg(k), depth + 1)]);
        }
        // fromEntries defines own properties, so a `__proto__` key stays data, not a prototype.
        out = Object.fromEntries(entries);
      }
      seen.delete(x);
      return out;
    }
    ok = false;
    ctx.error('not-json', p, `${typeName(x)} is not a JSON value`, ids);
    return null;
  };
  const value = walk(v, path, 0);
  return { ok, value };
}

/** An optional JSON object field (config): missing → {}, null → {} with a warning. */
export function optObject(
  ctx: ParseCtx,
  o: RawObject,
  key: string,
  path: string,
  ids: IssueIds = {},
): RawObject | undefined {
  const v = o[key];
  const p = path + keySeg(key);
  if (v === undefined) return {};
  if (v === null) {
    ctx.warn('null-field', p, `'${key}' is null; using {}`, ids);
    return {};
  }
  if (!isRawObject(v)) {
    ctx.error('wrong-type', p, `'${key}' must be an object, got ${typeName(v)}`, ids);
    return undefined;
  }
  const c = cloneJson(ctx, v, p, ids);
  return c.ok ? (c.value as RawObject) : undefined;
}

/** An optional array field: missing → [], null → [] with a warning, anything else an error. */
export function optArray(
  ctx: ParseCtx,
  o: RawObject,
  key: string,
  path: string,
  ids: IssueIds = {},
): unknown[] | undefined {
  const v = o[key];
  if (v === undefined) return [];
  const p = path + keySeg(key);
  if (v === null) {
    ctx.warn('null-field', p, `'${key}' is null; using []`, ids);
    return [];
  }
  if (!Array.isArray(v)) {
    ctx.error('wrong-type', p, `'${key}' must be an array, got ${typeName(v)}`, ids);
    return undefined;
  }
  return v;
}
