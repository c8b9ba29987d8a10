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
// as a marker (see merkle.ts for which real values of that shape do not round-trip).
// The encoding itself is in merkle.ts (shared with the PostgreSQL run log); this is its SQLite storage.
// Compaction (compaction.ts) later moves rows into compressed segments under the same ids: a read
// tries the row first, then the segment covering its id. A value written again after its row was
// packed is not deduplicated against it (the hash index only knows rows): it gets a new row.
// Reading is bounded (valueLimits.ts): each decoded blob remembers what it expands to (its text plus
// its references' expansions), `get` refuses a value past `maxValueBytes` before anyone serializes
// it, and a blob that contains itself (only a damaged database can hold one) is an error, not a
// stack overflow.
import {
  bytesDigest,
  jsonDigest,
  MerkleCodec,
  type BlobRef,
  type BlobSink,
  type BlobSource,
} from './merkle.ts';
import { valueAtKeys } from '../../domain/batch/query.ts';
import type { Db } from './database.ts';
import { SegmentCache } from './segmentCache.ts';
import { ValueCycleError, ValueTooLargeError } from './valueLimits.ts';

const MAX_KNOWN = 1_000_000;
/** Encoded nodes kept while projecting: a projection walks each snapshot once, so only the few
 * nodes many snapshots share (an unchanged container) are worth keeping; more only feeds the GC. */
const ENCODED_CACHE = 4096;

type Encoded = unknown;

/** A decoded blob and the bytes of JSON it expands to. */
interface Decoded {
  value: unknown;
  bytes: number;
}

/** A root written by `putPlain` (not yet encoded into blobs). */
export const isPlainRoot = (root: string): boolean => root.charCodeAt(0) === 32;

export class BlobStore implements BlobSink, BlobSource {
  private readonly codec = new MerkleCodec('number');
  private readonly insert;
  private readonly selectBytes;
  private readonly byHash;
  /** hash → blob id, for dedup without touching the index (bounded, see MAX_KNOWN). */
  private readonly known = new Map<string, number>();
  /** Frozen object → its encoded form (inline value or ref), valid because frozen objects never change. */
  private byIdentity = new WeakMap<object, Encoded>();
  /** Decoded blobs (shared, frozen); bounded so a long server life does not grow without limit. */
  private readonly decoded = new Map<number, Decoded>();
  /** Blobs being decoded right now: meeting one again inside itself is a cycle. */
  private readonly loading = new Set<number>();
  /** Blobs' encoded nodes met while projecting (bounded like `decoded`). */
  private readonly encoded = new Map<number, unknown>();
  private readonly segments: SegmentCache;

  /** `maxValueBytes`: the largest expanded value `get` hands out (ValueTooLargeError beyond). */
  constructor(
    private readonly db: Db,
    private readonly cacheSize = 50_000,
    readonly maxValueBytes = Infinity,
  ) {
    // Most blobs are new: insert first and look up only on a hash conflict (one index walk, not two).
    this.insert = db.prepare('INSERT INTO blobs (hash, json) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING');
    this.byHash = db.prepare<[Buffer], { id: number }>('SELECT id FROM blobs WHERE hash = ?');
    // Array bytes share the table; SQLite keeps a bound Buffer as a BLOB whatever the column's type.
    this.selectBytes = db.prepare<[number], { json: Buffer | string }>('SELECT json FROM blobs WHERE id = ?');
    this.segments = new SegmentCache(db);
  }

  /** Stores `value` and returns its root reference (JSON text of the encoded root). Call inside a transaction. */
  put(value: unknown): string {
    return JSON.stringify(this.codec.encode(value, this));
  }

  /**
   * `value` as a plain root: its JSON text behind one space, which every reader parses as a root
   * (JSON.parse skips the space; a tree without references decodes to itself). It costs one
   * JSON.stringify and no blob rows, so a run driven flat out writes this and compaction encodes
   * it later (`isPlainRoot`, compaction.ts). A value whose text could hold one of the encoding's
   * markers (`"$sw…` keys) or an array from a node service (`"dtype"`) is encoded at once instead:
   * plain, it would not read back as itself.
   */
  putPlain(value: unknown): string {
    const text = JSON.stringify(value ?? null);
    if (text.includes('"$sw') || text.includes('"dtype"')) return this.put(value);
    return ` ${text}`;
  }

  remembered(value: object): Encoded {
    return this.byIdentity.get(value);
  }

  remember(value: object, encoded: Encoded): void {
    this.byIdentity.set(value, encoded);
  }

  storeJson(json: string): number {
    return this.store(json);
  }

  private store(json: string): number {
    const digest = jsonDigest(json);
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

  storeBytes(buf: Buffer): number {
    const digest = bytesDigest(buf);
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

  /** The bytes of a binary row; undefined when `id` is no binary row (a plain value of the marker's shape). */
  loadBytes(id: BlobRef): Uint8Array | undefined {
    const stored = this.stored(id as number);
    return stored === undefined || typeof stored === 'string' ? undefined : stored;
  }

  /**
   * Rebuilds the value stored under a root reference (shared sub-objects are frozen and reused).
   * Throws ValueTooLargeError when it expands past `maxValueBytes`.
   */
  get(root: string): unknown {
    const { value, bytes } = this.getSized(root);
    if (bytes > this.maxValueBytes) throw new ValueTooLargeError(bytes, this.maxValueBytes);
    return value;
  }

  /** The value under a root and the bytes of JSON it expands to (no limit applied). */
  getSized(root: string): Decoded {
    const { value, refBytes } = this.decodeNode(JSON.parse(root));
    return { value, bytes: root.length + refBytes };
  }

  /** An encoded node already parsed: its value, and what the references in it expand to. */
  decodeNode(node: unknown): { value: unknown; refBytes: number } {
    return this.codec.decodeSized(node, this);
  }

  /**
   * The values at `paths` inside the value under `root`, reading only the blobs on the way there and
   * those of the values found — a batch query reads one slot of thousands of snapshots (its cost is
   * that slot's blobs, not the whole state's). Missing paths give undefined.
   */
  project(root: string, paths: readonly (readonly string[])[]): unknown[] {
    const node = JSON.parse(root) as unknown;
    return paths.map((path) => {
      const w = this.codec.walk(node, path, (ref) => this.encodedNode(ref as number));
      if (!w.done) throw new Error(`blob ${String(w.need)} is missing from the database`);
      // The value found is handed to a query evaluator: the same budget as `get`.
      const { value, refBytes } = this.codec.decodeSized(w.node, this);
      if (refBytes > this.maxValueBytes) throw new ValueTooLargeError(refBytes, this.maxValueBytes);
      return valueAtKeys(value, w.rest);
    });
  }

  /** A blob's encoded node (parsed, not decoded), cached like decoded values. */
  private encodedNode(id: number): unknown {
    const hit = this.encoded.get(id);
    if (hit !== undefined) return hit;
    const json = this.stored(id);
    if (typeof json !== 'string') throw new Error(`blob ${id} is missing from the database`);
    const node = JSON.parse(json) as unknown;
    if (this.encoded.size >= ENCODED_CACHE) this.encoded.clear();
    this.encoded.set(id, node);
    return node;
  }

  load(ref: BlobRef): unknown {
    return this.entry(ref as number).value;
  }

  expandedBytes(ref: BlobRef): number {
    return this.entry(ref as number).bytes;
  }

  private entry(id: number): Decoded {
    const hit = this.decoded.get(id);
    if (hit !== undefined) return hit;
    const json = this.stored(id);
    if (typeof json !== 'string') throw new Error(`blob ${id} is missing from the database`);
    if (this.loading.has(id)) throw new ValueCycleError(id);
    this.loading.add(id);
    let entry: Decoded;
    try {
      const { value, refBytes } = this.codec.decodeSized(JSON.parse(json), this);
      entry = { value, bytes: json.length + refBytes };
    } finally {
      this.loading.delete(id);
    }
    if (this.decoded.size >= this.cacheSize) this.decoded.clear();
    this.decoded.set(id, entry);
    return entry;
  }

  /**
   * A blob's stored text or bytes: its row, or the segment compaction packed it into. A packed
   * blob's row is gone, so for an id compaction has reached the segments are asked first (a blob
   * left out of its segment still has its row).
   */
  private stored(id: number): string | Buffer | undefined {
    if (this.segments.packed(id)) return this.segments.get(id) ?? this.selectBytes.get(id)?.json;
    return this.selectBytes.get(id)?.json ?? this.segments.get(id);
  }

  /** Forget every memo; called after a rolled-back transaction (its blobs were never stored). */
  resetCaches(): void {
    this.known.clear();
    this.byIdentity = new WeakMap();
    this.decoded.clear();
    this.encoded.clear();
    this.segments.clear();
  }

  get database(): Db {
    return this.db;
  }
}
