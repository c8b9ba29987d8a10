// A blob segment: many consecutive blob rows (JSON text or raw array bytes) packed into one
// compressed value by compaction (compaction.ts). Blobs are tiny, repetitive JSON texts (the same
// keys, node ids and slot previews step after step) that compress poorly alone but well together:
// one segment spans several steps, so a record that changed by one field compresses against its
// previous version. Brotli rather than deflate: its window (here 4 MB) covers the whole segment, where
// deflate's 32 KB reaches back only a few steps (measured on the demo: ~25 % fewer bytes at equal
// segment size), and it inflates as fast. Node's zlib has it, so no new dependency.
//
// Layout before compression: u32 count, then per blob u32 (id − first) and u32 length (top bit set:
// raw bytes, else UTF-8 JSON text), then the bodies back to back. Ids need not be contiguous: a
// blob left out (too big to pack) keeps its row, and rows are read before segments.
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** One blob as a segment holds it: JSON text (a TEXT row) or raw bytes (a BLOB row). */
export interface SegmentBlob {
  id: number;
  value: string | Uint8Array;
}

const BYTES_FLAG = 0x80000000;
// Quality 5: within ~3 % of quality 9 on blob segments at a tenth of the CPU (compaction runs next to live runs).
const BROTLI = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 5,
    [constants.BROTLI_PARAM_LGWIN]: 22,
  },
};

/** Packs blobs (ascending ids, none below `first`) into one compressed segment (it may hold none). */
export function encodeSegment(first: number, blobs: readonly SegmentBlob[]): Buffer {
  const bodies = blobs.map((b) =>
    typeof b.value === 'string' ? Buffer.from(b.value, 'utf8') : Buffer.from(b.value),
  );
  const head = Buffer.alloc(4 + 8 * blobs.length);
  head.writeUInt32LE(blobs.length, 0);
  blobs.forEach((b, i) => {
    head.writeUInt32LE(b.id - first, 4 + 8 * i);
    const len = bodies[i]!.length;
    head.writeUInt32LE((typeof b.value === 'string' ? 0 : BYTES_FLAG) + len, 8 + 8 * i);
  });
  return brotliCompressSync(Buffer.concat([head, ...bodies]), BROTLI);
}

/** An inflated segment: finds one blob by id without decoding the others. */
export class InflatedSegment {
  private readonly raw: Buffer;
  private readonly ids: Uint32Array;
  private readonly offsets: Uint32Array;
  private readonly lengths: Uint32Array;
  private readonly bytes: Uint8Array;

  constructor(
    readonly first: number,
    data: Uint8Array,
  ) {
    this.raw = brotliDecompressSync(data);
    const count = this.raw.readUInt32LE(0);
    this.ids = new Uint32Array(count);
    this.offsets = new Uint32Array(count);
    this.lengths = new Uint32Array(count);
    this.bytes = new Uint8Array(count);
    let off = 4 + 8 * count;
    for (let i = 0; i < count; i++) {
      this.ids[i] = this.raw.readUInt32LE(4 + 8 * i);
      const word = this.raw.readUInt32LE(8 + 8 * i);
      this.bytes[i] = word >= BYTES_FLAG ? 1 : 0;
      this.lengths[i] = word >= BYTES_FLAG ? word - BYTES_FLAG : word;
      this.offsets[i] = off;
      off += this.lengths[i]!;
    }
    if (off !== this.raw.length)
      throw new Error(`blob segment at ${first} is corrupt (${off} ≠ ${this.raw.length})`);
  }

  /** Uncompressed size (what the segment costs in the read cache). */
  get size(): number {
    return this.raw.length;
  }

  /** The stored value of blob `id` (a copy for bytes), or undefined when this segment lacks it. */
  get(id: number): string | Buffer | undefined {
    const i = this.indexOf(id - this.first);
    if (i < 0) return undefined;
    const start = this.offsets[i]!;
    const end = start + this.lengths[i]!;
    return this.bytes[i] ? Buffer.from(this.raw.subarray(start, end)) : this.raw.toString('utf8', start, end);
  }

  /** Binary search: ids are stored ascending. */
  private indexOf(delta: number): number {
    let lo = 0;
    let hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.ids[mid]!;
      if (v === delta) return mid;
      if (v < delta) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
