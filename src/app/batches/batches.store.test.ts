import { describe, expect, it } from 'vitest';
import type { BatchDetail, BatchListItem, BatchProgress } from '../../domain/batch/progress.ts';
import {
  initialBatchesState,
  isListed,
  itemOf,
  withDetail,
  withFormValues,
  withList,
  withNotice,
  withSelected,
} from './batches.store.ts';
import { needsDetail } from './batchSync.ts';
import { episodeRow, progress } from './batch.testutil.ts';

const item = (id: string, created: string, p: Partial<BatchProgress> = {}): BatchListItem => ({
  batch: {
    id,
    graph_name: 'Grid',
    graph_version: null,
    episodes: 8,
    workers: 2,
    seed: 1,
    sets: [],
    mode: 'embedded',
    status: p.status ?? 'running',
    created_at: created,
    ended_at: null,
    error: null,
  },
  progress: progress(p),
});

const detail = (id: string, p: Partial<BatchProgress>, episodes = 0): BatchDetail => ({
  ...item(id, '2026-01-01T00:00:00Z', p),
  episodes: Array.from({ length: episodes }, (_, i) => episodeRow(i + 1)),
  aggregate: { episodes: 8, completed: episodes, failed: 0, success_rate: 1, mean_steps: 3, metrics: {} },
});

describe('batches store', () => {
  it('lists newest first and shows the newest when nothing is picked', () => {
    const s = withList(initialBatchesState(), [
      item('a', '2026-01-01T00:00:00Z'),
      item('b', '2026-01-02T00:00:00Z'),
    ]);
    expect(s.list?.map((i) => i.batch.id)).toEqual(['b', 'a']);
    expect(s.selectedId).toBe('b');
    expect(withList({ ...s, selectedId: 'a' }, s.list!).selectedId).toBe('a');
  });

  it('a notice moves the bar of its batch in the list and in the shown detail', () => {
    let s = withList(initialBatchesState(), [item('a', '2026-01-01T00:00:00Z')]);
    s = withDetail(s, detail('a', { completed: 1 }));
    s = withNotice(s, { batch_id: 'a', ...progress({ completed: 4, running: 2, episodes_per_s: 3 }) });
    expect(s.list?.[0]?.progress.completed).toBe(4);
    expect(s.detail?.progress).toMatchObject({ completed: 4, running: 2, episodes_per_s: 3 });
    expect(itemOf(s, 'a')?.progress.completed).toBe(4);
  });

  it('a notice for another or an unknown batch changes nothing (the caller refetches the list)', () => {
    const s = withList(initialBatchesState(), [item('a', '2026-01-01T00:00:00Z')]);
    expect(withNotice(s, { batch_id: 'zz', ...progress({ completed: 1 }) })).toBe(s);
    expect(isListed(s, 'zz')).toBe(false);
    expect(isListed(s, 'a')).toBe(true);
  });

  it('a list or detail answer older than a notice keeps the notice’s progress', () => {
    let s = withList(initialBatchesState(), [item('a', '2026-01-01T00:00:00Z')]);
    s = withNotice(s, { batch_id: 'a', ...progress({ completed: 6 }) });
    s = withList(s, [item('a', '2026-01-01T00:00:00Z', { completed: 2 })]);
    expect(s.list?.[0]?.progress.completed).toBe(6);
    s = withDetail(s, detail('a', { completed: 2 }, 2));
    expect(s.detail?.progress.completed).toBe(6);
    expect(s.detail?.episodes).toHaveLength(2);
  });

  it('drops a detail of a batch the user has left meanwhile', () => {
    let s = withList(initialBatchesState(), [
      item('a', '2026-01-01T00:00:00Z'),
      item('b', '2026-01-02T00:00:00Z'),
    ]);
    s = withSelected(s, 'a');
    expect(withDetail(s, detail('b', {}))).toBe(s);
    expect(withSelected(withDetail(s, detail('a', {})), 'b').detail).toBeNull();
  });

  it('polls the shown batch until it has ended and its table has every finished episode', () => {
    let s = withSelected(initialBatchesState(), 'a');
    expect(needsDetail(s)).toBe(true);
    s = withDetail(s, detail('a', { completed: 3 }, 3));
    expect(needsDetail(s)).toBe(true); // still running
    s = withDetail(s, detail('a', { completed: 8, status: 'done' }, 7));
    expect(needsDetail(s)).toBe(true); // one finished episode not in the table yet
    s = withDetail(s, detail('a', { completed: 8, status: 'done' }, 8));
    expect(needsDetail(s)).toBe(false);
    // A notice saying "done" before the fetched record does: the next poll still fetches.
    let t = withDetail(withSelected(initialBatchesState(), 'a'), detail('a', { completed: 7 }, 7));
    t = withNotice(t, { batch_id: 'a', ...progress({ completed: 8, status: 'done' }) });
    expect(needsDetail(t)).toBe(true);
    expect(needsDetail(initialBatchesState())).toBe(false);
  });

  it('typing in a field clears that field’s errors only', () => {
    const s = initialBatchesState();
    const withErrors = {
      ...s,
      form: {
        ...s.form,
        errors: [
          { field: 'overrides' as const, message: 'bad', line: 1 },
          { field: 'episodes' as const, message: 'required' },
        ],
      },
    };
    const next = withFormValues(withErrors, { overrides: 'step_budget=15' });
    expect(next.form.values.overrides).toBe('step_budget=15');
    expect(next.form.errors.map((e) => e.field)).toEqual(['episodes']);
  });
});
