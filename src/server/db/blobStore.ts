// Content-addressed storage of checkpoint states (a Merkle DAG). Every object/array whose JSON is
// bigger than INLINE_LIMIT is stored once under the hash of its encoding, with its big children
// replaced by `{"$sw": hash}` references. A step that changes one slot therefore writes only the
// path from that slot up to the root (a few small rows); unchanged containers, slots and node states
// are shared with every earlier checkpoint. The engine deep-freezes all state, so a frozen object's
// hash can be cached by identity and is never re-serialized while it stays shared.
// Reserved: an object whose only key is "$sw" with a string value is read back as a reference.
import { createHash } from 'node:crypto';
import type { Db } from './database.ts';

const INLINE_LIMIT = 96;
const REF = '$sw';

type Encoded = unknown;

export class BlobStore {
  private readonly insert;
  private readonly select;
  private readonly known = new Set<string>();
  /** Frozen object → its encoded form (inline value or ref), valid because frozen objects never change. */
  private byIdentity = new WeakMap<object, Encoded>();
  /** Decoded blobs (shared, frozen); bounded so a long server life does not grow without limit. */
  private readonly decoded = new Map<string, unknown>();

  constructor(private readonly db: Db, private readonly cacheSize = 50_000) {
    this.insert = db.prepare('INSERT OR IGNORE INTO blobs (hash, json) VALUES (?, ?)');
    this.select = db.prepare<[string], { json: string }>('SELECT json FROM blobs WHERE hash = ?');
  }

  /** Stores `value` and returns its root reference (JSON text of the encoded root). Call inside a transaction. */
  put(value: unknown): string {
    return JSON.stringify(this.encode(value));
  }

  private encode(value: unknown): Encoded {
    if (value === null || typeof value !== 'object') return value === undefined ? null : value;
    const cached = this.byIdentity.get(value);
    if (cached !== undefined) return cached;
    let node: unknown;
    if (Array.isArray(value)) node = value.map((v) => this.encode(v));
    else {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) if (v !== undefined && typeof v !== 'function') o[k] = this.encode(v);
      node = o;
    }
    const json = JSON.stringify(node);
    let out: Encoded = node;
    if (json.length > INLINE_LIMIT || isRefShaped(node)) {
      const hash = createHash('sha1').update(json).digest('base64url').slice(0, 22);
      if (!this.known.has(hash)) {
        this.insert.run(hash, json);
        this.known.add(hash);
      }
      out = { [REF]: hash };
    }
    if (Object.isFrozen(value)) this.byIdentity.set(value, out);
    return out;
  }

  /** Rebuilds the value stored under a root reference (shared sub-objects are frozen and reused). */
  get(root: string): unknown {
    return this.decode(JSON.parse(root));
  }

  private decode(node: unknown): unknown {
    if (node === null || typeof node !== 'object') return node;
    if (isRefShaped(node)) return this.load((node as Record<string, string>)[REF] ?? '');
    if (Array.isArray(node)) return Object.freeze(node.map((v) => this.decode(v)));
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) o[k] = this.decode(v);
    return Object.freeze(o);
  }

  private load(hash: string): unknown {
    const hit = this.decoded.get(hash);
    if (hit !== undefined) return hit;
    const row = this.select.get(hash);
    if (!row) throw new Error(`checkpoint blob ${hash} is missing from the database`);
    const value = this.decode(JSON.parse(row.json));
    if (this.decoded.size >= this.cacheSize) this.decoded.clear();
    this.decoded.set(hash, value);
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
  return keys.length === 1 && keys[0] === REF && typeof (node as Record<string, unknown>)[REF] === 'string';
}
