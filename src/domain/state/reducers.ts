// Reducers: pure `(current, update, config) -> next` folds for container slots (docs/reference-system.md §1.5;
// extension reducers: docs/value-encodings.md "Reducers"). Shared by the engine (writes) and the app (explaining/previewing writes). A reducer never
// mutates `current` or `update`; it returns a new value, so the engine can share unchanged values
// between checkpoints by reference. The Python SDK folds service-owned slots the same way; the shared
// vectors (vectors/reducers.json, docs/value-encodings.md) hold both sides to it.
import type { StateConfig } from '../graph/graph.schema.ts';

export interface Reducer {
  /** Initial value when `config.initial_value` is absent. */
  initial(config: StateConfig): unknown;
  reduce(current: unknown, update: unknown, config: StateConfig): unknown;
}

export class ReducerError extends Error {
  override name = 'ReducerError';
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.hasOwn(b as object, k) &&
      deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `list` with `item` at the end, in a new array of exactly that length. A spread (`[...list, item]`)
 * is built by growing, so it keeps spare capacity (an array of 13 entries held room for about 30),
 * and every version of a list the history keeps would carry that slack for good.
 */
function appended(list: readonly unknown[], item: unknown): unknown[] {
  // concat with a one-entry array adds `item` itself, even when `item` is an array.
  return list.concat([item]);
}

const accumulator: Reducer = {
  initial: () => [],
  reduce(current, update, config) {
    const list = Array.isArray(current)
      ? current
      : current === null || current === undefined
        ? []
        : [current];
    const max = config.max_size;
    const drop = typeof max === 'number' && max > 0 ? Math.max(0, list.length + 1 - max) : 0;
    return appended(drop > 0 ? list.slice(drop) : list, update);
  },
};

const lastWrite: Reducer = { initial: () => null, reduce: (_c, update) => update };

const counter: Reducer = {
  initial: () => 0,
  reduce(current, update) {
    const c = typeof current === 'number' ? current : Number(current ?? 0);
    const u = typeof update === 'number' ? update : Number(update);
    if (Number.isNaN(u)) throw new ReducerError(`counter expects a number, got ${JSON.stringify(update)}`);
    return (Number.isNaN(c) ? 0 : c) + u;
  },
};

const merge: Reducer = {
  initial: () => ({}),
  reduce(current, update) {
    if (!isRecord(update))
      throw new ReducerError(`merge expects an object update, got ${JSON.stringify(update)}`);
    return { ...(isRecord(current) ? current : {}), ...update };
  },
};

const union: Reducer = {
  initial: () => [],
  reduce(current, update) {
    const list = Array.isArray(current) ? current : [];
    const items = Array.isArray(update) ? update : [update];
    let next: unknown[] | null = null;
    for (const item of items) {
      const pool: readonly unknown[] = next ?? list;
      if (pool.some((x) => deepEqual(x, item))) continue;
      next = appended(pool, item);
    }
    return next ?? list;
  },
};

/** The field policy of a byKey slot: `{field: reducerName}`; unknown field reducers act as lastWrite. */
export function byKeyFields(config: StateConfig): Record<string, string> {
  return isRecord(config.fields) ? (config.fields as Record<string, string>) : {};
}

const byKey: Reducer = {
  initial(config) {
    const out: Record<string, unknown> = {};
    for (const [field, r] of Object.entries(byKeyFields(config))) out[field] = fieldReducer(r).initial({});
    return out;
  },
  reduce(current, update, config) {
    const fields = byKeyFields(config);
    if (!isRecord(update))
      throw new ReducerError(`byKey expects an object update {field: value}, got ${JSON.stringify(update)}`);
    const declared = Object.keys(fields);
    const base = isRecord(current) ? current : (byKey.initial(config) as Record<string, unknown>);
    const next: Record<string, unknown> = { ...base };
    for (const [field, value] of Object.entries(update)) {
      const r = fields[field];
      if (r === undefined) {
        throw new ReducerError(
          `byKey: write to undeclared field '${field}' (declared fields: ${declared.join(', ') || 'none'})`,
        );
      }
      const red = fieldReducer(r);
      const cur = Object.hasOwn(base, field) ? base[field] : red.initial({});
      next[field] = red.reduce(cur, value, {});
    }
    return next;
  },
};

export const REDUCER_REGISTRY: Readonly<Record<string, Reducer>> = {
  accumulator,
  lastWrite,
  counter,
  merge,
  union,
  byKey,
};

/**
 * Unknown reducer names fall back to lastWrite (the reference's behaviour, with a warning at build).
 * An own-property lookup: a name like `toString` or `constructor` is unknown, not Object's method.
 */
export function getReducer(name: string): Reducer {
  return Object.hasOwn(REDUCER_REGISTRY, name) ? REDUCER_REGISTRY[name]! : lastWrite;
}

export function isKnownReducer(name: string): boolean {
  return Object.hasOwn(REDUCER_REGISTRY, name);
}

function fieldReducer(name: string): Reducer {
  // byKey does not nest; a nested byKey field folds as lastWrite.
  return name === 'byKey' ? lastWrite : getReducer(name);
}

/** Initial value of a slot: a deep copy of `config.initial_value` when present, else the reducer's. */
export function initialValue(reducer: string, config: StateConfig): unknown {
  if (config.initial_value !== undefined) return structuredClone(config.initial_value);
  return getReducer(reducer).initial(config);
}

export function reduce(reducer: string, current: unknown, update: unknown, config: StateConfig): unknown {
  return getReducer(reducer).reduce(current, update, config);
}
