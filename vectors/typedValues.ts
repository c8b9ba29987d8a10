// The vectors' typed-value notation (vectors/README.md) turned into TypeScript values, and the one
// equality every vector is checked with. python/tests/vector_values.py is the same for Python.
import { ExtData } from '@msgpack/msgpack';
import { isNdArray, type NdArray } from '../src/domain/services/ndarray.ts';

const SPECIAL_FLOATS: Record<string, number> = {
  NaN: NaN,
  Infinity: Infinity,
  '-Infinity': -Infinity,
  '-0': -0,
};

type Tagged = Record<string, unknown>;

const TAGS: Record<string, (x: unknown) => unknown> = {
  // Built by hand, not by makeNdArray: the expected side must not lean on the code under test.
  $ndarray: (x) => {
    const { dtype, shape, hex } = x as { dtype: NdArray['dtype']; shape: number[]; hex: string };
    return { dtype, shape, data: Uint8Array.from(Buffer.from(hex, 'hex')) } satisfies NdArray;
  },
  $bytes: (x) => Uint8Array.from(Buffer.from(x as string, 'hex')),
  $float: (x) => (typeof x === 'string' ? SPECIAL_FLOATS[x] : (x as number)),
  // JavaScript values have no sets or tuples: both are lists here, as on the wire.
  $set: (x) => (x as unknown[]).map(revive),
  $tuple: (x) => (x as unknown[]).map(revive),
  $numpy: (x) => (x as { value: unknown }).value,
  $entries: (x) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of x as [string, unknown][]) out[k] = revive(v);
    return out;
  },
  // A PIL image is its pixel array to everyone but Python.
  $pil: (x) => revive((x as { array: unknown }).array),
  $ext: (x) => {
    const { type, hex } = x as { type: number; hex: string };
    return new ExtData(type, Uint8Array.from(Buffer.from(hex, 'hex')));
  },
};

/** A vector's JSON value as the value it stands for. */
export function revive(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(revive);
  if (typeof v !== 'object' || v === null) return v;
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0]!.startsWith('$')) {
    const tag = TAGS[keys[0]!];
    if (!tag) throw new Error(`unknown typed-value tag ${keys[0]} (vectors/README.md lists them)`);
    return tag((v as Tagged)[keys[0]!]);
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x)]));
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/**
 * Wire equality: what a receiver on either side can tell apart. Numbers by value (JavaScript has one
 * number type; NaN equals NaN), booleans apart from numbers, object keys in any order, arrays by
 * dtype, shape and raw bytes.
 */
export function same(a: unknown, b: unknown): boolean {
  if (isNdArray(a) || isNdArray(b))
    return (
      isNdArray(a) &&
      isNdArray(b) &&
      a.dtype === b.dtype &&
      same(a.shape, b.shape) &&
      sameBytes(a.data, b.data)
    );
  if (a instanceof ExtData || b instanceof ExtData)
    return a instanceof ExtData && b instanceof ExtData && a.type === b.type && same(a.data, b.data);
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b))
    return a instanceof Uint8Array && b instanceof Uint8Array && sameBytes(a, b);
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => same(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && same((a as Tagged)[k], (b as Tagged)[k]))
  );
}

/** Readable text of a value for a failure message (bytes as hex, NaN as NaN). */
export function shown(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (x instanceof Uint8Array) return `<hex ${Buffer.from(x).toString('hex')}>`;
    if (typeof x === 'number' && !Number.isFinite(x)) return String(x);
    return x;
  });
}
