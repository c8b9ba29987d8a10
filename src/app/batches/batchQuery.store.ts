// The Batches view's query box: a condition of the breakpoint grammar asked of every stored step of
// the selected batch (GET /api/batches/{id}/query). While a result is shown the episode table lists
// only the episodes it hit, and each hit opens that episode's run at that step.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { BatchQueryResult } from '../../domain/batch/evaluation.schema.ts';
import { inspect, followRun } from '../run/run.actions.ts';
import { TIMELINE_TAB } from '../run/timelineTab.ts';
import { editorStore } from '../store/editor.store.ts';
import { evaluationApi } from './evaluation.api.ts';

export interface BatchQueryState {
  /** The condition as typed. */
  text: string;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** The last answer (for `result.batch_id`; another batch's is not applied). */
  result: BatchQueryResult | null;
  elapsedMs: number | null;
  serial: number;
}

export const batchQueryStore = createStore<BatchQueryState>()(() => ({
  text: '',
  status: 'idle',
  error: null,
  result: null,
  elapsedMs: null,
  serial: 0,
}));

export function useBatchQuery<T>(selector: (s: BatchQueryState) => T): T {
  return useStore(batchQueryStore, selector);
}

export async function runBatchQuery(batchId: string): Promise<void> {
  const text = batchQueryStore.getState().text.trim();
  if (!text) return clearBatchQuery();
  const serial = batchQueryStore.getState().serial + 1;
  batchQueryStore.setState({ status: 'loading', error: null, serial });
  const started = performance.now();
  try {
    const result = await evaluationApi.query(batchId, text);
    if (batchQueryStore.getState().serial !== serial) return;
    batchQueryStore.setState({ status: 'ready', result, elapsedMs: performance.now() - started });
  } catch (e) {
    if (batchQueryStore.getState().serial !== serial) return;
    batchQueryStore.setState({ status: 'error', error: (e as Error).message, result: null });
  }
}

export function clearBatchQuery(): void {
  batchQueryStore.setState((s) => ({
    status: 'idle',
    error: null,
    result: null,
    elapsedMs: null,
    serial: s.serial + 1,
  }));
}

/** The rows the episode table shows: all, or while a query of this batch is shown only those it hit. */
export function episodesShown(
  rows: readonly EpisodeRow[],
  batchId: string,
  result: BatchQueryResult | null,
): readonly EpisodeRow[] {
  if (!result || result.batch_id !== batchId) return rows;
  const hit = new Set(result.hits.map((h) => h.run_id));
  return rows.filter((r) => hit.has(r.run_id));
}

/** Opens a run on the Timeline (like `/?run=<id>`) and inspects one of its steps. */
export async function openRunAtStep(runId: string, step: number): Promise<void> {
  const url = new URL(window.location.href);
  url.searchParams.set('run', runId);
  window.history.replaceState(window.history.state, '', url);
  if (!(await followRun(runId))) {
    editorStore.getState().showToast(`could not open run ${runId}`, 'error');
    return;
  }
  editorStore.getState().setDrawerTab(TIMELINE_TAB);
  await inspect(step);
}
