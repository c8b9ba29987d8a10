import { describe, expect, it } from 'vitest';
import { allContainerPaths, containerSummary, flattenTree, searchTree, valueAt } from './jsonTree.ts';

const doc = { a: { b: [10, 20, { c: 'needle' }] }, 'odd key': true, n: null };

describe('flattenTree', () => {
  it('shows only the children of expanded nodes, with JSON paths and depths', () => {
    expect(flattenTree(doc, new Set()).map((r) => r.path)).toEqual(['$']);
    const rows = flattenTree(doc, new Set(['$', '$.a', '$.a.b']));
    expect(rows.map((r) => [r.path, r.depth])).toEqual([
      ['$', 0],
      ['$.a', 1],
      ['$.a.b', 2],
      ['$.a.b[0]', 3],
      ['$.a.b[1]', 3],
      ['$.a.b[2]', 3],
      ['$["odd key"]', 1],
      ['$.n', 1],
    ]);
    expect(rows[2]).toMatchObject({ kind: 'array', size: 3, expanded: true });
    expect(rows[5]).toMatchObject({ kind: 'object', expandable: true, expanded: false });
    expect(containerSummary(rows[5]!)).toBe('{1 key}');
  });

  it('flattens a 100,000-item list into rows only for what is expanded', () => {
    // (How fast is a benchmark's question, not a test's: timing asserts flake on a loaded machine.)
    const big = Array.from({ length: 100_000 }, (_, i) => ({ i }));
    const rows = flattenTree(big, new Set(['$']));
    expect(rows).toHaveLength(100_001);
    expect(rows.at(-1)!.path).toBe('$[99999]');
    expect(rows.some((r) => r.path.endsWith('.i'))).toBe(false); // collapsed items have no child rows
    const one = flattenTree(big, new Set(['$', '$[7]']));
    expect(one).toHaveLength(100_002);
    expect(one.find((r) => r.path === '$[7].i')).toBeDefined();
  });

  it('renders $ndarray summaries as one leaf row', () => {
    const nd = { $ndarray: { dtype: 'uint8', shape: [2, 2], min: 0, max: 1, head: [0], kind: 'array' } };
    const rows = flattenTree({ img: nd }, new Set(['$', '$.img']));
    expect(rows[1]).toMatchObject({ kind: 'ndarray', expandable: false });
    expect(rows).toHaveLength(2);
  });
});

describe('searchTree', () => {
  it('finds keys and leaf values and lists the ancestors to expand', () => {
    const r = searchTree(doc, 'NEEDLE');
    expect(r.matches).toEqual(['$.a.b[2].c']);
    expect([...r.ancestors].sort()).toEqual(['$', '$.a', '$.a.b', '$.a.b[2]']);
    expect(searchTree(doc, 'odd').matches).toEqual(['$["odd key"]']);
    expect(searchTree(doc, '20').matches).toEqual(['$.a.b[1]']);
    expect(searchTree(doc, '  ').matches).toEqual([]);
  });

  it('stops at the match limit', () => {
    const r = searchTree(
      Array.from({ length: 50 }, () => 'x'),
      'x',
      10,
    );
    expect(r.matches).toHaveLength(10);
    expect(r.truncated).toBe(true);
  });
});

describe('paths', () => {
  it('reads the value at a path and lists container paths', () => {
    expect(valueAt(doc, '$.a.b[2].c')).toBe('needle');
    expect(valueAt(doc, '$["odd key"]')).toBe(true);
    expect(valueAt(doc, '$')).toBe(doc);
    expect(valueAt(doc, '$.zz.y')).toBeUndefined();
    expect([...allContainerPaths(doc)]).toEqual(['$', '$.a', '$.a.b', '$.a.b[2]']);
  });
});
