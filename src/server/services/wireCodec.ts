// The two body encodings of the node-services protocol (NODE-SERVICES.md "Encodings"):
// - msgpack: one map; arrays ride ext type 1 = [tag u8][len u32 BE][msgpack {dtype, shape, mode?}][raw bytes];
// - JSON: IMAGE port values as base64 PNG strings, other arrays as {"__ndarray__": base64, dtype, shape}.
// Both decode arrays to the shared `NdArray` value ({dtype, shape, data}).
import { decode, encode, ExtensionCodec } from '@msgpack/msgpack';
import {
  isNdArray,
  makeNdArray,
  mapNdArrays,
  pictureKind,
  type NdArray,
} from '../../domain/services/ndarray.ts';
import { decodePng, encodePng } from './png.ts';

export type Encoding = 'msgpack' | 'json';
export const CONTENT_TYPE: Record<Encoding, string> = {
  msgpack: 'application/msgpack',
  json: 'application/json',
};

const BLOB_EXT = 1;
const TAG_NDARRAY = 0;

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
    // Tags 1 (torch tensor) and 2 (PIL image) decode as plain arrays too: we have neither.
    if (data.length < 5) throw new Error('blob ext: payload shorter than its header');
    const len = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(1, false);
    if (5 + len > data.length) throw new Error('blob ext: header length exceeds the payload');
    const meta = decode(data.subarray(5, 5 + len)) as { dtype?: unknown; shape?: unknown };
    // Copy: the payload aliases the whole response buffer, which must not stay alive through a slot.
    const bytes = data.slice(5 + len);
    return makeNdArray(meta?.dtype, meta?.shape, bytes);
  },
});

export function encodeMsgpack(value: unknown): Uint8Array {
  return encode(value, { extensionCodec, ignoreUndefined: true });
}

export function decodeMsgpack(bytes: Uint8Array): unknown {
  return decode(bytes, { extensionCodec });
}

const b64 = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('base64');

/** An image array as PNG bytes (uint8 H×W or H×W×{1,3,4}); null when it is not image-shaped. */
export function imageToPng(a: NdArray): Buffer | null {
  if (pictureKind(a) !== 'image') return null;
  const [h, w, c = 1] = a.shape as number[];
  return encodePng(w!, h!, c, a.data);
}

/** JSON form of a value going to a service; `imagePort` turns a top-level image array into PNG. */
export function toJsonWire(value: unknown, imagePort = false): unknown {
  if (imagePort && isNdArray(value)) {
    const png = imageToPng(value);
    if (png) return png.toString('base64');
  }
  return mapNdArrays(value, (a) => ({ __ndarray__: b64(a.data), dtype: a.dtype, shape: [...a.shape] }));
}

/** Revives `{"__ndarray__": …}` objects anywhere inside a JSON value. */
export function fromJsonWire(value: unknown, path = '$'): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((v, i) => {
      const r = fromJsonWire(v, `${path}[${i}]`);
      if (r !== v) (out ??= value.slice())[i] = r;
    });
    return out ?? value;
  }
  const o = value as Record<string, unknown>;
  if (typeof o.__ndarray__ === 'string') {
    try {
      return makeNdArray(o.dtype, o.shape, new Uint8Array(Buffer.from(o.__ndarray__, 'base64')));
    } catch (e) {
      throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
    }
  }
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(o)) {
    const r = fromJsonWire(v, `${path}.${k}`);
    if (r !== v) (out ??= { ...o })[k] = r;
  }
  return out ?? value;
}

/** An IMAGE port's base64 PNG string (optionally a data URL) → uint8 array H×W×C (H×W for gray). */
export function pngStringToArray(s: string): NdArray {
  const b = Buffer.from(s.replace(/^data:image\/png;base64,/, ''), 'base64');
  const { width, height, channels, pixels } = decodePng(b);
  return makeNdArray('uint8', channels === 1 ? [height, width] : [height, width, channels], pixels);
}
