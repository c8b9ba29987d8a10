// Arrays from node services in checkpoints: raw bytes in a binary row, bit-exact back, stored once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeNdArray, type NdArray } from '../../domain/services/ndarray.ts';
import { deepFreeze } from '../../engine/freeze.ts';
import { BlobStore } from './blobStore.ts';
import { closeDatabase, openDatabase, type Db } from './database.ts';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => closeDatabase(db));

const depth = (seed: number) =>
  makeNdArray(
    'float32',
    [32, 32],
    new Uint8Array(Float32Array.from({ length: 1024 }, (_, i) => Math.sin(i * seed) * 1e3 + 0.1).buffer),
  );

describe('BlobStore with arrays', () => {
  it('stores array bytes without base64 and returns them bit-exactly', () => {
    const store = new BlobStore(db);
    const d = depth(3);
    const state = deepFreeze({
      obs: { depth: d, rgb: makeNdArray('uint8', [2, 2, 3], new Uint8Array(12).fill(9)) },
    });
    const root = db.transaction(() => store.put(state))();
    const fresh = new BlobStore(db);
    const back = fresh.get(root) as { obs: { depth: NdArray; rgb: NdArray } };
    expect(back.obs.depth.dtype).toBe('float32');
    expect(back.obs.depth.shape).toEqual([32, 32]);
    expect(Buffer.from(back.obs.depth.data).equals(Buffer.from(d.data))).toBe(true);
    expect([...back.obs.rgb.data]).toEqual(new Array(12).fill(9));
    // One binary row of exactly the array's size: no base64 inflation.
    const rows = db
      .prepare("SELECT length(json) AS n, typeof(json) AS t FROM blobs WHERE typeof(json) = 'blob'")
      .all();
    expect(rows).toContainEqual({ n: 4096, t: 'blob' });
  });

  it('stores an unchanged array once across checkpoints', () => {
    const store = new BlobStore(db);
    const d = depth(5);
    db.transaction(() => {
      store.put(deepFreeze({ step: 1, obs: d }));
      store.put(deepFreeze({ step: 2, obs: makeNdArray('float32', [32, 32], new Uint8Array(d.data)) }));
    })();
    const n = db.prepare("SELECT count(*) AS n FROM blobs WHERE typeof(json) = 'blob'").get() as {
      n: number;
    };
    expect(n.n).toBe(1);
  });

  it('a plain value shaped like the array marker still round-trips', () => {
    const store = new BlobStore(db);
    const tricky = deepFreeze({ x: { $swnd: [1, 'uint8', [1]] } });
    const root = db.transaction(() => store.put(tricky))();
    expect(new BlobStore(db).get(root)).toEqual(tricky);
  });
});
