// What the Batches view shows: the server's batches (newest first) with their progress, the
// selected batch's episodes and aggregate, the table's sort, the chart's metric and the "Batch…"
// form. Apart from the document and the run store. The reducers are pure (tested); the REST and
// socket side that feeds them is batchSync.ts.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type {
  BatchDetail,
  BatchListItem,
  BatchProgress,
  BatchProgressNotice,
} from '../../domain/batch/progress.ts';
import { DEFAULT_FORM, type BatchFormValues, type FieldError } from './batchForm.ts';
import { DEFAULT_SORT, newerProgress, type SortKey, type SortSpec } from './batchTable.ts';

export interface BatchFormState {
  open: boolean;
  values: BatchFormValues;
  errors: FieldError[];
  busy: boolean;
}

export interface BatchesState {
  /** null until the first answer. */
  list: BatchListItem[] | null;
  listError: string | null;
  selectedId: string | null;
  /** The selected batch as last fetched (its progress kept current by notices). */
  detail: BatchDetail | null;
  detailError: string | null;
  sort: SortSpec;
  /** The column the chart draws per episode (a metric, or steps); null = the first metric. */
  metric: SortKey | null;
  /** What a detail too narrow for both side by side shows (BatchesPanel.tsx). */
  detailView: 'episodes' | 'summary';
  form: BatchFormState;
}

export const initialBatchesState = (): BatchesState => ({
  list: null,
  listError: null,
  selectedId: null,
  detail: null,
  detailError: null,
  sort: DEFAULT_SORT,
  metric: null,
  detailView: 'episodes',
  form: { open: false, values: DEFAULT_FORM, errors: [], busy: false },
});

const byNewest = (a: BatchListItem, b: BatchListItem) => b.batch.created_at.localeCompare(a.batch.created_at);

/** A fresh list from the server; progress a notice brought meanwhile is not rolled back. */
export function withList(s: BatchesState, list: readonly BatchListItem[]): BatchesState {
  const known = new Map(s.list?.map((i) => [i.batch.id, i.progress]));
  const merged = list
    .map((i) => ({ ...i, progress: newerProgress(known.get(i.batch.id), i.progress) }))
    .sort(byNewest);
  // Nothing picked yet: the newest batch is the one shown.
  const selectedId = s.selectedId ?? merged[0]?.batch.id ?? null;
  return { ...s, list: merged, listError: null, selectedId };
}

/** A fetched batch; dropped when the user picked another one while it was on its way. */
export function withDetail(s: BatchesState, d: BatchDetail): BatchesState {
  if (d.batch.id !== s.selectedId) return s;
  const shown = s.detail?.batch.id === d.batch.id ? s.detail.progress : undefined;
  const listed = s.list?.find((i) => i.batch.id === d.batch.id)?.progress;
  const progress = newerProgress(shown, newerProgress(listed, d.progress));
  const detail = { ...d, progress };
  const list = s.list?.map((i) =>
    i.batch.id === d.batch.id ? { batch: d.batch, progress: newerProgress(i.progress, progress) } : i,
  );
  return { ...s, detail, detailError: null, list: list ?? s.list };
}

/** A `batch_progress` notice: moves that batch's bar in the list and, if shown, in the detail. */
export function withNotice(s: BatchesState, n: BatchProgressNotice): BatchesState {
  const { batch_id, ...p } = n;
  const progress: BatchProgress = p;
  let list = s.list;
  if (list?.some((i) => i.batch.id === batch_id))
    list = list.map((i) =>
      i.batch.id === batch_id ? { ...i, progress: newerProgress(i.progress, progress) } : i,
    );
  const detail =
    s.detail?.batch.id === batch_id
      ? { ...s.detail, progress: newerProgress(s.detail.progress, progress) }
      : s.detail;
  if (list === s.list && detail === s.detail) return s;
  return { ...s, list, detail };
}

export function withSelected(s: BatchesState, id: string | null): BatchesState {
  if (id === s.selectedId) return s;
  return { ...s, selectedId: id, detail: null, detailError: null };
}

/** The listed batch's record and progress (the detail's when it is the selected one). */
export function itemOf(s: BatchesState, id: string): BatchListItem | undefined {
  if (s.detail?.batch.id === id) return s.detail;
  return s.list?.find((i) => i.batch.id === id);
}

/** A notice about a batch the list does not have yet (started elsewhere): refetch the list. */
export const isListed = (s: BatchesState, id: string): boolean =>
  s.list?.some((i) => i.batch.id === id) ?? false;

export const batchesStore = createStore<BatchesState>()(initialBatchesState);

export function useBatches<T>(selector: (s: BatchesState) => T): T {
  return useStore(batchesStore, selector);
}

export const updateBatches = (fn: (s: BatchesState) => BatchesState) => batchesStore.setState(fn, true);

export const setForm = (patch: Partial<BatchFormState>) =>
  batchesStore.setState((s) => ({ form: { ...s.form, ...patch } }));

/** Typing in a field: its value, and its errors (of the last Start) go. */
export function withFormValues(s: BatchesState, patch: Partial<BatchFormValues>): BatchesState {
  const fields = new Set(Object.keys(patch));
  return {
    ...s,
    form: {
      ...s.form,
      values: { ...s.form.values, ...patch },
      errors: s.form.errors.filter((e) => !fields.has(e.field)),
    },
  };
}

export const setFormValues = (patch: Partial<BatchFormValues>) =>
  updateBatches((s) => withFormValues(s, patch));
