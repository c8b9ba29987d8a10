// The pure half of content-addressed value storage, shared by the SQLite `BlobStore` and the
// PostgreSQL run log: how a value becomes a Merkle DAG of blobs and back, and how a blob is hashed.
// Where blobs live (and what a reference to one is: a rowid in SQLite, the hash itself in
// PostgreSQL) is the caller's: `encode` hands each blob to a `BlobSink`, `decode` asks a `BlobSource`.
//
// Every object/array whose JSON is bigger than INLINE_LIMIT is stored once and replaced by
// `{"$sw": ref}` in its parent; lists longer than CHUNK are split into fixed chunks
// (`{"$swc": [chunk…]}`), so an accumulator that grows by one item stores one new chunk per step;
// arrays from node services (`{dtype, shape, data: Uint8Array}`) keep their raw bytes as a binary
// blob (`{"$swnd": [ref, dtype, shape]}`). A frozen object's encoding is remembered by identity
// (the engine deep-freezes its state), so an unchanged value is never re-serialized.
// Known gap: a real value shaped like a marker is stored as a blob of its own, but a blob's content
// is decoded like any node, so `{"$sw": <ref>}` and `{"$swc": [...]}` values come back as the
// marker's meaning (only `{"$swnd": …}` survives, because no binary blob answers its ref). Fixing it
// changes the stored format (and .swrun bundles), so it is left as it is.
import { createHash } from 'node:crypto';
import { isNdArray, makeNdArray } from '../../domain/services/ndarray.ts';

const INLINE_LIMIT = 96;
const CHUNK = 32;
const CHUNKS = '$swc';
const REF = '$sw';
const NDARRAY = '$swnd';

export type BlobRef = number | string;

/** Where `encode` puts blobs (a database insert, or a batch collected for one). */
export interface BlobSink {
  /** The encoding remembered for a frozen object, if any. */
  remembered(value: object): unknown;
  remember(value: object, encoded: unknown): void;
  /** Stores JSON text (its digest: `jsonDigest`) and returns its reference. */
  storeJson(json: string): BlobRef;
  /** Stores raw array bytes (digest: `bytesDigest`) and returns its reference. */
  storeBytes(bytes: Buffer): BlobRef;
}

/** Where `decode` finds blobs. */
export interface BlobSource {
  /** The decoded value of a JSON blob (throws when it is missing). */
  load(ref: BlobRef): unknown;
  /** The bytes of a binary blob; undefined when `ref` names no binary blob. */
  loadBytes(ref: BlobRef): Uint8Array | undefined;
}

export const jsonDigest = (json: string): Buffer => createHash('sha1').update(json).digest();
/** Prefixed so that bytes equal to some JSON text never share its hash. */
export const bytesDigest = (bytes: Uint8Array): Buffer =>
  createHash('sha1').update('ndarray\0').update(bytes).digest();

export class MerkleCodec {
  /** `refType`: what a reference is in this store (markers with another type are plain values). */
  constructor(private readonly refType: 'number' | 'string') {}

  encode(value: unknown, sink: BlobSink): unknown {
    if (value === null || typeof value !== 'object') return value === undefined ? null : value;
    const cached = sink.remembered(value);
    if (cached !== undefined) return cached;
    if (isNdArray(value)) {
      const buf = Buffer.from(value.data.buffer, value.data.byteOffset, value.data.byteLength);
      const marker = { [NDARRAY]: [sink.storeBytes(buf), value.dtype, [...value.shape]] };
      if (Object.isFrozen(value)) sink.remember(value, marker);
      return marker;
    }
    let node: unknown;
    if (Array.isArray(value)) {
      if (value.length > CHUNK) {
        // Long lists (accumulators) in fixed chunks: appending rewrites only the last chunk.
        const chunks: unknown[] = [];
        for (let i = 0; i < value.length; i += CHUNK)
          chunks.push(
            this.seal(
              value.slice(i, i + CHUNK).map((v) => this.encode(v, sink)),
              sink,
            ),
          );
        node = { [CHUNKS]: chunks };
      } else node = value.map((v) => this.encode(v, sink));
    } else {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value))
        if (v !== undefined && typeof v !== 'function') o[k] = this.encode(v, sink);
      node = o;
    }
    const out = this.seal(node, sink);
    if (Object.isFrozen(value)) sink.remember(value, out);
    return out;
  }

  /** An encoded node, stored and replaced by a ref when big (or when it looks like one of our markers). */
  private seal(node: unknown, sink: BlobSink): unknown {
    const json = JSON.stringify(node);
    return json.length > INLINE_LIMIT || this.isRef(node) || isChunked(node) || isNdShaped(node)
      ? { [REF]: sink.storeJson(json) }
      : node;
  }

  /** Rebuilds a value from an encoded node (shared sub-objects come frozen from the source). */
  decode(node: unknown, source: BlobSource): unknown {
    if (node === null || typeof node !== 'object') return node;
    if (this.isRef(node)) return source.load((node as Record<string, BlobRef>)[REF] ?? -1);
    if (isNdShaped(node)) {
      const nd = this.loadNd((node as Record<string, unknown[]>)[NDARRAY] ?? [], source);
      if (nd !== undefined) return nd;
    }
    if (isChunked(node))
      return Object.freeze(
        ((node as Record<string, unknown[]>)[CHUNKS] ?? []).flatMap(
          (c) => this.decode(c, source) as unknown[],
        ),
      );
    if (Array.isArray(node)) return Object.freeze(node.map((v) => this.decode(v, source)));
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) o[k] = this.decode(v, source);
    return Object.freeze(o);
  }

  /**
   * The blob references an encoded node holds, not looking inside the blobs (a store that reads
   * asynchronously fetches them level by level before `decode`).
   */
  refsOf(node: unknown, out: Set<BlobRef>): void {
    if (node === null || typeof node !== 'object') return;
    if (this.isRef(node)) {
      out.add((node as Record<string, BlobRef>)[REF]!);
      return;
    }
    if (isNdShaped(node)) {
      const ref = (node as Record<string, unknown[]>)[NDARRAY]?.[0];
      if (typeof ref === this.refType) out.add(ref as BlobRef);
    }
    for (const v of Array.isArray(node) ? node : Object.values(node)) this.refsOf(v, out);
  }

  /** The array a marker points to; undefined when it points to no binary blob (a plain value of that shape). */
  private loadNd(marker: unknown[], source: BlobSource): unknown {
    const [ref, dtype, shape] = marker as [BlobRef, string, number[]];
    if (typeof ref !== this.refType) return undefined;
    const bytes = source.loadBytes(ref);
    if (bytes === undefined) return undefined;
    try {
      return Object.freeze(makeNdArray(dtype, shape, new Uint8Array(bytes)));
    } catch {
      return undefined;
    }
  }

  private isRef(node: unknown): boolean {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
    const keys = Object.keys(node);
    return (
      keys.length === 1 && keys[0] === REF && typeof (node as Record<string, unknown>)[REF] === this.refType
    );
  }
}

function isChunked(node: unknown): boolean {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
  const keys = Object.keys(node);
  return keys.length === 1 && keys[0] === CHUNKS && Array.isArray((node as Record<string, unknown>)[CHUNKS]);
}

function isNdShaped(node: unknown): boolean {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
  const keys = Object.keys(node);
  return (
    keys.length === 1 && keys[0] === NDARRAY && Array.isArray((node as Record<string, unknown>)[NDARRAY])
  );
}
