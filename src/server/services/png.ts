// Minimal PNG encoder/decoder for 8-bit gray, gray+alpha, RGB and RGBA images (no interlacing,
// no palettes; every chunk's CRC checked). The JSON encoding of node services sends IMAGE arrays as
// base64 PNG, and the live stream shows image-like arrays as PNG data URLs; node:zlib does the
// compression. The Python SDK reads the same subset (vectors/png.json, docs/value-encodings.md).
import { deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS_OF_COLOR_TYPE: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
const COLOR_TYPE_OF_CHANNELS: Record<number, number> = { 1: 0, 3: 2, 2: 4, 4: 6 };

let crcTable: Uint32Array | null = null;
function crc32(buf: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Encodes `pixels` (row-major, `channels` bytes per pixel) as a PNG. */
export function encodePng(width: number, height: number, channels: number, pixels: Uint8Array): Buffer {
  const colorType = COLOR_TYPE_OF_CHANNELS[channels];
  if (colorType === undefined) throw new Error(`PNG: ${channels} channels are not supported`);
  if (pixels.length !== width * height * channels)
    throw new Error(`PNG: expected ${width * height * channels} bytes, got ${pixels.length}`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = colorType;
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0; // filter: none
    Buffer.from(pixels.buffer, pixels.byteOffset + y * stride, stride).copy(raw, y * (stride + 1) + 1);
  }
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

export interface DecodedPng {
  width: number;
  height: number;
  channels: number;
  pixels: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes an 8-bit, non-interlaced, non-palette PNG; throws a clear message for anything else. */
export function decodePng(buf: Uint8Array): DecodedPng {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 8 || !b.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG (bad signature)');
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (pos + 8 <= b.length) {
    const len = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    if (pos + 12 + len > b.length) throw new Error(`PNG chunk ${type} is truncated`);
    const data = b.subarray(pos + 8, pos + 8 + len);
    // A damaged image is refused, not decoded into wrong pixels (the SDK's decoder checks the same).
    if (crc32(b.subarray(pos + 4, pos + 8 + len)) !== b.readUInt32BE(pos + 8 + len))
      throw new Error(`PNG chunk ${type} has a bad CRC`);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8];
      const colorType = data[9]!;
      if (depth !== 8) throw new Error(`PNG bit depth ${depth} is not supported (8 only)`);
      if (data[12] !== 0) throw new Error('interlaced PNG is not supported');
      const ch = CHANNELS_OF_COLOR_TYPE[colorType];
      if (ch === undefined) throw new Error(`PNG color type ${colorType} is not supported`);
      channels = ch;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  if (!channels) throw new Error('PNG has no IHDR');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) throw new Error('PNG image data is truncated');
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const cur = raw[src + x]!;
      const left = x >= channels ? out[row + x - channels]! : 0;
      const up = y > 0 ? out[row - stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? out[row - stride + x - channels]! : 0;
      let v: number;
      if (filter === 0) v = cur;
      else if (filter === 1) v = cur + left;
      else if (filter === 2) v = cur + up;
      else if (filter === 3) v = cur + ((left + up) >> 1);
      else if (filter === 4) v = cur + paeth(left, up, upLeft);
      else throw new Error(`PNG filter ${filter} is invalid`);
      out[row + x] = v & 0xff;
    }
  }
  return { width, height, channels, pixels: out };
}
