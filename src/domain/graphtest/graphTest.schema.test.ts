import { describe, expect, it } from 'vitest';
import { parseGraphTest, parseGraphTestText } from './graphTest.schema.ts';
import { parseSlotPath, walkPath } from './slotPath.ts';

const valid = {
  graph: 'g.json',
  steps: 10,
  expect: [{ step: 5, slot: 'graph_state.step_count', equals: 5 }],
};

/** The `path: message` pairs of a rejected test file. */
function errorsOf(value: unknown): { path: string; code: string; message: string }[] {
  const r = parseGraphTest(value);
  if (r.ok) throw new Error('expected the test file to be rejected');
  return r.errors.map(({ path, code, message }) => ({ path, code, message }));
}

describe('parseGraphTest: valid files', () => {
  it('normalizes each expectation into a target and one check', () => {
    const r = parseGraphTest({
      name: 'memory',
      graph: 'g.json',
      expect: [
        { step: 'last', slot: 'c.s[k].a[0]', equals: { x: null } },
        { step: 2, slot: 'c.s', length: 3, name: 'three' },
        { step: 2, slot: 'c.s', matches: '^go' },
        { step: 2, slot: 'c.s[k]', cleared: false },
      ],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.test.steps).toBeUndefined();
    expect(r.test.name).toBe('memory');
    expect(r.test.expect.map((e) => e.check)).toEqual([
      { kind: 'equals', value: { x: null } },
      { kind: 'length', value: 3 },
      { kind: 'matches', value: '^go' },
      { kind: 'cleared', value: false },
    ]);
    expect(r.test.expect[0]!.target).toEqual({ container: 'c', slot: 's', key: 'k', path: ['a', 0] });
    expect(r.test.expect[1]!.name).toBe('three');
  });

  it('accepts equals: null (a JSON value like any other)', () => {
    const r = parseGraphTest({ graph: 'g.json', expect: [{ step: 1, slot: 'c.s', equals: null }] });
    expect(r.ok && r.test.expect[0]!.check).toEqual({ kind: 'equals', value: null });
  });
});

describe('parseGraphTest: errors name the JSON path', () => {
  it('missing top-level fields', () => {
    expect(errorsOf({ expect: [] })).toEqual([
      { path: '$.graph', code: 'missing-field', message: 'required field is missing' },
      { path: '$.expect', code: 'invalid-value', message: 'expect must list at least one expectation' },
    ]);
  });

  it('wrong types and out-of-range numbers', () => {
    const errs = errorsOf({
      graph: 7,
      steps: 0,
      expect: [
        { step: '5', slot: 'c.s', length: -1 },
        { step: 1.5, slot: 3, equals: 1 },
      ],
    });
    expect(errs.map((e) => e.path)).toEqual([
      '$.graph',
      '$.steps',
      '$.expect[0].step',
      '$.expect[0].length',
      '$.expect[1].step',
      '$.expect[1].slot',
    ]);
    expect(errs[2]!.message).toBe('step must be a root step number (1, 2, …) or "last"');
    expect(errs[3]!.message).toContain('length must be a whole number');
  });

  it('unknown keys, at the top and in an expectation', () => {
    const errs = errorsOf({ ...valid, expects: [], expect: [{ step: 1, slot: 'c.s', equal: 5 }] });
    expect(errs).toEqual([
      expect.objectContaining({ path: '$.expect[0].equal', code: 'unknown-key' }),
      expect.objectContaining({ path: '$.expects', code: 'unknown-key' }),
    ]);
    expect(errs[0]!.message).toContain('equals, length, matches, cleared');
    expect(errs[1]!.message).toContain('known: graph, steps');
  });

  it('exactly one matcher per expectation', () => {
    const errs = errorsOf({
      graph: 'g.json',
      expect: [
        { step: 1, slot: 'c.s', equals: 1 },
        { step: 1, slot: 'c.s' },
        { step: 1, slot: 'c.s', equals: 1, length: 1 },
      ],
    });
    expect(errs).toEqual([
      expect.objectContaining({ path: '$.expect[1]', code: 'missing-matcher' }),
      expect.objectContaining({ path: '$.expect[2]', code: 'several-matchers' }),
    ]);
    expect(errs[1]!.message).toContain('found equals and length');
  });

  it('slot paths, regexes, cleared on a value path, steps past the run', () => {
    const errs = errorsOf({
      graph: 'g.json',
      steps: 4,
      expect: [
        { step: 1, slot: 'nodot', equals: 1 },
        { step: 1, slot: 'c.s', matches: '(' },
        { step: 1, slot: 'c.s.a', cleared: true },
        { step: 5, slot: 'c.s', equals: 1 },
      ],
    });
    expect(errs.map((e) => [e.path, e.code])).toEqual([
      ['$.expect[0].slot', 'invalid-slot'],
      ['$.expect[1].matches', 'invalid-regex'],
      ['$.expect[2].slot', 'invalid-slot'],
      ['$.expect[3].step', 'step-out-of-range'],
    ]);
    expect(errs[0]!.message).toContain('slot path "nodot"');
    expect(errs[3]!.message).toBe('step 5 is after the last step run (steps: 4)');
  });

  it('a test file that is not an object', () => {
    expect(errorsOf([1])).toEqual([expect.objectContaining({ path: '$', code: 'invalid-value' })]);
  });
});

describe('parseGraphTestText', () => {
  it('invalid JSON: one error with line and column', () => {
    const r = parseGraphTestText('{\n  "graph": "g.json",\n  "expect": [}\n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ code: 'invalid-json', path: '$', line: 3, column: 14 });
    expect(r.errors[0]!.message).toMatch(/^invalid JSON at line 3:14: /);
  });

  it('valid text with a BOM', () => {
    expect(parseGraphTestText(`\uFEFF${JSON.stringify(valid)}`).ok).toBe(true);
  });
});

describe('parseSlotPath', () => {
  const ok = (text: string) => {
    const r = parseSlotPath(text);
    if (!r.ok) throw new Error(r.message);
    return r.value;
  };
  it('container.slot, partitions, JSON paths', () => {
    expect(ok('graph_state.step_count')).toEqual({ container: 'graph_state', slot: 'step_count', path: [] });
    expect(ok('m.trail[3]')).toEqual({ container: 'm', slot: 'trail', key: '3', path: [] });
    expect(ok('m.trail[ep 1].0.pos[1]')).toEqual({
      container: 'm',
      slot: 'trail',
      key: 'ep 1',
      path: ['0', 'pos', 1],
    });
    expect(ok('m.s["a.b]"]["odd key"].x')).toEqual({
      container: 'm',
      slot: 's',
      key: 'a.b]',
      path: ['odd key', 'x'],
    });
  });
  it('rejects what it cannot read, saying where', () => {
    const msg = (t: string) => {
      const r = parseSlotPath(t);
      return r.ok ? '' : r.message;
    };
    expect(msg('')).toContain('missing container name');
    expect(msg('c')).toContain('missing "." and slot name');
    expect(msg('c.')).toContain('missing slot name');
    expect(msg('c.s[')).toContain('missing ]');
    expect(msg('c.s[]')).toContain('empty []');
    expect(msg('c.s.a..b')).toContain('missing name after "."');
    expect(msg('c.s[k][x]')).toContain('[x] is neither an index nor a quoted key');
    expect(msg('c.s["x]')).toContain('unterminated');
  });
});

describe('walkPath', () => {
  const v = { a: [{ b: 1 }, { b: 2 }], n: null };
  it('walks names into objects and indices (numbers or digits) into lists', () => {
    expect(walkPath(v, ['a', 1, 'b'], 'c.s')).toEqual({ found: true, value: 2 });
    expect(walkPath(v, ['a', '0', 'b'], 'c.s')).toEqual({ found: true, value: 1 });
    expect(walkPath(v, [], 'c.s')).toEqual({ found: true, value: v });
  });
  it('says where a path runs out', () => {
    expect(walkPath(v, ['a', 2], 'c.s')).toEqual({
      found: false,
      message: 'c.s.a has 2 item(s); there is no index 2',
    });
    expect(walkPath(v, ['z'], 'c.s')).toEqual({ found: false, message: 'c.s has no key "z" (keys: a, n)' });
    expect(walkPath(v, ['n', 'x'], 'c.s')).toEqual({
      found: false,
      message: 'c.s.n is null; cannot take "x"',
    });
    expect(walkPath(v, ['a', 'x'], 'c.s')).toEqual({
      found: false,
      message: 'c.s.a is a list; "x" is not an index',
    });
  });
});
