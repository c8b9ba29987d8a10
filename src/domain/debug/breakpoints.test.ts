import { describe, expect, it } from 'vitest';
import {
  BreakpointSchema,
  hitOf,
  meets,
  nodeHitOf,
  describeBreakpoint,
  parseBreakExpression,
  valueAtPath,
  type Breakpoint,
} from './breakpoints.ts';

const write = (container: string, slot: string, after: unknown, key?: string) => ({
  type: 'state_written',
  data: { node_id: 'w', container, slot, step: 7, after, ...(key ? { key } : {}) },
});

const bp = (b: object): Breakpoint => BreakpointSchema.parse({ id: 'b1', ...b });

describe('breakpoint conditions', () => {
  it('reads paths into values', () => {
    const v = { a: { b: [10, { c: 'x' }] }, 'odd key': 1 };
    expect(valueAtPath(v, '')).toBe(v);
    expect(valueAtPath(v, 'a.b[0]')).toBe(10);
    expect(valueAtPath(v, '$.a.b[1].c')).toBe('x');
    expect(valueAtPath(v, '["odd key"]')).toBe(1);
    expect(valueAtPath(v, 'a.missing.deeper')).toBeUndefined();
    expect(valueAtPath(v, 'a..b')).toBeUndefined();
  });

  it('compares with every operator, never across types', () => {
    expect(meets(10, '>=', 10)).toBe(true);
    expect(meets(9, '>=', 10)).toBe(false);
    expect(meets('b', '>', 'a')).toBe(true);
    expect(meets('10', '>', 9)).toBe(false);
    expect(meets({ a: [1] }, '==', { a: [1] })).toBe(true);
    expect(meets([1, 2], '!=', [1, 2])).toBe(false);
    expect(meets('going north', 'contains', 'north')).toBe(true);
    expect(meets([{ x: 1 }], 'contains', { x: 1 })).toBe(true);
    expect(meets({ k: 1 }, 'contains', 'k')).toBe(true);
    expect(meets([1, 2, 3], 'length>', 2)).toBe(true);
    expect(meets('ab', 'length>', 2)).toBe(false);
    expect(meets(null, '<', 1)).toBe(false);
  });
});

describe('hits', () => {
  it('a write breakpoint hits on a write to its slot, naming the writer and the value', () => {
    const hit = hitOf([bp({ kind: 'write', container: 'm', slot: 's' })], write('m', 's', [1]), 3);
    expect(hit).toMatchObject({ breakpoint_id: 'b1', kind: 'write', node_id: 'w', step: 7, value: [1] });
    expect(hitOf([bp({ kind: 'write', container: 'm', slot: 's' })], write('m', 't', 1), 3)).toBeUndefined();
  });

  it('a match breakpoint hits only when the value after the write meets the condition', () => {
    const b = bp({ kind: 'match', container: 'g', slot: 'n', op: '>=', value: 10 });
    expect(hitOf([b], write('g', 'n', 9), 0)).toBeUndefined();
    expect(hitOf([b], write('g', 'n', 10), 0)?.description).toBe('g.n >= 10');
    const deep = bp({ kind: 'match', container: 'g', slot: 'o', path: 'pos[0]', op: '==', value: 3 });
    expect(hitOf([deep], write('g', 'o', { pos: [3, 4] }, 'ep1'), 0)).toMatchObject({ key: 'ep1' });
  });

  it('disabled breakpoints never hit; clear breakpoints hit on a signal that cleared their slot', () => {
    const off = bp({ kind: 'write', container: 'm', slot: 's', enabled: false });
    expect(hitOf([off], write('m', 's', 1), 0)).toBeUndefined();
    const clear = bp({ kind: 'clear', container: 'm', slot: 's' });
    const signal = { type: 'signal', data: { cleared: [{ container: 'm', slot: 's' }] } };
    expect(hitOf([clear], signal, 4)).toMatchObject({ kind: 'clear', step: 4, slot: 's' });
    expect(hitOf([clear], write('m', 's', 1), 4)).toBeUndefined();
  });

  it('node breakpoints', () => {
    const n = bp({ kind: 'node', node_id: 'policy' });
    expect(nodeHitOf([n], 'policy', 2)).toMatchObject({ kind: 'node', node_id: 'policy', step: 2 });
    expect(nodeHitOf([n], 'env', 2)).toBeUndefined();
  });
});

describe('the CLI expression', () => {
  it('parses conditions, JSON values, bare words and bare slots', () => {
    expect(parseBreakExpression('graph_state.step_count>=10')).toMatchObject({
      kind: 'match',
      container: 'graph_state',
      slot: 'step_count',
      path: '',
      op: '>=',
      value: 10,
    });
    expect(parseBreakExpression('log.last.status == done')).toMatchObject({
      container: 'log',
      slot: 'last',
      path: 'status',
      value: 'done',
    });
    expect(parseBreakExpression('m.trail length> 3')).toMatchObject({ op: 'length>', value: 3 });
    expect(parseBreakExpression('m.trail')).toMatchObject({ kind: 'write', container: 'm', slot: 'trail' });
    expect(parseBreakExpression('nonsense')).toHaveProperty('error');
  });

  it('parses write (optionally by a node) and clear conditions', () => {
    expect(parseBreakExpression('write m.trail')).toEqual({
      id: 'cli',
      enabled: true,
      kind: 'write',
      container: 'm',
      slot: 'trail',
    });
    expect(parseBreakExpression(' write m.trail by write_trail ')).toMatchObject({
      kind: 'write',
      by: 'write_trail',
    });
    expect(parseBreakExpression('m.trail by policy')).toMatchObject({ kind: 'write', by: 'policy' });
    expect(parseBreakExpression('clear graph_state.last_obs')).toEqual({
      id: 'cli',
      enabled: true,
      kind: 'clear',
      container: 'graph_state',
      slot: 'last_obs',
    });
    // a clear is by a signal, never by a node
    expect(parseBreakExpression('clear m.trail by policy')).toHaveProperty('error');
    // a container named like the keyword is still a container
    expect(parseBreakExpression('write.x == 3')).toMatchObject({
      kind: 'match',
      container: 'write',
      slot: 'x',
    });
    expect(describeBreakpoint({ kind: 'write', container: 'm', slot: 's', by: 'n', id: 'x' })).toBe(
      'write m.s by n',
    );
  });

  it("a write breakpoint `by` a node hits only that node's writes", () => {
    const by = bp({ kind: 'write', container: 'm', slot: 's', by: 'w' });
    expect(hitOf([by], write('m', 's', 1), 3)).toMatchObject({ kind: 'write', node_id: 'w' });
    const other = bp({ kind: 'write', container: 'm', slot: 's', by: 'someone_else' });
    expect(hitOf([other], write('m', 's', 1), 3)).toBeUndefined();
  });
});
