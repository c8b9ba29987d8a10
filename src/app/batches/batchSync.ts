// The Batches view's side of the server: `batch_progress` notices move the bars as they come; while
// the view is shown, the selected batch is fetched at most once a second until it has ended and
// every finished episode is in its table (so a missed notice only delays, never freezes, the view);
// the list is fetched when the view opens, on a notice about a batch it does not have, and every
// 2 s while one of its batches is live. Also: start (the "Batch…" form), cancel, open an episode.
import { useEffect } from 'react';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import { liveClient } from '../live/connection.ts';
import { followRun, graphToRun } from '../run/run.actions.ts';
import { TIMELINE_TAB } from '../run/timelineTab.ts';
import { editorStore } from '../store/editor.store.ts';
import type { BatchProgressNotice } from '../../domain/batch/progress.ts';
import { batchApi } from './batch.api.ts';
import { parseBatchForm, serverError } from './batchForm.ts';
import { BATCHES_TAB } from './batchesTab.ts';
import { finishedOf, isTerminal } from './batchTable.ts';
import {
  batchesStore,
  isListed,
  setForm,
  updateBatches,
  withDetail,
  withList,
  withNotice,
  withSelected,
  type BatchesState,
} from './batches.store.ts';

export const DETAIL_POLL_MS = 1000;
export const LIST_POLL_MS = 2000;

const message = (e: unknown) => (e as Error).message;
const toast = (text: string, kind: 'info' | 'error') => editorStore.getState().showToast(text, kind);

let listInFlight = false;
export async function refreshList(): Promise<void> {
  if (listInFlight) return;
  listInFlight = true;
  try {
    const list = await batchApi.list();
    updateBatches((s) => withList(s, list));
    // The first list picks the newest batch: show it now rather than at the next poll.
    if (batchesStore.getState().detail === null) void refreshDetail();
  } catch (e) {
    batchesStore.setState({ listError: message(e) });
  } finally {
    listInFlight = false;
  }
}

let detailInFlight: string | null = null;
/** A fetch was asked for with `again` while one was on its way (whose answer may predate the reason). */
let detailAgain = false;

/**
 * Fetches the selected batch. A poll skips while a fetch is on its way; `again` (the batch just
 * ended) fetches once more after it, since that answer may have been read before the last episodes.
 */
export async function refreshDetail(opts: { again?: boolean } = {}): Promise<void> {
  const id = batchesStore.getState().selectedId;
  if (id === null) return;
  if (detailInFlight === id) {
    if (opts.again) detailAgain = true;
    return;
  }
  detailInFlight = id;
  detailAgain = false;
  try {
    const d = await batchApi.get(id);
    updateBatches((s) => withDetail(s, d));
  } catch (e) {
    if (batchesStore.getState().selectedId === id) batchesStore.setState({ detailError: message(e) });
  } finally {
    if (detailInFlight === id) detailInFlight = null;
    if (detailAgain) {
      detailAgain = false;
      void refreshDetail();
    }
  }
}

/**
 * The selected batch still needs fetching: never fetched, or its last answer was of a live batch,
 * or a notice says more episodes finished than its table has.
 */
export function needsDetail(s: BatchesState): boolean {
  if (s.selectedId === null) return false;
  const d = s.detail;
  if (!d || d.batch.id !== s.selectedId) return true;
  return !isTerminal(d.batch.status) || d.episodes.length < finishedOf(d.progress);
}

/** Some listed batch is queued or running. */
export const listIsLive = (s: BatchesState): boolean =>
  s.list?.some((i) => !isTerminal(i.progress.status)) ?? false;

export interface NoticeSource {
  onNotice(type: string, fn: (data: unknown) => void): void;
}

function isProgressNotice(d: unknown): d is BatchProgressNotice {
  const n = d as Partial<BatchProgressNotice> | null;
  return (
    typeof n === 'object' &&
    n !== null &&
    typeof n.batch_id === 'string' &&
    typeof n.completed === 'number' &&
    typeof n.total === 'number' &&
    typeof n.status === 'string'
  );
}

let connected = false;
/** Registers the notices once (the live client has one socket for the page). */
export function connectBatchNotices(source: NoticeSource = liveClient()): void {
  if (connected) return;
  connected = true;
  source.onNotice('batch_progress', (data) => {
    if (!isProgressNotice(data)) return;
    const s = batchesStore.getState();
    if (s.list !== null && !isListed(s, data.batch_id)) void refreshList();
    updateBatches((st) => withNotice(st, data));
    // The shown batch ended: the header says so now, so its final episodes and aggregate are
    // fetched now too, not at the next poll (until they come, the aggregate says it is behind).
    if (isTerminal(data.status) && batchesStore.getState().selectedId === data.batch_id)
      void refreshDetail({ again: true });
  });
  // Back after a disconnect: notices may have been missed.
  source.onNotice('connect', () => {
    if (batchesStore.getState().list === null) return;
    void refreshList();
    void refreshDetail();
  });
}

/** While the Batches view is shown: the list once, then the polls described at the top. */
export function useBatchPolling(): void {
  useEffect(() => {
    connectBatchNotices();
    void refreshList();
    void refreshDetail();
    const detail = setInterval(() => {
      if (needsDetail(batchesStore.getState())) void refreshDetail();
    }, DETAIL_POLL_MS);
    const list = setInterval(() => {
      if (listIsLive(batchesStore.getState())) void refreshList();
    }, LIST_POLL_MS);
    return () => {
      clearInterval(detail);
      clearInterval(list);
    };
  }, []);
}

export function selectBatch(id: string): void {
  if (batchesStore.getState().selectedId === id) return;
  updateBatches((s) => withSelected(s, id));
  void refreshDetail();
}

export function openBatchForm(): void {
  connectBatchNotices();
  setForm({ open: true, errors: [], busy: false });
}

export const closeBatchForm = () => setForm({ open: false, busy: false });

/** Start: the active tab's graph with the form's settings; errors stay in the form, by field. */
export async function submitBatchForm(): Promise<boolean> {
  const { form } = batchesStore.getState();
  if (form.busy) return false;
  const parsed = parseBatchForm(form.values);
  if (!parsed.ok) {
    setForm({ errors: parsed.errors });
    return false;
  }
  const g = graphToRun();
  if (!g) {
    setForm({ errors: [{ field: 'general', message: 'open a graph first: a batch runs the active tab' }] });
    return false;
  }
  setForm({ busy: true, errors: [] });
  try {
    const { batch_id } = await batchApi.start({ loop_definition: g.graph, ...parsed.body });
    setForm({ open: false, busy: false });
    updateBatches((s) => withSelected(s, batch_id));
    editorStore.getState().setDrawerTab(BATCHES_TAB);
    void refreshList();
    void refreshDetail();
    return true;
  } catch (e) {
    setForm({ busy: false, errors: [serverError(e, parsed.body.set ?? [], parsed.lines)] });
    return false;
  }
}

export async function cancelBatch(id: string): Promise<void> {
  try {
    await batchApi.cancel(id);
    toast(`cancelling batch ${id}`, 'info');
  } catch (e) {
    toast(message(e), 'error');
  }
  void refreshDetail();
  void refreshList();
}

/** A table row: its run on the timeline, in the tab editing that graph (`?run=<id>` in the URL). */
export async function openEpisode(row: EpisodeRow): Promise<void> {
  const url = new URL(window.location.href);
  url.searchParams.set('run', row.run_id);
  window.history.replaceState(window.history.state, '', url);
  if (await followRun(row.run_id)) editorStore.getState().setDrawerTab(TIMELINE_TAB);
  else toast(`could not open run ${row.run_id} of episode ${row.episode}`, 'error');
}
