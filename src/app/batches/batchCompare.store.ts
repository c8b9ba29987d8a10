// The batch Compare view's state: which two batches (A = the baseline, B = the candidate), the metric
// that orders the pairs, the loaded comparison, the pair order; and opening a pair: both runs in the
// state Compare view at the first step where they differ (GET …/compare/first-diff).
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { BatchComparison, PairRow } from '../../domain/batch/compare.ts';
import { showCompare } from '../compare/CompareView.tsx';
import { editorStore } from '../store/editor.store.ts';
import type { PairOrder } from './compareTable.ts';
import { evaluationApi } from './evaluation.api.ts';
import { batchesStore } from './batches.store.ts';

export interface BatchCompareState {
  open: boolean;
  a: string | null;
  b: string | null;
  /** null: the server's choice (score, else reward, else the first shared metric). */
  metric: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  comparison: BatchComparison | null;
  order: PairOrder;
  /** `run_a` of the pair being opened (its first difference is on its way). */
  opening: string | null;
  /** Bumped per load: an older answer never overwrites a newer one. */
  serial: number;
}

export const batchCompareStore = createStore<BatchCompareState>()(() => ({
  open: false,
  a: null,
  b: null,
  metric: null,
  status: 'idle',
  error: null,
  comparison: null,
  order: 'regressions',
  opening: null,
  serial: 0,
}));

export function useBatchCompare<T>(selector: (s: BatchCompareState) => T): T {
  return useStore(batchCompareStore, selector);
}

export async function loadBatchCompare(): Promise<void> {
  const { a, b, metric } = batchCompareStore.getState();
  if (!a || !b) return;
  const serial = batchCompareStore.getState().serial + 1;
  batchCompareStore.setState({ status: 'loading', error: null, serial });
  try {
    const comparison = await evaluationApi.compare(a, b, metric ?? undefined);
    if (batchCompareStore.getState().serial !== serial) return;
    batchCompareStore.setState({ status: 'ready', comparison, metric: comparison.metric });
  } catch (e) {
    if (batchCompareStore.getState().serial !== serial) return;
    batchCompareStore.setState({ status: 'error', error: (e as Error).message, comparison: null });
  }
}

/**
 * The baseline offered for candidate `b`: the newest earlier batch of the same graph, else the newest
 * other batch (the list is newest first).
 */
export function defaultBaseline(b: string): string | null {
  const list = batchesStore.getState().list ?? [];
  const me = list.find((i) => i.batch.id === b);
  const others = list.filter((i) => i.batch.id !== b);
  const older = others.filter((i) => !me || i.batch.created_at <= me.batch.created_at);
  const sameGraph = (i: (typeof list)[number]) =>
    me !== undefined && i.batch.graph_name === me.batch.graph_name;
  return (older.find(sameGraph) ?? others.find(sameGraph) ?? older[0] ?? others[0])?.batch.id ?? null;
}

export function setSides(a: string | null, b: string | null): void {
  batchCompareStore.setState({ a, b, metric: null, comparison: null });
  void loadBatchCompare();
}

export function setMetric(metric: string): void {
  batchCompareStore.setState({ metric });
  void loadBatchCompare();
}

export function closeBatchCompare(): void {
  batchCompareStore.setState({ open: false });
}

/** Opens both runs of a pair in the state Compare view at the first step where they differ. */
export async function openPair(p: PairRow): Promise<void> {
  batchCompareStore.setState({ opening: p.run_a });
  try {
    const { first } = await evaluationApi.firstDiff(p.run_a, p.run_b);
    const step = first?.step ?? Math.min(p.steps_a, p.steps_b);
    if (!first)
      editorStore
        .getState()
        .showToast(`runs ${p.run_a} and ${p.run_b} never differ: shown at step ${step}`, 'info');
    showCompare({ runId: p.run_a, step }, { runId: p.run_b, step });
  } catch (e) {
    editorStore.getState().showToast((e as Error).message, 'error');
  } finally {
    batchCompareStore.setState({ opening: null });
  }
}
