// Rebuilt checkpoint records: same keys, order and values (by reference) whatever path builds them.
import { describe, expect, it } from 'vitest';
import { build } from './records.ts';

describe('build', () => {
  it('index keys (a keyed partition by episode) keep their values by reference and JSON', () => {
    const list = Object.freeze([{ x: 1 }]);
    const other = Object.freeze({ y: 2 });
    for (const keys of [['5'], ['250'], ['0', '3', 'a'], ['4294967294', 'b'], ['12', '7']]) {
      const vals = keys.map((_, i) => (i % 2 ? other : list));
      const r = build(keys, vals);
      const expected: Record<string, unknown> = {};
      keys.forEach((k, i) => (expected[k] = vals[i]));
      expect(JSON.stringify(r)).toBe(JSON.stringify(expected));
      expect(Object.keys(r)).toEqual(Object.keys(expected));
      keys.forEach((k, i) => expect(r[k]).toBe(vals[i]));
      expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
    }
  });

  it('primitives, nested placeholders-looking numbers, undefined and __proto__ survive', () => {
    const r = build(['1', '__proto__', 'n'], [3, { x: 1 }, 0]);
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
    expect(Object.hasOwn(r, '__proto__')).toBe(true);
    expect(JSON.stringify(r)).toBe('{"1":3,"__proto__":{"x":1},"n":0}');
    const u = build(['2', 'a'], [undefined, 1]);
    expect(Object.keys(u)).toEqual(['2', 'a']);
    expect(u['2']).toBeUndefined();
  });

  it('plain keys keep their order, also past the factory limits', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    const r = build(
      keys,
      keys.map((_, i) => i),
    );
    expect(Object.keys(r)).toEqual(keys);
    expect(r.k39).toBe(39);
  });
});
