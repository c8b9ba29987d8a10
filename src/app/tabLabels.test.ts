import { describe, expect, it } from 'vitest';
import { shortRunId, tabLabels } from './tabLabels.ts';

const tab = (id: string, title: string, savedId: string | null = null, runId: string | null = null) => ({
  id,
  title,
  savedId,
  runId,
});

describe('tabLabels', () => {
  it('a unique title stands alone; the tooltip names the file', () => {
    const l = tabLabels([tab('a', 'Grid', 'grid'), tab('b', 'Other', 'other')]);
    expect(l.get('a')).toEqual({ title: 'Grid', detail: '', tooltip: 'Grid · graphs/grid.json' });
    expect(l.get('b')?.detail).toBe('');
  });

  it('files with the same title are told apart by their file; unsaved ones are numbered', () => {
    const l = tabLabels([
      tab('a', 'Twin', 'x/first'),
      tab('b', 'Twin', 'x/second'),
      tab('c', 'Untitled'),
      tab('d', 'Untitled'),
      tab('e', 'Twin'),
    ]);
    expect(l.get('a')?.detail).toBe('x/first');
    expect(l.get('b')?.detail).toBe('x/second');
    expect(l.get('c')?.detail).toBe('unsaved');
    expect(l.get('d')?.detail).toBe('unsaved 2');
    expect(l.get('e')).toEqual({ title: 'Twin', detail: 'unsaved', tooltip: 'Twin (not saved yet)' });
  });

  it("a run's tab always names its run, in short; the tooltip has the whole id", () => {
    const l = tabLabels([tab('r', 'Grid', null, 'exec_1796531922100_4e511f1')]);
    expect(l.get('r')).toEqual({
      title: 'Grid',
      detail: 'exec_…_4e511f1',
      tooltip: 'Grid · run exec_1796531922100_4e511f1',
    });
  });
});

describe('shortRunId', () => {
  it('keeps short ids whole, else the kind and the tail', () => {
    expect(shortRunId('exec_12')).toBe('exec_12');
    expect(shortRunId('batch_mxbcrez11ffa95b3_e20')).toBe('batch_…95b3_e20');
    expect(shortRunId('fork_1796531922100_aa11bb2')).toBe('fork_…_aa11bb2');
    expect(shortRunId('a1b2c3d4e5f6a7b8c9d0')).toBe('…a7b8c9d0');
  });
});
