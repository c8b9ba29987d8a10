// The drawer's Batches tab: the server's batches (newest first, each with its bar) on the left;
// the selected one on the right — progress bar (finished / total, failed in red, running in sky),
// episodes per second, time left, status, Compare…, Cancel, Download CSV (icons only when narrow);
// its episodes' table (a row opens its run on the Timeline) and its aggregate with a per-episode chart.
import { Ban, Download, GitCompare, Layers, Plus } from 'lucide-react';
import { editorStore } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import type { BatchListItem, BatchProgress } from '../../domain/batch/progress.ts';
import { downloadBatchCsv } from './batch.api.ts';
import { BatchAggregate } from './BatchAggregate.tsx';
import { BatchEpisodes } from './BatchEpisodes.tsx';
import { showBatchForm } from './BatchForm.tsx';
import { cancelBatch, selectBatch, useBatchPolling } from './batchSync.ts';
import { finishedOf, isTerminal, progressView } from './batchTable.ts';
import { batchesStore, itemOf, useBatches } from './batches.store.ts';
import { showBatchCompare } from './BatchCompareView.tsx';
import { BatchQueryBox, BatchQueryHits } from './BatchQueryBox.tsx';
import { episodesShown, useBatchQuery } from './batchQuery.store.ts';
import { VersionTag } from '../ui/VersionTag.tsx';

const STATUS_TONE: Record<BatchProgress['status'], string> = {
  queued: 'text-zinc-400',
  running: 'text-emerald-400',
  done: 'text-zinc-300',
  error: 'text-red-400',
  cancelled: 'text-amber-300',
};

function Bar({ progress, thin = false }: { progress: BatchProgress; thin?: boolean }) {
  const v = progressView(progress);
  return (
    <div
      className={`flex w-full overflow-hidden rounded-sm bg-zinc-800 ${thin ? 'h-1' : 'h-2.5'}`}
      data-testid={thin ? undefined : 'batch-progress-bar'}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={v.total}
      aria-valuenow={v.finished}
    >
      <div className="h-full bg-emerald-500" style={{ width: `${v.donePct}%` }} />
      <div
        className="h-full bg-red-500"
        style={{ width: `${v.failedPct}%` }}
        data-testid={thin ? undefined : 'batch-progress-failed'}
      />
      <div className="h-full animate-pulse bg-sky-600/70" style={{ width: `${v.runningPct}%` }} />
    </div>
  );
}

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour12: false });

function ListItem({ item, selected }: { item: BatchListItem; selected: boolean }) {
  const { batch, progress } = item;
  const v = progressView(progress);
  return (
    <button
      type="button"
      data-testid={`batch-item-${batch.id}`}
      data-status={progress.status}
      data-selected={selected ? 'true' : 'false'}
      title={`${batch.id} · ${batch.episodes} episodes · ${batch.workers} workers · seed ${batch.seed}${batch.sets.length ? ` · ${batch.sets.join(' ')}` : ''}`}
      onClick={() => selectBatch(batch.id)}
      className={`flex w-full flex-col gap-0.5 border-l-2 px-2 py-1 text-left ${selected ? 'border-sky-500 bg-zinc-800/70' : 'border-transparent hover:bg-zinc-800/40'}`}
    >
      <span className="flex w-full items-baseline gap-1">
        <span className="min-w-0 flex-1 truncate text-zinc-200">{batch.graph_name || 'untitled'}</span>
        <span className={`shrink-0 text-[10px] ${STATUS_TONE[progress.status]}`}>{progress.status}</span>
      </span>
      <Bar progress={progress} thin />
      <span className="flex w-full text-[10px] text-zinc-500 tabular-nums">
        <span>{v.label}</span>
        {progress.failed > 0 && <span className="ml-1 text-red-400">{progress.failed} failed</span>}
        <VersionTag version={batch.graph_version} className="ml-auto" />
        <span className="ml-1">{time(batch.created_at)}</span>
      </span>
    </button>
  );
}

function BatchList() {
  const list = useBatches((s) => s.list);
  const error = useBatches((s) => s.listError);
  const selectedId = useBatches((s) => s.selectedId);
  return (
    <aside
      className="flex w-48 shrink-0 flex-col border-r border-zinc-800 @max-[48rem]:w-36"
      data-testid="batch-list"
    >
      <div className="flex items-center gap-1 border-b border-zinc-800 px-2 py-0.5">
        <Layers size={12} className="text-sky-400" />
        <span className="text-zinc-300">Batches</span>
        {list && <span className="text-[10px] text-zinc-500">{list.length}</span>}
        <Button
          variant="ghost"
          className="ml-auto"
          data-testid="batch-new"
          title="Run the active tab's graph as a batch of episodes"
          onClick={showBatchForm}
        >
          <Plus size={11} /> New
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {error && <div className="px-2 py-1 text-red-400">{error}</div>}
        {list === null && !error && <div className="px-2 py-1 text-zinc-500">Loading…</div>}
        {list?.length === 0 && (
          <div className="px-2 py-1 text-zinc-500">
            No batches yet. “Batch…” in the run toolbar starts one.
          </div>
        )}
        {list?.map((item) => (
          <ListItem key={item.batch.id} item={item} selected={item.batch.id === selectedId} />
        ))}
      </div>
    </aside>
  );
}

function Header({ item }: { item: BatchListItem }) {
  const { batch, progress } = item;
  const v = progressView(progress);
  const live = !isTerminal(progress.status);
  const csv = () =>
    downloadBatchCsv(batch.id, batch.graph_name).then(
      (name) => editorStore.getState().showToast(`downloaded ${name}`, 'info'),
      (e: unknown) => editorStore.getState().showToast((e as Error).message, 'error'),
    );
  return (
    <div className="flex flex-col gap-1 border-b border-zinc-800 px-2 py-1" data-testid="batch-header">
      <div className="flex min-w-0 items-center gap-2">
        <span
          className="min-w-[6rem] shrink truncate text-zinc-100"
          data-testid="batch-title"
          title={`batch ${batch.id}, started ${new Date(batch.created_at).toLocaleString()}`}
        >
          {batch.graph_name || 'untitled'}
        </span>
        <span
          className="min-w-0 shrink-[3] truncate text-[10px] whitespace-nowrap text-zinc-500"
          title={`${batch.episodes} episodes · ${batch.workers} worker${batch.workers === 1 ? '' : 's'} · seed ${batch.seed}${batch.mode === 'distributed' ? ' · distributed' : ''}`}
        >
          {batch.episodes} episodes · {batch.workers} worker{batch.workers === 1 ? '' : 's'} · seed{' '}
          {batch.seed}
          {batch.mode === 'distributed' ? ' · distributed' : ''}
        </span>
        <VersionTag version={batch.graph_version} testId="batch-version" />
        {batch.sets.length > 0 && (
          <span
            className="min-w-0 truncate rounded bg-zinc-800 px-1 font-mono text-[10px] text-zinc-400"
            data-testid="batch-sets"
            title={batch.sets.join('\n')}
          >
            {batch.sets.join(' ')}
          </span>
        )}
        {/* The detail beside the batch list is ~21rem wide in a 1024 px window: under 36rem the
            actions show their icons only (name and tooltip stay), so the row never overflows. */}
        <span className="ml-auto flex shrink-0 gap-1">
          <Button
            variant="ghost"
            data-testid="batch-compare"
            onClick={() => showBatchCompare(batch.id)}
            aria-label="Compare…"
            title="Compare this batch episode by episode with another one (its baseline)"
          >
            <GitCompare size={11} /> <span className="@max-[36rem]:hidden">Compare…</span>
          </Button>
          <Button
            variant="ghost"
            data-testid="batch-cancel"
            aria-label="Cancel"
            disabled={!live}
            onClick={() => void cancelBatch(batch.id)}
            title={
              live ? 'Stop the batch: running episodes end, queued ones never start' : 'The batch has ended'
            }
          >
            <Ban size={11} /> <span className="@max-[36rem]:hidden">Cancel</span>
          </Button>
          <Button
            variant="ghost"
            data-testid="batch-csv"
            aria-label="Download CSV"
            disabled={v.finished === 0}
            onClick={() => void csv()}
            title="One line per episode: seed, status, steps, success, metrics, outputs"
          >
            <Download size={11} /> <span className="@max-[36rem]:hidden">CSV</span>
          </Button>
        </span>
      </div>
      <div className="flex items-center gap-2">
        <div className="min-w-0 flex-1">
          <Bar progress={progress} />
        </div>
        <span
          className="shrink-0 text-zinc-200 tabular-nums"
          data-testid="batch-progress"
          data-finished={v.finished}
          data-completed={progress.completed}
          data-failed={progress.failed}
          data-total={progress.total}
        >
          {v.label}
        </span>
        {progress.failed > 0 && (
          <span className="shrink-0 text-red-400 tabular-nums">{progress.failed} failed</span>
        )}
        {progress.running > 0 && (
          <span className="shrink-0 text-sky-300 tabular-nums">{progress.running} running</span>
        )}
        <span className="shrink-0 text-zinc-400 tabular-nums" data-testid="batch-rate">
          {v.rate}
        </span>
        {v.eta && <span className="shrink-0 text-zinc-500 tabular-nums">{v.eta}</span>}
        <span
          className={`w-16 shrink-0 text-right ${STATUS_TONE[progress.status]}`}
          data-testid="batch-status"
          data-status={progress.status}
          title={batch.error ?? undefined}
        >
          {progress.status}
        </span>
      </div>
      {batch.error && (
        <div className="truncate text-[11px] text-red-400" title={batch.error}>
          {batch.error}
        </div>
      )}
    </div>
  );
}

/** Episodes table or Summary: the switch a detail too narrow for both side by side shows. */
function ViewSwitch() {
  const view = useBatches((s) => s.detailView);
  const button = (v: 'episodes' | 'summary', text: string) => (
    <button
      type="button"
      data-testid={`batch-view-${v}`}
      aria-pressed={view === v}
      onClick={() => batchesStore.setState({ detailView: v })}
      className={`rounded px-1.5 ${view === v ? 'bg-sky-500/20 text-sky-300' : 'text-zinc-400 hover:text-zinc-200'}`}
    >
      {text}
    </button>
  );
  return (
    <div className="flex shrink-0 items-center gap-1 border-b border-zinc-800 px-2 py-0.5 @min-[60rem]:hidden">
      {button('episodes', 'Episodes')}
      {button('summary', 'Summary')}
    </div>
  );
}

function Detail() {
  const item = useBatches((s) => (s.selectedId ? itemOf(s, s.selectedId) : undefined));
  const detail = useBatches((s) => (s.detail?.batch.id === s.selectedId ? s.detail : null));
  const error = useBatches((s) => s.detailError);
  const view = useBatches((s) => s.detailView);
  const queried = useBatchQuery((s) => s.result);
  if (!item)
    return (
      <div className="flex flex-1 items-center justify-center p-4 text-zinc-500">
        {error ?? 'Pick a batch, or start one with “Batch…”: many runs of a graph, one per episode.'}
      </div>
    );
  // Wide (60rem and more), the table and the summary sit side by side; narrower, one of them at
  // a time fills the room (ViewSwitch), so neither is squeezed to nothing or cut.
  return (
    <section
      className="@container flex min-w-0 flex-1 flex-col"
      data-testid="batch-detail"
      data-batch-id={item.batch.id}
    >
      <Header item={item} />
      <BatchQueryBox batchId={item.batch.id} />
      {error && <div className="px-2 text-red-400">{error}</div>}
      {detail ? (
        <>
          <ViewSwitch />
          <div className="flex min-h-0 flex-1">
            <div className={`flex min-w-0 flex-1 ${view === 'summary' ? '@max-[60rem]:hidden' : ''}`}>
              <BatchEpisodes episodes={episodesShown(detail.episodes, item.batch.id, queried)} />
            </div>
            <BatchQueryHits batchId={item.batch.id} />
            <BatchAggregate
              aggregate={detail.aggregate}
              episodes={detail.episodes}
              finished={finishedOf(item.progress)}
              className={
                view === 'episodes'
                  ? '@max-[60rem]:hidden'
                  : '@max-[60rem]:w-auto @max-[60rem]:flex-1 @max-[60rem]:border-l-0'
              }
            />
          </div>
        </>
      ) : (
        !error && <div className="px-2 py-1 text-zinc-500">Loading episodes…</div>
      )}
    </section>
  );
}

export function BatchesPanel() {
  useBatchPolling();
  return (
    <div className="@container flex h-full min-h-0 text-xs" data-testid="batches-panel">
      <BatchList />
      <Detail />
    </div>
  );
}
