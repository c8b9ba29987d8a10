// The Merkle codec builds each node's JSON text once, from its children's texts. These tests hold it
// to the stored format: every blob text (and so every hash) is exactly what stringifying the encoded
// node gives — the text blobs already in a database were hashed with — and values round-trip.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeNdArray } from '../../domain/services/ndarray.ts';
import { jsonDigest, MerkleCodec, type BlobRef, type BlobSink, type BlobSource } from './merkle.ts';

/** An in-memory store: blobs by id, a dedup index by hash, identity memos. */
class MemoryStore implements BlobSink, BlobSource {
  readonly json = new Map<number, string>();
  readonly bytes = new Map<number, Uint8Array>();
  readonly byHash = new Map<string, number>();
  private memo = new WeakMap<object, unknown>();
  stores = 0;
  remembered(value: object): unknown {
    return this.memo.get(value);
  }
  remember(value: object, encoded: unknown): void {
    this.memo.set(value, encoded);
  }
  storeJson(json: string): BlobRef {
    this.stores++;
    const key = jsonDigest(json).toString('hex');
    let id = this.byHash.get(key);
    if (id === undefined) {
      id = this.json.size + this.bytes.size + 1;
      this.byHash.set(key, id);
      this.json.set(id, json);
    }
    return id;
  }
  storeBytes(bytes: Buffer): BlobRef {
    const id = this.json.size + this.bytes.size + 1;
    this.bytes.set(id, new Uint8Array(bytes));
    return id;
  }
  load(ref: BlobRef): unknown {
    const text = this.json.get(ref as number);
    if (text === undefined) throw new Error(`no blob ${String(ref)}`);
    return codec.decode(JSON.parse(text), this);
  }
  loadBytes(ref: BlobRef): Uint8Array | undefined {
    return this.bytes.get(ref as number);
  }
}

const codec = new MerkleCodec('number');

/**
 * The format written out plainly, as the codec did before it built texts incrementally: encode the
 * children, stringify the node, store it when its JSON is over 96 characters or it looks like a marker.
 */
function oracle(value: unknown, sink: MemoryStore): unknown {
  if (value === null || typeof value !== 'object') return value === undefined ? null : value;
  const seal = (node: unknown, marker: boolean): unknown => {
    const json = JSON.stringify(node);
    return json.length > 96 || marker ? { $sw: sink.storeJson(json) } : node;
  };
  const oneKey = (node: Record<string, unknown>, key: string, ok: (v: unknown) => boolean) =>
    Object.keys(node).length === 1 && key in node && ok(node[key]);
  if (Array.isArray(value)) {
    if (value.length <= 32)
      return seal(
        [...value].map((v) => oracle(v, sink)),
        false,
      );
    const chunks: unknown[] = [];
    for (let i = 0; i < value.length; i += 32)
      chunks.push(
        seal(
          [...value.slice(i, i + 32)].map((v) => oracle(v, sink)),
          false,
        ),
      );
    return seal({ $swc: chunks }, true);
  }
  const o: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    if (v !== undefined && typeof v !== 'function')
      Object.defineProperty(o, k, { value: oracle(v, sink), enumerable: true, writable: true });
  const marker =
    oneKey(o, '$sw', (v) => typeof v === 'number') ||
    oneKey(o, '$swc', Array.isArray) ||
    oneKey(o, '$swnd', Array.isArray);
  return seal(o, marker);
}

const deep = (n: number): unknown =>
  n === 0 ? { leaf: 'x'.repeat(40) } : { level: n, kids: [deep(n - 1), deep(n - 1)], tag: `t${n}` };

const samples: Record<string, unknown> = {
  'small object (inline)': { a: 1, b: 'two' },
  'nested over the inline limit': deep(4),
  'long list in chunks': Array.from({ length: 100 }, (_, i) => ({ i, name: `item ${i}` })),
  'list of exactly 32 and of 33': {
    a: Array.from({ length: 32 }, (_, i) => i),
    b: Array.from({ length: 33 }, (_, i) => i),
  },
  'odd keys and strings': {
    'quote"key': 'line\nbreak',
    'é\u2028': '\u0000',
    '10': 'int key',
    '2': 'int key first',
  },
  'non-JSON numbers and holes': {
    nan: NaN,
    inf: -Infinity,
    zero: -0,
    list: [1, undefined, () => 1, Symbol('s')],
  },
  'dropped members': { u: undefined, f: () => 1, s: Symbol('s'), kept: true },
  'values shaped like markers': { ref: { $sw: 3 }, chunks: { $swc: [1] }, nd: { $swnd: [1, 'f32', [1]] } },
  'own __proto__ key': JSON.parse('{"__proto__": {"x": 1}, "y": [1, 2]}'),
  'empty containers': { o: {}, a: [], n: null },
};

describe('MerkleCodec encode', () => {
  for (const [name, value] of Object.entries(samples))
    it(`stores exactly the texts stringifying each node gives: ${name}`, () => {
      const ours = new MemoryStore();
      const plain = new MemoryStore();
      const root = JSON.stringify(codec.encode(value, ours));
      expect(root).toBe(JSON.stringify(oracle(value, plain)));
      expect([...ours.json.values()]).toEqual([...plain.json.values()]);
    });

  it('reads every sample back as JSON would carry it (own __proto__ key kept as data)', () => {
    // Marker-shaped values are the known gap merkle.ts describes (they read back as markers).
    for (const [name, value] of Object.entries(samples)) {
      if (name === 'values shaped like markers') continue;
      const store = new MemoryStore();
      const root = JSON.stringify(codec.encode(value, store));
      expect(codec.decode(JSON.parse(root), store)).toEqual(JSON.parse(JSON.stringify(value)));
    }
    const store = new MemoryStore();
    const back = codec.decode(
      JSON.parse(JSON.stringify(codec.encode(samples['own __proto__ key'], store))),
      store,
    );
    expect(Object.keys(back as object)).toEqual(['__proto__', 'y']);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  });

  it('encodes a frozen value once: putting it again, alone or inside a new parent, stores nothing new', () => {
    const store = new MemoryStore();
    const value = Object.freeze({
      big: Object.freeze(deep(3)),
      list: Object.freeze(Array.from({ length: 40 }, (_, i) => i)),
    });
    const first = JSON.stringify(codec.encode(value, store));
    const stored = store.stores;
    expect(stored).toBeGreaterThan(0);
    expect(JSON.stringify(codec.encode(value, store))).toBe(first);
    expect(store.stores).toBe(stored);
    // A new parent is built around the memo's text: the same root as a fresh encoding gives.
    const parent = { step: 2, note: 'n'.repeat(100), value };
    const again = JSON.stringify(codec.encode(parent, store));
    expect(store.stores).toBe(stored + 1); // the parent alone
    expect(again).toBe(JSON.stringify(oracle(parent, new MemoryStore())));
  });

  it('takes a plain node a sink remembered itself (the PostgreSQL log does for decoded values)', () => {
    const store = new MemoryStore();
    const decoded = Object.freeze({ some: 'value read back' });
    store.remember(decoded, { $sw: 42 });
    const root = JSON.stringify(codec.encode({ step: 1, state: decoded }, store));
    expect(root).toBe('{"step":1,"state":{"$sw":42}}');
    expect(store.stores).toBe(0);
  });

  it('keeps node-service arrays as binary blobs beside the JSON ones', () => {
    const store = new MemoryStore();
    const nd = makeNdArray('uint8', [2, 2], new Uint8Array([1, 2, 3, 4]));
    const root = codec.encode({ image: nd, label: 'x' }, store);
    expect([...store.bytes.values()]).toEqual([new Uint8Array([1, 2, 3, 4])]);
    const back = codec.decode(JSON.parse(JSON.stringify(root)), store) as { image: typeof nd };
    expect(back.image.shape).toEqual([2, 2]);
    expect([...back.image.data]).toEqual([1, 2, 3, 4]);
  });

  it('hashes JSON blobs with plain sha1 of their text', () => {
    const text = '{"a":[1,2,3]}';
    expect(jsonDigest(text).equals(createHash('sha1').update(text).digest())).toBe(true);
  });
});
