// @vitest-environment happy-dom
// Which run notices the editor raises: its own starts (even when the server's notice arrives before
// the start's answer) never; the shown run replaced from elsewhere; a run of an open graph; branches.
import { afterEach, describe, expect, it } from 'vitest';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { editorStore } from '../store/editor.store.ts';
import { initialRunState, runStore } from './run.store.ts';
import { restoreLabel } from './RestoreButton.tsx';
import { duration } from './RunsMenu.tsx';
import {
  askConfirm,
  followedRun,
  noticesStore,
  onRunBranched,
  onRunStarted,
  ownStart,
} from './runNotices.ts';

afterEach(() => {
  runStore.setState(initialRunState());
  noticesStore.setState({ notices: [], confirm: null });
});

const started = (run_id: string, graph_name: string, replaced: string | null = null) => ({
  run_id,
  graph_name,
  status: 'running',
  parent_run_id: null,
  replaced: replaced ? { run_id: replaced, graph_name, step: 3 } : null,
});
const texts = () => noticesStore.getState().notices.map((n) => `${n.kind}: ${n.text}`);

describe('run notices', () => {
  it("an own start is recognised even when the server's notice comes before the start's answer", async () => {
    runStore.setState({ runId: 'exec_old' });
    let answer: (v: { execution_id: string }) => void = () => undefined;
    const start = ownStart(
      () => new Promise<{ execution_id: string }>((res) => (answer = res)),
      (r) => r.execution_id,
    );
    onRunStarted(started('exec_mine', 'G', 'exec_old'));
    expect(texts()).toEqual([]);
    answer({ execution_id: 'exec_mine' });
    await start;
    expect(texts()).toEqual([]);
  });

  it('the shown run replaced from elsewhere says which run stopped and which started', () => {
    runStore.setState({ runId: 'exec_a' });
    onRunStarted(started('exec_b', 'Grid', 'exec_a'));
    expect(texts()).toEqual([
      'replaced: Run exec_a was stopped: a new run exec_b of graph Grid started from elsewhere',
    ]);
    // The same run announced again replaces the notice instead of adding one.
    onRunStarted(started('exec_b', 'Grid', 'exec_a'));
    expect(texts()).toHaveLength(1);
  });

  it('a run of a graph open in a tab is offered; of a graph not open, nothing', () => {
    const g = { ...emptyGraph('Open Graph') };
    editorStore.getState().openTab({ graph: g, title: 'Open Graph' });
    onRunStarted(started('exec_x', 'Not Open'));
    expect(texts()).toEqual([]);
    onRunStarted(started('exec_y', 'Open Graph'));
    expect(texts()).toEqual(['started: Run exec_y of graph Open Graph (open here) started from elsewhere']);
    // A later start that replaces exec_y makes that offer stale.
    onRunStarted(started('exec_z', 'Not Open', 'exec_y'));
    expect(texts()).toEqual([]);
  });

  it('an offer to follow a run goes once that run is followed, whichever way', () => {
    const g = { ...emptyGraph('Followed Graph') };
    editorStore.getState().openTab({ graph: g, title: 'Followed Graph' });
    onRunStarted(started('exec_f', 'Followed Graph'));
    runStore.setState({ runId: 'exec_a' });
    onRunBranched({ run_id: 'branch_f', of_run: 'exec_a', from_step: 1, to_step: 2 });
    expect(texts()).toHaveLength(2);
    followedRun('exec_other');
    expect(texts()).toHaveLength(2);
    followedRun('exec_f');
    expect(texts()).toEqual(['branched: Steps 1–2 of run exec_a are kept as branch branch_f']);
  });

  it('a branch of the shown run is announced with its steps; of another run, not', () => {
    runStore.setState({ runId: 'exec_a' });
    onRunBranched({ run_id: 'branch_1', of_run: 'exec_other', from_step: 3, to_step: 9 });
    expect(texts()).toEqual([]);
    onRunBranched({ run_id: 'branch_2', of_run: 'exec_a', from_step: 21, to_step: 55 });
    expect(texts()).toEqual(['branched: Steps 21–55 of run exec_a are kept as branch branch_2']);
  });

  it('askConfirm resolves with the answer and a second question cancels the first', async () => {
    const first = askConfirm('one?');
    const second = askConfirm('two?');
    expect(await first).toBe(false);
    expect(noticesStore.getState().confirm?.text).toBe('two?');
    noticesStore.getState().confirm?.resolve(true);
    expect(await second).toBe(true);
    expect(noticesStore.getState().confirm).toBeNull();
  });

  it('the Restore label says which steps are kept; durations read short', () => {
    expect(restoreLabel(null, 10)).toBe('Restore');
    expect(restoreLabel(20, 55)).toBe('Restore to step 20: steps 21–55 are kept as branch');
    expect(restoreLabel(9, 10)).toBe('Restore to step 9: step 10 is kept as branch');
    expect(restoreLabel(10, 10)).toBe('Restore to step 10');
    const t0 = '2026-01-01T00:00:00.000Z';
    expect(duration(t0, '2026-01-01T00:00:42.000Z')).toBe('42s');
    expect(duration(t0, '2026-01-01T00:01:05.000Z')).toBe('1m 05s');
    expect(duration(t0, null, Date.parse('2026-01-01T01:03:00.000Z'))).toBe('1h 3m');
  });
});
