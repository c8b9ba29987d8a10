// Batch episodes are one row per batch in the Runs menu, where the batch's newest episode was.
import { describe, expect, it } from 'vitest';
import { groupRuns } from './runGroups.ts';
import type { RunListItem } from './runHistory.api.ts';

function run(id: string, started: string, extra: Partial<RunListItem> = {}): RunListItem {
  return {
    id,
    graph_name: 'Grid Navigator',
    status: 'done',
    steps: 5,
    last_seq: 10,
    started_at: started,
    ended_at: started.replace(':00', ':30'),
    parent_run_id: null,
    parent_step: null,
    lineage: id,
    error: null,
    graph_version: null,
    ...extra,
  };
}
const ep = (batch: string, n: number, status = 'done') => ({ id: batch, episode: n, episodes: 3, status });

describe('groupRuns', () => {
  it("puts a batch's episodes under one row, in episode order, where its newest episode was", () => {
    const rows = groupRuns([
      run('later', '2025-01-01T10:05:00Z'),
      run('b_e2', '2025-01-01T10:04:00Z', { batch: ep('b', 2) }),
      run('b_e3', '2025-01-01T10:04:00Z', { batch: ep('b', 3) }),
      run('between', '2025-01-01T10:03:00Z', { batch: null }),
      run('b_e1', '2025-01-01T10:02:00Z', { batch: ep('b', 1), steps: 7 }),
      run('first', '2025-01-01T10:01:00Z'),
    ]);
    expect(rows.map((r) => (r.kind === 'run' ? r.run.id : `batch ${r.group.id}`))).toEqual([
      'later',
      'batch b',
      'between',
      'first',
    ]);
    const g = rows[1]!.kind === 'batch' ? rows[1]!.group : undefined;
    expect(g).toMatchObject({
      id: 'b',
      status: 'done',
      episodes: 3,
      steps: 17,
      started_at: '2025-01-01T10:02:00Z',
      ended_at: '2025-01-01T10:04:30Z',
    });
    expect(g!.runs.map((r) => r.id)).toEqual(['b_e1', 'b_e2', 'b_e3']);
  });

  it('a batch with an episode still running has no end yet', () => {
    const rows = groupRuns([
      run('b_e2', '2025-01-01T10:04:00Z', {
        batch: ep('b', 2, 'running'),
        status: 'running',
        ended_at: null,
      }),
      run('b_e1', '2025-01-01T10:02:00Z', { batch: ep('b', 1, 'running') }),
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.kind === 'batch' && rows[0]!.group).toMatchObject({ status: 'running', ended_at: null });
  });
});
