// Content-addressed storage of checkpoint states (a Merkle DAG). Every object/array whose JSON is
// bigger than INLINE_LIMIT is stored once under the hash of its encoding, with its big children
// replaced by `{"$sw": id}` references (id = the blob's rowid; the sha1 index only dedups). A step that changes one slot therefore writes only the
// path from that slot up to the root (a few small rows); unchanged containers, slots and node states
// are shared with every earlier checkpoint. The engine deep-freezes all state, so a frozen object's
// hash can be cached by identity and is never re-serialized while it stays shared.
// Lists longer than CHUNK are split into fixed chunks (`{"$swc": [chunk…]}`), so an accumulator that
// grows by one item stores one new chunk per step instead of the whole list again.
// Arrays from node services (`{dtype, shape, data: Uint8Array}`) keep their raw bytes as a binary row
// (`{"$swnd": [id, dtype, shape]}`): no base64, and an image that did not change is stored once.
// Reserved: an object whose only key is "$sw" (number), "$swc" (array) or "$swnd" (array) is read back
// as a marker; a real value of that shape is stored as a blob, so it still round-trips.
import { createHash } from 'node:crypto';
import { isNdArray, makeNdArray } from '../../domain/services/ndarray.ts';
import type { Db } from './database.ts';

const INLINE_LIMIT = 96;
const MAX_KNOWN = 1_000_000;
const CHUNK = 32;
const CHUNKS = '$swc';
const REF = '$sw';
const NDARRAY = '$swnd';

type Encoded = unknown;

export class BlobStore {
  private readonly insert;
  private readonly select;
  private readonly selectBytes;
  private readonly byHash;
  /** hash → blob id, for dedup without touching the index (bounded, see MAX_KNOWN). */
  private readonly known = new Map<string, number>();
  /** Frozen object → its encoded form (inline value or ref), valid because frozen objects never change. */
  private byIdentity = new WeakMap<object, Encoded>();
  /** Decoded blobs (shared, frozen); bounded so a long server life does not grow without limit. */
  private readonly decoded = new Map<number, unknown>();

  constructor(
    private readonly db: Db,
    private readonly cacheSize = 50_000,
  ) {
    // Most blobs are new: insert first and look up only on a hash conflict (one index walk, not two).
    this.insert = db.prepare('INSERT INTO blobs (hash, json) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING');
    this.byHash = db.prepare<[Buffer], { id: number }>('SELECT id FROM blobs WHERE hash = ?');
    this.select = db.prepare<[number], { json: string }>('SELECT json FROM blobs WHERE id = ?');
    // Array bytes share the table; SQLite keeps a bound Buffer as a BLOB whatever the column's type.
    this.selectBytes = db.prepare<[number], { json: Buffer | string }>('SELECT json FROM blobs WHERE id = ?');
  }

  /** Stores `value` and returns its root reference (JSON text of the encoded root). Call inside a transaction. */
  put(value: unknown): string {
    return JSON.stringify(this.encode(value));
  }

  private encode(value: unknown): Encoded {
    if (value === null || typeof value !== 'object') return value === undefined ? null : value;
    const cached = this.byIdentity.get(value);
    if (cached !== undefined) return cached;
    if (isNdArray(value)) {
      const marker = { [NDARRAY]: [this.storeBytes(value.data), value.dtype, [...value.shape]] };
      if (Object.isFrozen(value)) this.byIdentity.set(value, marker);
      return marker;
    }
    let node: unknown;
    if (Array.isArray(value)) {
      if (value.length > CHUNK) {
        // Long lists (accumulators) in fixed chunks: appending rewrites only the last chunk.
        const chunks: Encoded[] = [];
        for (let i = 0; i < value.length; i += CHUNK)
          chunks.push(this.seal(value.slice(i, i + CHUNK).map((v) => this.encode(v))));
        node = { [CHUNKS]: chunks };
      } else node = value.map((v) => this.encode(v));
    } else {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value))
        if (v !== undefined && typeof v !== 'function') o[k] = this.encode(v);
      node = o;
    }
    const out = this.seal(node);
    if (Object.isFrozen(value)) this.byIdentity.set(value, out);
    return out;
  }

  /** An encoded node, stored and replaced by a ref when big (or when it looks like one of our markers). */
  private seal(node: unknown): Encoded {
    const json = JSON.stringify(node);
    return json.length > INLINE_LIMIT || isRefShaped(node) || isChunked(node) || isNdShaped(node)
      ? { [REF]: this.store(json) }
      : node;
  }

  private store(json: string): number {
    const digest = createHash('sha1').update(json).digest();
    const key = digest.toString('latin1');
    let id = this.known.get(key);
    if (id === undefined) {
      const r = this.insert.run(digest, json);
      id = r.changes === 1 ? Number(r.lastInsertRowid) : (this.byHash.get(digest)?.id ?? -1);
      if (this.known.size >= MAX_KNOWN) this.known.clear();
      this.known.set(key, id);
    }
    return id;
  }

  private storeBytes(bytes: Uint8Array): number {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Prefixed so that bytes equal to some JSON text never share its hash.
    const digest = createHash('sha1').update('ndarray\0').update(buf).digest();
    const key = digest.toString('latin1');
    let id = this.known.get(key);
    if (id === undefined) {
      const r = this.insert.run(digest, Buffer.from(buf));
      id = r.changes === 1 ? Number(r.lastInsertRowid) : (this.byHash.get(digest)?.id ?? -1);
      if (this.known.size >= MAX_KNOWN) this.known.clear();
      this.known.set(key, id);
    }
    return id;
  }

  /** The array a marker points to; undefined when it points to no binary row (a plain value of that shape). */
  private loadNd(marker: unknown[]): unknown {
    const [id, dtype, shape] = marker as [number, string, number[]];
    if (typeof id !== 'number') return undefined;
    const row = this.selectBytes.get(id);
    if (!row || typeof row.json === 'string') return undefined;
    try {
      return Object.freeze(makeNdArray(dtype, shape, new Uint8Array(row.json)));
    } catch {
      return undefined;
    }
  }

  /** Rebuilds the value stored under a root reference (shared sub-objects are frozen and reused). */
  get(root: string): unknown {
    return this.decode(JSON.parse(root));
  }

  private decode(node: unknown): unknown {
    if (node === null || typeof node !== 'object') return node;
    if (isRefShaped(node)) return this.load((node as Record<string, number>)[REF] ?? -1);
    if (isNdShaped(node)) {
      const nd = this.loadNd((node as Record<string, unknown[]>)[NDARRAY] ?? []);
      if (nd !== undefined) return nd;
    }
    if (isChunked(node))
      return Object.freeze(
        ((node as Record<string, unknown[]>)[CHUNKS] ?? []).flatMap((c) => this.decode(c) as unknown[]),
      );
    if (Array.isArray(node)) return Object.freeze(node.map((v) => this.decode(v)));
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) o[k] = this.decode(v);
    return Object.freeze(o);
  }

  private load(id: number): unknown {
    const hit = this.decoded.get(id);
    if (hit !== undefined) return hit;
    const row = this.select.get(id);
    if (!row) throw new Error(`blob ${id} is missing from the database`);
    const value = this.decode(JSON.parse(row.json));
    if (this.decoded.size >= this.cacheSize) this.decoded.clear();
    this.decoded.set(id, value);
    return value;
  }

  /** Forget every memo; called after a rolled-back transaction (its blobs were never stored). */
  resetCaches(): void {
    this.known.clear();
    this.byIdentity = new WeakMap();
    this.decoded.clear();
  }

  get database(): Db {
    return this.db;
  }
}

function isRefShaped(node: unknown): boolean {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
  const keys = Object.keys(node);
  return keys.length === 1 && keys[0] === REF && typeof (node as Record<string, unknown>)[REF] === 'number';
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
