// The one n-dimensional array value shape shared by the engine, checkpoints, the wire and the UI:
// `{dtype, shape, data}` with `data` the raw little-endian bytes. Node services (Python, numpy) send
// arrays this way (msgpack ext type 1, or JSON `__ndarray__`); the engine passes them on wires and
// stores them in slots like any other frozen value; checkpoints keep the bytes as binary blobs.
// On the live stream an array travels as an `NdArraySummary` (dtype, shape, stats, a few values, and a
// picture for image-like arrays), because a client needs a look at it, not megabytes per step.

export const DTYPES = [
  'uint8',
  'int8',
  'uint16',
  'int16',
  'uint32',
  'int32',
  'int64',
  'uint64',
  'float16',
  'float32',
  'float64',
  'bool',
] as const;
export type DType = (typeof DTYPES)[number];

const ITEM_SIZE: Record<DType, number> = {
  uint8: 1,
  int8: 1,
  bool: 1,
  uint16: 2,
  int16: 2,
  float16: 2,
  uint32: 4,
  int32: 4,
  float32: 4,
  int64: 8,
  uint64: 8,
  float64: 8,
};

export interface NdArray {
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly data: Uint8Array;
}

/** numpy's `dtype.str`/names → ours (`<f4`, `float32`, `|u1`, `uint8`, …); null when unsupported. */
export function normalizeDtype(raw: unknown): DType | null {
  if (typeof raw !== 'string') return null;
  const s = raw.trim().toLowerCase();
  if ((DTYPES as readonly string[]).includes(s)) return s as DType;
  const m = /^[<>|=]?([uifb])(\d)$/.exec(s);
  if (!m) return s === 'bool_' ? 'bool' : null;
  const [, kind, size] = m;
  if (kind === 'b') return size === '1' ? 'bool' : null;
  const bits = Number(size) * 8;
  const name = `${kind === 'u' ? 'uint' : kind === 'i' ? 'int' : 'float'}${bits}`;
  return (DTYPES as readonly string[]).includes(name) ? (name as DType) : null;
}

export function itemSize(dtype: DType): number {
  return ITEM_SIZE[dtype];
}

export function elementCount(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

export function isNdArray(v: unknown): v is NdArray {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    o.data instanceof Uint8Array &&
    typeof o.dtype === 'string' &&
    Array.isArray(o.shape) &&
    Object.keys(o).length === 3
  );
}

/**
 * Builds an array value, checking that the byte length matches dtype × shape. Throws a message that
 * names the mismatch (callers add where the value came from). `data` is in the byte order the dtype
 * names: little-endian, unless it is numpy's big-endian form (`>f4`), whose bytes are swapped here, so
 * an array value is always little-endian (docs/value-encodings.md).
 */
export function makeNdArray(dtypeRaw: unknown, shapeRaw: unknown, data: Uint8Array): NdArray {
  const dtype = normalizeDtype(dtypeRaw);
  if (!dtype) throw new Error(`unsupported array dtype ${JSON.stringify(dtypeRaw ?? null)}`);
  if (!Array.isArray(shapeRaw) || !shapeRaw.every((d) => Number.isInteger(d) && d >= 0))
    throw new Error(
      `array shape must be a list of non-negative integers, got ${JSON.stringify(shapeRaw ?? null)}`,
    );
  const shape = shapeRaw as number[];
  const want = elementCount(shape) * ITEM_SIZE[dtype];
  if (data.byteLength !== want)
    throw new Error(
      `array of dtype ${dtype} and shape [${shape.join(', ')}] needs ${want} bytes, got ${data.byteLength}`,
    );
  const bigEndian = typeof dtypeRaw === 'string' && dtypeRaw.trim().startsWith('>');
  return { dtype, shape: [...shape], data: bigEndian ? swapBytes(data, ITEM_SIZE[dtype]) : data };
}

/** A copy of `data` with the bytes of every `size`-byte element reversed. */
function swapBytes(data: Uint8Array, size: number): Uint8Array {
  if (size === 1) return data;
  const out = new Uint8Array(data.byteLength);
  for (let o = 0; o < data.byteLength; o += size)
    for (let i = 0; i < size; i++) out[o + i] = data[o + size - 1 - i]!;
  return out;
}

/** Reads element `i` as a JS number (little-endian; 64-bit integers lose precision past 2^53). */
export function elementAt(a: NdArray, i: number): number {
  const view = new DataView(a.data.buffer, a.data.byteOffset, a.data.byteLength);
  const o = i * ITEM_SIZE[a.dtype];
  switch (a.dtype) {
    case 'uint8':
      return view.getUint8(o);
    case 'bool':
      return view.getUint8(o) ? 1 : 0;
    case 'int8':
      return view.getInt8(o);
    case 'uint16':
      return view.getUint16(o, true);
    case 'int16':
      return view.getInt16(o, true);
    case 'float16':
      return halfToFloat(view.getUint16(o, true));
    case 'uint32':
      return view.getUint32(o, true);
    case 'int32':
      return view.getInt32(o, true);
    case 'float32':
      return view.getFloat32(o, true);
    case 'float64':
      return view.getFloat64(o, true);
    case 'int64':
      return Number(view.getBigInt64(o, true));
    case 'uint64':
      return Number(view.getBigUint64(o, true));
  }
}

function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** What a client sees of an array on the live stream and in the log. */
export interface NdArraySummary {
  $ndarray: {
    dtype: DType;
    shape: number[];
    /** Finite min/max over all elements (null when empty or all non-finite). */
    min: number | null;
    max: number | null;
    /** The first few elements, flattened. */
    head: number[];
    /** How the picture (if any) was made: `rgb`/`gray` image, or a `depth` map scaled min→black, max→white. */
    kind: 'image' | 'depth' | 'array';
    /** A PNG data URL for image-like arrays (added by the server, which owns the encoder). */
    png?: string;
  };
}

export function isNdArraySummary(v: unknown): v is NdArraySummary {
  if (typeof v !== 'object' || v === null || !('$ndarray' in v) || Object.keys(v).length !== 1) return false;
  // A user's `{"$ndarray": 3}` is a plain object, not a summary.
  const s = (v as { $ndarray: unknown }).$ndarray as Partial<NdArraySummary['$ndarray']> | null;
  return typeof s === 'object' && s !== null && typeof s.dtype === 'string' && Array.isArray(s.shape);
}

const HEAD = 8;

/** Image-like: uint8 H×W, H×W×1, H×W×3 or H×W×4 → picture as is; 2-D float → depth map. */
export function pictureKind(a: NdArray): 'image' | 'depth' | 'array' {
  const [h, w, c] = a.shape;
  if (a.shape.length < 2 || !h || !w) return 'array';
  if (a.dtype === 'uint8' && (a.shape.length === 2 || (a.shape.length === 3 && [1, 3, 4].includes(c!))))
    return 'image';
  if (a.dtype.startsWith('float') && (a.shape.length === 2 || (a.shape.length === 3 && c === 1)))
    return 'depth';
  return 'array';
}

/** Stats and a few values; `png` is left to the host. Scans at most `scanLimit` elements for min/max. */
export function summarizeNdArray(a: NdArray, scanLimit = 4_000_000): NdArraySummary {
  const n = elementCount(a.shape);
  let min = Infinity;
  let max = -Infinity;
  const scan = Math.min(n, scanLimit);
  for (let i = 0; i < scan; i++) {
    const x = elementAt(a, i);
    if (!Number.isFinite(x)) continue;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const head: number[] = [];
  for (let i = 0; i < Math.min(n, HEAD); i++) head.push(elementAt(a, i));
  return {
    $ndarray: {
      dtype: a.dtype,
      shape: [...a.shape],
      min: min === Infinity ? null : min,
      max: max === -Infinity ? null : max,
      head,
      kind: pictureKind(a),
    },
  };
}

/**
 * Replaces every array inside `value` with `summarize(array)`; returns `value` itself (same identity)
 * when it holds no array, so the common case allocates nothing.
 */
export function mapNdArrays(value: unknown, summarize: (a: NdArray) => unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (isNdArray(value)) return summarize(value);
  if (ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = mapNdArrays(value[i], summarize);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | null = null;
  for (const [k, v0] of Object.entries(value)) {
    const v = mapNdArrays(v0, summarize);
    if (v !== v0) (out ??= { ...(value as Record<string, unknown>) })[k] = v;
  }
  return out ?? value;
}

/** True when `value` holds an array anywhere (cheap early exit for the common case). */
export function containsNdArray(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null || depth > 64) return false;
  if (isNdArray(value)) return true;
  if (ArrayBuffer.isView(value)) return false;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.some((v) => containsNdArray(v, depth + 1));
}
