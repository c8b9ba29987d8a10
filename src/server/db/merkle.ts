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
// (the engine deep-freezes its state), so an unchanged value is never re-serialized; a node's JSON
// is built once from its children's texts (the hot path of every live step's commit).
// `decodeSized` also says how big the value is once expanded (shared parts repeated), so a reader
// can refuse a small DAG that expands to gigabytes before serializing it (valueLimits.ts).
// Known gap: a real value shaped like a marker is stored as a blob of its own, but a blob's content
// is decoded like any node, so `{"$sw": <ref>}` and `{"$swc": [...]}` values come back as the
// marker's meaning (only `{"$swnd": …}` survives, because no binary blob answers its ref). Fixing it
// changes the stored format (and .swrun bundles), so it is left as it is.
import { createHash, hash } from 'node:crypto';
import { isNdArray, makeNdArray } from '../../domain/services/ndarray.ts';

const INLINE_LIMIT = 96;
const CHUNK = 32;
const CHUNKS = '$swc';
const REF = '$sw';
const NDARRAY = '$swnd';

export type BlobRef = number | string;

/** Where `MerkleCodec.walk` got to: the encoded node at the path (plus a rest to take after decoding it), or a blob it needs. */
export type Walk =
  | { done: true; node: unknown; rest: readonly string[] }
  | { done: false; need: BlobRef; node: unknown; at: number };

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
  /**
   * What the JSON blob `ref` (just loaded) expands to, in bytes of JSON with its shared parts
   * repeated (`decodeSized`). A source without it counts references as nothing.
   */
  expandedBytes?(ref: BlobRef): number;
}

// One-shot `hash` (Node ≥ 20.12): no Hash object per blob; a step hashes a few dozen small blobs.
export const jsonDigest = (json: string): Buffer => hash('sha1', json, 'buffer');
/** Prefixed so that bytes equal to some JSON text never share its hash. */
export const bytesDigest = (bytes: Uint8Array): Buffer =>
  createHash('sha1').update('ndarray\0').update(bytes).digest();

/**
 * What `encode` memoizes for a frozen object through the sink: its encoded node and that node's JSON.
 * A sink may also remember a plain encoded node itself (the PostgreSQL log does, for values it
 * decoded: `{"$sw": hash}`); that is stringified when met.
 */
class Memo {
  constructor(
    readonly node: unknown,
    readonly text: string,
  ) {}
}

/** Keys seen as JSON text (`"key"`), so a key repeated across steps is escaped once. */
const KEY_TEXTS_MAX = 10_000;

export class MerkleCodec {
  /**
   * The JSON text of the node the last `node()` call returned. Each node's text is built once, from
   * its children's texts, so an inline child is never re-serialized inside every ancestor.
   */
  private text = '';
  private readonly keyTexts = new Map<string, string>();
  /** What the references met by the running `decodeSized` expand to (saved around nested calls). */
  private refBytes = 0;

  /** `refType`: what a reference is in this store (markers with another type are plain values). */
  constructor(private readonly refType: 'number' | 'string') {}

  encode(value: unknown, sink: BlobSink): unknown {
    return this.node(value, sink);
  }

  /** The encoded node of `value` (text of its JSON in `this.text`). Same nodes and blob texts as
   *  JSON.stringify of the encoded tree gives, so blobs stored before keep their hashes. */
  private node(value: unknown, sink: BlobSink): unknown {
    if (value === null || typeof value !== 'object') {
      const prim = value === undefined ? null : value;
      // JSON.stringify gives undefined for a symbol or function: omitted in objects, null in arrays.
      this.text = JSON.stringify(prim) ?? '';
      return prim;
    }
    const memo = sink.remembered(value);
    if (memo instanceof Memo) {
      this.text = memo.text;
      return memo.node;
    }
    if (memo !== undefined) {
      this.text = JSON.stringify(memo);
      return memo;
    }
    let out: unknown;
    if (isNdArray(value)) {
      const buf = Buffer.from(value.data.buffer, value.data.byteOffset, value.data.byteLength);
      out = { [NDARRAY]: [sink.storeBytes(buf), value.dtype, [...value.shape]] };
      this.text = JSON.stringify(out);
    } else if (Array.isArray(value)) {
      out = value.length > CHUNK ? this.chunked(value, sink) : this.list(value, 0, value.length, sink);
    } else out = this.object(value as Record<string, unknown>, sink);
    if (Object.isFrozen(value)) sink.remember(value, new Memo(out, this.text));
    return out;
  }

  /** Items [from, to) of a list, sealed. */
  private list(value: readonly unknown[], from: number, to: number, sink: BlobSink): unknown {
    const items: unknown[] = new Array(to - from);
    let text = '[';
    for (let i = from; i < to; i++) {
      items[i - from] = this.node(value[i], sink);
      text += (i > from ? ',' : '') + (this.text === '' ? 'null' : this.text);
    }
    return this.seal(items, `${text}]`, sink, false);
  }

  /** Long lists (accumulators) in fixed chunks: appending rewrites only the last chunk. */
  private chunked(value: readonly unknown[], sink: BlobSink): unknown {
    const chunks: unknown[] = [];
    let text = `{"${CHUNKS}":[`;
    for (let i = 0; i < value.length; i += CHUNK) {
      chunks.push(this.list(value, i, Math.min(i + CHUNK, value.length), sink));
      text += (i > 0 ? ',' : '') + this.text;
    }
    return this.seal({ [CHUNKS]: chunks }, `${text}]}`, sink, true);
  }

  private object(value: Record<string, unknown>, sink: BlobSink): unknown {
    const o: Record<string, unknown> = {};
    let text = '{';
    let keys = 0;
    for (const k of Object.keys(value)) {
      const v = value[k];
      if (v === undefined || typeof v === 'function') continue;
      setOwn(o, k, this.node(v, sink));
      if (this.text === '') continue; // a symbol: JSON leaves the key out
      text += (keys++ > 0 ? ',' : '') + this.keyText(k) + this.text;
    }
    // Only a one-key object can look like one of our markers (and then must be a blob of its own).
    return this.seal(o, `${text}}`, sink, keys === 1 && this.looksLikeMarker(o));
  }

  /** `"key":` as JSON. */
  private keyText(k: string): string {
    let t = this.keyTexts.get(k);
    if (t === undefined) {
      t = `${JSON.stringify(k)}:`;
      if (this.keyTexts.size >= KEY_TEXTS_MAX) this.keyTexts.clear();
      this.keyTexts.set(k, t);
    }
    return t;
  }

  /** An encoded node, stored and replaced by a ref when big (or when it looks like one of our markers). */
  private seal(node: unknown, json: string, sink: BlobSink, marker: boolean): unknown {
    if (json.length <= INLINE_LIMIT && !marker) {
      this.text = json;
      return node;
    }
    const ref = sink.storeJson(json);
    this.text = `{"${REF}":${JSON.stringify(ref)}}`;
    return { [REF]: ref };
  }

  private looksLikeMarker(node: unknown): boolean {
    return this.isRef(node) || isChunked(node) || isNdShaped(node);
  }

  /**
   * `decode`, plus what the references inside `node` expand to: a value's expanded size is its own
   * text's length plus this (valueLimits.ts). Counted while decoding, so measuring costs one addition
   * per reference; a blob the source already decoded is counted from its remembered size.
   */
  decodeSized(node: unknown, source: BlobSource): { value: unknown; refBytes: number } {
    const outer = this.refBytes;
    this.refBytes = 0;
    try {
      const value = this.decode(node, source);
      return { value, refBytes: this.refBytes };
    } finally {
      this.refBytes = outer;
    }
  }

  /** Rebuilds a value from an encoded node (shared sub-objects come frozen from the source). */
  decode(node: unknown, source: BlobSource): unknown {
    if (node === null || typeof node !== 'object') return node;
    if (this.isRef(node)) {
      const ref = (node as Record<string, BlobRef>)[REF] ?? -1;
      const value = source.load(ref);
      this.refBytes += source.expandedBytes?.(ref) ?? 0;
      return value;
    }
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
    for (const [k, v] of Object.entries(node)) setOwn(o, k, this.decode(v, source));
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

  /**
   * Follows `path` (object keys, list indexes as strings) from an encoded node without decoding
   * anything beside it: a reference on the way is replaced by its blob's encoded node, which `raw`
   * gives (undefined = not at hand: the walk stops and names the blob it needs, to resume `from` its
   * `at` once fetched). A chunked list or an n-d array on the way is not walked into: the walk ends
   * there with the rest of the path, to be taken from its decoded value. An absent key ends it with
   * `node: undefined`. The node reached is still encoded (`decode` it; a final reference is left for
   * `decode`, so the store's cache of decoded blobs serves it).
   */
  walk(node: unknown, path: readonly string[], raw: (ref: BlobRef) => unknown, from = 0): Walk {
    let n = node;
    for (let i = from; i < path.length; i++) {
      while (this.isRef(n)) {
        const ref = (n as Record<string, BlobRef>)[REF]!;
        const r = raw(ref);
        if (r === undefined) return { done: false, need: ref, node: n, at: i };
        n = r;
      }
      if (isChunked(n) || isNdShaped(n)) return { done: true, node: n, rest: path.slice(i) };
      if (n === null || typeof n !== 'object' || !Object.hasOwn(n, path[i]!))
        return { done: true, node: undefined, rest: [] };
      n = (n as Record<string, unknown>)[path[i]!];
    }
    return { done: true, node: n, rest: [] };
  }

  /** The array a marker points to; undefined when it points to no binary blob (a plain value of that shape). */
  private loadNd(marker: unknown[], source: BlobSource): unknown {
    const [ref, dtype, shape] = marker as [BlobRef, string, number[]];
    if (typeof ref !== this.refType) return undefined;
    const bytes = source.loadBytes(ref);
    if (bytes === undefined) return undefined;
    this.refBytes += bytes.byteLength;
    try {
      return Object.freeze(makeNdArray(dtype, shape, new Uint8Array(bytes)));
    } catch {
      return undefined;
    }
  }

  private isRef(node: unknown): boolean {
    // `hasOwn` first: most nodes are not markers, and Object.keys allocates (decode asks every node).
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, REF))
      return false;
    const keys = Object.keys(node);
    return (
      keys.length === 1 && keys[0] === REF && typeof (node as Record<string, unknown>)[REF] === this.refType
    );
  }
}

/** `o[k] = v`, except that an own "__proto__" key (JSON.parse makes them) stays data, not a prototype. */
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function isChunked(node: unknown): boolean {
  if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, CHUNKS))
    return false;
  const keys = Object.keys(node);
  return keys.length === 1 && keys[0] === CHUNKS && Array.isArray((node as Record<string, unknown>)[CHUNKS]);
}

function isNdShaped(node: unknown): boolean {
  if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, NDARRAY))
    return false;
  const keys = Object.keys(node);
  return (
    keys.length === 1 && keys[0] === NDARRAY && Array.isArray((node as Record<string, unknown>)[NDARRAY])
  );
}
