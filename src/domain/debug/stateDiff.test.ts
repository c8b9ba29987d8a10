import { describe, expect, it } from 'vitest';
import type { ContainerSnapshot } from '../protocol/protocol.ts';
import { diffLines, diffNodeStates, diffStates, type SlotWriter } from './stateDiff.ts';
import { childPath } from './jsonPath.ts';

const slot = (value: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'lastWrite',
  value_type: 'ANY',
  lifetime: 'forever',
  value,
  ...extra,
});
const box = (states: Record<string, ReturnType<typeof slot>>): ContainerSnapshot => ({
  label: 'M',
  owner: 'home',
  states,
});
const w = (slot: string, node: string, seq: number, key?: string): SlotWriter => ({
  container: 'm',
  slot,
  ...(key !== undefined ? { key } : {}),
  node_id: node,
  step: 2,
  seq,
  run_id: 'r',
});

describe('diffStates', () => {
  it('marks added, removed, changed and same slots with old → new and the writer', () => {
    const a = { containers: { m: box({ same: slot(1), gone: slot('x'), n: slot(1) }) } };
    const b = { containers: { m: box({ same: slot(1), n: slot(2), fresh: slot([1]) }) } };
    const [m] = diffStates(a, b, [w('n', 'policy', 10), w('same', 'old_writer', 3), w('fresh', 'env', 11)]);
    const by = Object.fromEntries(m!.slots.map((s) => [s.slot, s]));
    expect(m!.status).toBe('changed');
    expect(by.same!.status).toBe('same');
    expect(by.same!.writer).toBeUndefined();
    expect(by.n).toMatchObject({ status: 'changed', old: 1, new: 2, writer: { node_id: 'policy' } });
    expect(by.n!.lines).toEqual([{ path: '$', kind: 'changed', old: 1, new: 2 }]);
    expect(by.fresh).toMatchObject({ status: 'added', new: [1], writer: { node_id: 'env' } });
    expect(by.gone).toMatchObject({ status: 'removed', old: 'x' });
    expect(m!.counts).toEqual({ added: 1, removed: 1, changed: 1, same: 1 });
    // b's order first, then what only a had.
    expect(m!.slots.map((s) => s.slot)).toEqual(['same', 'n', 'fresh', 'gone']);
  });

  it('diffs keyed partitions key by key, each with its own writer', () => {
    const a = { containers: { m: box({ t: slot([], { keys: 2, keyed: { '1': [1], '2': [2] } }) }) } };
    const b = { containers: { m: box({ t: slot([], { keys: 2, keyed: { '2': [2, 3], '3': [9] } }) }) } };
    const [m] = diffStates(a, b, [
      w('t', 'write_trail', 5, '1'),
      w('t', 'write_trail', 20, '2'),
      w('t', 'write_trail2', 21, '3'),
    ]);
    const t = m!.slots[0]!;
    expect(t.status).toBe('changed');
    expect(t.lines).toEqual([]);
    expect(t.keys.map((k) => [k.key, k.status])).toEqual([
      ['1', 'removed'],
      ['2', 'changed'],
      ['3', 'added'],
    ]);
    expect(t.keys[1]!.writer?.node_id).toBe('write_trail');
    // Key 1 was evicted (no event): its old writer is not named as the remover.
    expect(t.keys[0]!.writer).toBeUndefined();
    expect(t.keys[1]!.lines).toEqual([{ path: '$["2"][1]', kind: 'added', new: 3 }]);
    expect(t.keys[2]!.writer?.node_id).toBe('write_trail2');
    // The slot's writer is the latest of any of its keys.
    expect(t.writer?.node_id).toBe('write_trail2');
  });

  it('reports added and removed containers and changed slot metadata', () => {
    const a = { containers: { old: box({ s: slot(1) }), m: box({ s: slot(1) }) } };
    const b = {
      containers: { m: box({ s: slot(1, { type: 'counter' }) }), nu: box({ s: slot(1) }) },
    };
    const out = diffStates(a, b);
    expect(out.map((c) => [c.id, c.status])).toEqual([
      ['m', 'changed'],
      ['nu', 'added'],
      ['old', 'removed'],
    ]);
    expect(out[0]!.slots[0]!.meta).toEqual(['reducer lastWrite → counter']);
  });
});

describe('diffLines', () => {
  it('walks nested objects and arrays into JSON paths', () => {
    const lines = diffLines(
      { a: { b: [1, 2, 3], c: 'x' }, 'odd key': 1, gone: true },
      { a: { b: [1, 2, 4, 5], c: 'y' }, 'odd key': 2, added: null },
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        { path: '$.a.b[2]', kind: 'removed', old: 3 },
        { path: '$.a.b[2]', kind: 'added', new: 4 },
        { path: '$.a.b[3]', kind: 'added', new: 5 },
        { path: '$.a.c', kind: 'changed', old: 'x', new: 'y' },
        { path: '$["odd key"]', kind: 'changed', old: 1, new: 2 },
        { path: '$.gone', kind: 'removed', old: true },
        { path: '$.added', kind: 'added', new: null },
      ]),
    );
    expect(lines).toHaveLength(7);
    expect(diffLines({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });

  it('keeps the identity of items with ids when a list shifts (a move, not n changes)', () => {
    const lines = diffLines(
      [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
      [{ id: 'c' }, { id: 'a' }, { id: 'b', v: 1 }],
    );
    expect(lines).toContainEqual({ path: '$[2]', kind: 'moved', old: 2, new: 0 });
    expect(lines).toContainEqual({ path: '$[2].v', kind: 'added', new: 1 });
  });

  it('builds paths', () => {
    expect(childPath(childPath(childPath('$', 'a'), 3), 'x-y')).toBe('$.a[3]["x-y"]');
  });
});

describe('diffNodeStates', () => {
  it('compares node-local state by node id', () => {
    const out = diffNodeStates(
      { containers: {}, nodeStates: { p: { n: 1 } } },
      { containers: {}, nodeStates: { p: { n: 2 }, q: 1 } },
    );
    expect(out.map((k) => [k.key, k.status])).toEqual([
      ['p', 'changed'],
      ['q', 'added'],
    ]);
  });
});
