// The two body encodings of the node-services protocol (docs/value-encodings.md):
// - msgpack: one map; arrays ride ext type 1 = [tag u8][len u32 BE][msgpack {dtype, shape, mode?}][raw bytes];
// - JSON: IMAGE port values as base64 PNG strings, other arrays as {"__ndarray__": base64, dtype, shape}.
// Both decode arrays to the shared `NdArray` value ({dtype, shape, data}). The Python SDK's codec.py
// speaks the same wire; vectors/msgpack.json, json-wire.json and png.json hold both sides to it.
import { decode, Decoder, encode, Encoder, ExtensionCodec } from '@msgpack/msgpack';
import { parseWireType } from '../../domain/flow/wireTypes.ts';
import { isNdArray, makeNdArray, pictureKind, type NdArray } from '../../domain/services/ndarray.ts';
import { decodePng, encodePng } from './png.ts';

export type Encoding = 'msgpack' | 'json';
export const CONTENT_TYPE: Record<Encoding, string> = {
  msgpack: 'application/msgpack',
  json: 'application/json',
};

const BLOB_EXT = 1;
const TAG_NDARRAY = 0;
/** 0 ndarray, 1 torch tensor, 2 PIL image: all three decode as plain arrays (we have neither torch nor PIL). */
const KNOWN_TAGS = new Set([0, 1, 2]);

export const extensionCodec = new ExtensionCodec();
extensionCodec.register({
  type: BLOB_EXT,
  encode(input: unknown): Uint8Array | null {
    if (!isNdArray(input)) return null;
    const header = encode({ dtype: input.dtype, shape: input.shape });
    const out = new Uint8Array(5 + header.length + input.data.byteLength);
    out[0] = TAG_NDARRAY;
    new DataView(out.buffer).setUint32(1, header.length, false);
    out.set(header, 5);
    out.set(input.data, 5 + header.length);
    return out;
  },
  decode(data: Uint8Array): NdArray {
    if (data.length < 5)
      throw new Error(`blob ext: a ${data.length}-byte payload is shorter than its 5-byte header`);
    if (!KNOWN_TAGS.has(data[0]!))
      throw new Error(`blob ext: unknown tag ${data[0]} (0 ndarray, 1 torch, 2 PIL)`);
    const len = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(1, false);
    if (5 + len > data.length)
      throw new Error(`blob ext: header length ${len} runs past the ${data.length}-byte payload`);
    const meta = decode(data.subarray(5, 5 + len));
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || meta instanceof Uint8Array)
      throw new Error('blob ext: header is not a map');
    const { dtype, shape } = meta as { dtype?: unknown; shape?: unknown };
    // Copy: the payload aliases the whole response buffer, which must not stay alive through a slot.
    const bytes = data.slice(5 + len);
    try {
      return makeNdArray(dtype, shape, bytes);
    } catch (e) {
      throw new Error(`blob ext: ${(e as Error).message}`, { cause: e });
    }
  },
});

// One encoder and one decoder for every small body: the library's `encode`/`decode` functions build
// a new one (and its working buffer) per call, a measurable share of a small call's cost
// (docs/performance.md "Node-service calls"). Both are safe to re-enter (an ext codec encoding inside
// an encode gets a fresh one) and `encode` returns a copy. A kept encoder keeps the largest buffer it
// ever grew and a kept decoder the last bytes it read, so a big body (an image) gets one of its own.
const KEEP_UNDER = 256 * 1024;
const encodeOptions = { extensionCodec, ignoreUndefined: true };
let encoder = new Encoder(encodeOptions);
const decoder = new Decoder({ extensionCodec });

export function encodeMsgpack(value: unknown): Uint8Array {
  const bytes = encoder.encode(value);
  if (bytes.byteLength >= KEEP_UNDER) encoder = new Encoder(encodeOptions);
  return bytes;
}

export function decodeMsgpack(bytes: Uint8Array): unknown {
  return bytes.byteLength < KEEP_UNDER ? decoder.decode(bytes) : decode(bytes, { extensionCodec });
}

const b64 = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('base64');

/** Standard padded base64 only (what both sides write); Buffer.from alone would skip stray characters. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
function fromBase64(s: string): Uint8Array | null {
  return BASE64.test(s) ? new Uint8Array(Buffer.from(s, 'base64')) : null;
}

/**
 * A port whose arrays travel as base64 PNG in the JSON encoding: `IMAGE` itself. `LIST[IMAGE]` is not
 * one: its items travel as `__ndarray__`, as the reference sends them.
 */
export function isPngPort(wireType: string): boolean {
  const t = parseWireType(wireType);
  return t !== null && t.base === 'IMAGE' && !t.list;
}

/** An image array as PNG bytes (uint8 H×W or H×W×{1,3,4}); null when it is not image-shaped. */
export function imageToPng(a: NdArray): Buffer | null {
  if (pictureKind(a) !== 'image') return null;
  const [h, w, c = 1] = a.shape as number[];
  return encodePng(w!, h!, c, a.data);
}

/**
 * JSON form of a value going to a service; `imagePort` turns a top-level image array into PNG. JSON has
 * no NaN, Infinity or bytes: each is an error naming where it is (`path`), never a silent `null`.
 */
export function toJsonWire(value: unknown, imagePort = false, path = '$'): unknown {
  if (imagePort && isNdArray(value)) {
    const png = imageToPng(value);
    if (png) return png.toString('base64');
  }
  return jsonSafe(value, path);
}

/** `value` with arrays in their `__ndarray__` form; the same object when nothing needed changing. */
function jsonSafe(value: unknown, path: string): unknown {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new Error(`${path}: ${value} has no JSON form (use the msgpack encoding)`);
  if (typeof value !== 'object' || value === null) return value;
  if (isNdArray(value)) return { __ndarray__: b64(value.data), dtype: value.dtype, shape: [...value.shape] };
  if (ArrayBuffer.isView(value))
    throw new Error(`${path}: bytes have no JSON form (use the msgpack encoding)`);
  return mapChildren(value, path, jsonSafe);
}

/** Revives `{"__ndarray__": …}` objects anywhere inside a JSON value. */
export function fromJsonWire(value: unknown, path = '$'): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const o = value as Record<string, unknown>;
  if (!Array.isArray(value) && typeof o.__ndarray__ === 'string') {
    const bytes = fromBase64(o.__ndarray__);
    if (!bytes) throw new Error(`${path}: __ndarray__ is not valid base64`);
    try {
      return makeNdArray(o.dtype, o.shape, bytes);
    } catch (e) {
      throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
    }
  }
  return mapChildren(value, path, fromJsonWire);
}

/**
 * A list's items or an object's values through `fn` (given their paths); the same object when `fn`
 * changed none of them, so the common value without arrays allocates nothing.
 */
function mapChildren(value: object, path: string, fn: (v: unknown, path: string) => unknown): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((v, i) => {
      const r = fn(v, `${path}[${i}]`);
      if (r !== v) (out ??= value.slice())[i] = r;
    });
    return out ?? value;
  }
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    const r = fn(v, `${path}.${k}`);
    if (r !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = r;
  }
  return out ?? value;
}

const PNG_DATA_URL = 'data:image/png;base64,';

/**
 * An IMAGE port's base64 PNG string (optionally a data URL) → uint8 array H×W×C (H×W for gray).
 * Throws why it is not one (not base64, or what the PNG decoder refuses).
 */
export function pngStringToArray(s: string): NdArray {
  const b = fromBase64(s.startsWith(PNG_DATA_URL) ? s.slice(PNG_DATA_URL.length) : s);
  if (!b) throw new Error('not valid base64');
  const { width, height, channels, pixels } = decodePng(b);
  return makeNdArray('uint8', channels === 1 ? [height, width] : [height, width, channels], pixels);
}
