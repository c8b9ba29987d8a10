import { describe, expect, it } from 'vitest';
import { diffNodeStates, diffStates } from '../../domain/debug/stateDiff.ts';
import { compareRows } from './compareRows.ts';

const slot = (value: unknown, keyed?: Record<string, unknown>) => ({
  type: 'lastWrite',
  value_type: 'ANY',
  lifetime: 'forever',
  value,
  ...(keyed ? { keyed, keys: Object.keys(keyed).length } : {}),
});
const a = {
  containers: {
    m: { label: 'M', owner: 'home', states: { x: slot({ p: 1 }), same: slot(0), t: slot([], { '1': [1] }) } },
    quiet: { label: 'Q', owner: 'home', states: { s: slot(1) } },
  },
  nodeStates: { n: 1 },
};
const b = {
  containers: {
    m: {
      label: 'M',
      owner: 'home',
      states: { x: slot({ p: 2 }), same: slot(0), t: slot([], { '1': [1, 2] }) },
    },
    quiet: { label: 'Q', owner: 'home', states: { s: slot(1) } },
  },
  nodeStates: { n: 2 },
};

describe('compareRows', () => {
  const containers = diffStates(a, b);
  const nodes = diffNodeStates(a, b);
  it('lists changed containers and slots only, collapsed', () => {
    const rows = compareRows(containers, nodes, new Set(), true);
    expect(rows.map((r) => `${r.type}:${r.id}`)).toEqual([
      'container:m',
      'slot:m/x',
      'slot:m/t',
      'section:(node state)',
      'key:(node state)//n',
    ]);
  });
  it('shows every slot, and the diff lines and keys of expanded ones', () => {
    const rows = compareRows(containers, nodes, new Set(['m/x', 'm/t', 'm/t/1']), false);
    expect(rows.map((r) => `${r.type}:${r.id}`)).toEqual([
      'container:m',
      'slot:m/x',
      'line:m/x#0',
      'slot:m/same',
      'slot:m/t',
      'key:m/t/1',
      'line:m/t/1#0',
      'container:quiet',
      'slot:quiet/s',
      'section:(node state)',
      'key:(node state)//n',
    ]);
    const line = rows.find((r) => r.id === 'line:m/x#0'.slice(5));
    expect(line).toMatchObject({ line: { path: '$.p', kind: 'changed', old: 1, new: 2 } });
  });
});
