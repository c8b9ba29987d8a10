import { describe, expect, it } from 'vitest';
import { deepEqual, getReducer, initialValue, isKnownReducer, reduce } from './reducers.ts';

const fold = (r: string, writes: unknown[], config = {}) =>
  writes.reduce((cur, w) => reduce(r, cur, w, config), initialValue(r, config));

describe('reducers', () => {
  it('accumulator appends and trims to max_size', () => {
    expect(fold('accumulator', [0, 1, 2, 3, 4], { max_size: 3 })).toEqual([2, 3, 4]);
  });

  it('accumulator trims a list already longer than max_size to the newest entries', () => {
    const cur = Object.freeze([1, 2, 3, 4, 5]);
    expect(reduce('accumulator', cur, [6], { max_size: 2 })).toEqual([5, [6]]);
    expect(reduce('accumulator', cur, 6, { max_size: 1 })).toEqual([6]);
    expect(cur).toEqual([1, 2, 3, 4, 5]);
  });

  it('accumulator without max_size keeps every write (a list write is one item)', () => {
    expect(fold('accumulator', [0, 1, 2, 3, [4]])).toEqual([0, 1, 2, 3, [4]]);
  });

  it('lastWrite keeps only the most recent write', () => {
    expect(fold('lastWrite', ['a', 'b', 'c'])).toBe('c');
    expect(initialValue('lastWrite', {})).toBeNull();
  });

  it('counter adds from 0', () => {
    expect(fold('counter', [2, 3])).toBe(5);
    expect(() => reduce('counter', 0, 'x', {})).toThrow(/counter expects a number/);
  });

  it('merge is a shallow dict merge', () => {
    expect(
      fold('merge', [
        { a: 1, n: { x: 1 } },
        { b: 2, n: { y: 2 } },
      ]),
    ).toEqual({ a: 1, b: 2, n: { y: 2 } });
    expect(() => reduce('merge', {}, 3, {})).toThrow(/object update/);
  });

  it('union keeps insertion order without deep-equal duplicates', () => {
    expect(fold('union', [1, { a: [1] }, 1, [2, { a: [1] }, 3], 2])).toEqual([1, { a: [1] }, 2, 3]);
  });

  it('union returns the same array when nothing is new (structural sharing)', () => {
    const cur = ['a', 'b'];
    expect(reduce('union', cur, 'a', {})).toBe(cur);
  });

  it('byKey folds each field with its own reducer', () => {
    const config = {
      fields: { log: 'accumulator', best: 'lastWrite', n: 'counter', tags: 'union', meta: 'merge' },
    };
    expect(initialValue('byKey', config)).toEqual({ log: [], best: null, n: 0, tags: [], meta: {} });
    const out = fold(
      'byKey',
      [
        { log: 'a', n: 1 },
        { log: 'b', best: { v: 1 }, tags: 'x' },
        { n: 2, tags: ['x', 'y'], meta: { k: 1 } },
      ],
      config,
    );
    expect(out).toEqual({ log: ['a', 'b'], best: { v: 1 }, n: 3, tags: ['x', 'y'], meta: { k: 1 } });
  });

  it('byKey rejects an undeclared field naming it and the declared fields', () => {
    expect(() => reduce('byKey', {}, { nope: 1 }, { fields: { a: 'counter', b: 'lastWrite' } })).toThrow(
      /undeclared field 'nope' \(declared fields: a, b\)/,
    );
  });

  it('unknown reducer behaves as lastWrite', () => {
    expect(isKnownReducer('ephemeral')).toBe(false);
    expect(getReducer('ephemeral')).toBe(getReducer('lastWrite'));
    expect(fold('ephemeral', [1, 2])).toBe(2);
  });

  it('initial_value is deep-copied every time', () => {
    const config = { initial_value: { list: ['seed'] } };
    const a = initialValue('lastWrite', config) as { list: string[] };
    a.list.push('mutated');
    expect(initialValue('lastWrite', config)).toEqual({ list: ['seed'] });
  });

  it('reducers never mutate their inputs', () => {
    const cur = Object.freeze([1, 2]);
    const dict = Object.freeze({ a: 1 });
    expect(() => reduce('accumulator', cur, 3, { max_size: 2 })).not.toThrow();
    expect(() => reduce('merge', dict, { b: 2 }, {})).not.toThrow();
    expect(() => reduce('union', cur, 3, {})).not.toThrow();
  });

  it('deepEqual compares structure', () => {
    expect(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEqual([1], { 0: 1 })).toBe(false);
  });
});
