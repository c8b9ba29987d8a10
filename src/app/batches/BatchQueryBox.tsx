// The Batches view's query box and its hits: type a condition (`memory.trail length> 5`,
// `graph_state.step_count >= 25`, `write memory.scratch by policy`, `clear graph_state.last_obs`),
// Enter asks the server to scan every stored step of the batch; the hits list (one line per
// episode and step) opens that episode's run at that step, and the episode table keeps only the
// episodes hit. CSV downloads the hits.
import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Download, Search, X } from 'lucide-react';
import { shortValue } from '../../domain/graph/graph.diff.ts';
import { editorStore } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import {
  batchQueryStore,
  clearBatchQuery,
  openRunAtStep,
  runBatchQuery,
  useBatchQuery,
} from './batchQuery.store.ts';
import { evaluationApi } from './evaluation.api.ts';

const ROW_H = 18;

export function BatchQueryBox({ batchId }: { batchId: string }) {
  const text = useBatchQuery((s) => s.text);
  const status = useBatchQuery((s) => s.status);
  const error = useBatchQuery((s) => s.error);
  const result = useBatchQuery((s) => (s.result?.batch_id === batchId ? s.result : null));
  const elapsed = useBatchQuery((s) => s.elapsedMs);
  const csv = () =>
    evaluationApi.downloadQuery(batchId, text.trim()).then(
      (name) => editorStore.getState().showToast(`downloaded ${name}`, 'info'),
      (e: unknown) => editorStore.getState().showToast((e as Error).message, 'error'),
    );
  return (
    <div className="flex flex-col gap-0.5 border-b border-zinc-800 px-2 py-1">
      <form
        className="flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          void runBatchQuery(batchId);
        }}
      >
        <Search size={11} className="shrink-0 text-zinc-500" />
        <input
          data-testid="batch-query-input"
          className="min-w-0 flex-1 rounded border border-zinc-700 bg-zinc-950 px-1 font-mono text-[11px] text-zinc-200"
          placeholder="query every step: memory.trail length> 5 · graph_state.step_count >= 25 · write memory.scratch by policy · clear graph_state.last_obs"
          value={text}
          onChange={(e) => batchQueryStore.setState({ text: e.target.value })}
        />
        <Button
          type="submit"
          variant="ghost"
          data-testid="batch-query-run"
          disabled={status === 'loading' || !text.trim()}
        >
          Query
        </Button>
        {result && (
          <>
            <Button
              variant="ghost"
              data-testid="batch-query-csv"
              onClick={() => void csv()}
              title="Every hit as CSV"
            >
              <Download size={11} /> CSV
            </Button>
            <Button
              variant="ghost"
              data-testid="batch-query-clear"
              onClick={clearBatchQuery}
              title="Show every episode again"
            >
              <X size={11} />
            </Button>
          </>
        )}
      </form>
      {status === 'loading' && <div className="text-[11px] text-zinc-500">Scanning the stored steps…</div>}
      {status === 'error' && (
        <div
          className="truncate text-[11px] text-red-400"
          data-testid="batch-query-error"
          title={error ?? ''}
        >
          {error}
        </div>
      )}
      {result && (
        <div className="text-[11px] text-zinc-400" data-testid="batch-query-summary">
          <span className="font-mono text-zinc-200">{result.query}</span>: {result.hits.length} step
          {result.hits.length === 1 ? '' : 's'} in {result.episodes_hit} of {result.episodes} episodes
          {elapsed !== null && <span className="text-zinc-600"> · {(elapsed / 1000).toFixed(2)} s</span>}
          {result.hits.length > 0 && (
            <span className="text-zinc-600"> · the table shows the episodes hit</span>
          )}
        </div>
      )}
    </div>
  );
}

/** The hits, one line per (episode, step); a click opens that episode's run at that step. */
export function BatchQueryHits({ batchId }: { batchId: string }) {
  const result = useBatchQuery((s) => (s.result?.batch_id === batchId ? s.result : null));
  const scroller = useRef<HTMLDivElement>(null);
  const hits = result?.hits ?? [];
  const virtualizer = useVirtualizer({
    count: hits.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_H,
    overscan: 12,
  });
  if (!result) return null;
  return (
    <div
      ref={scroller}
      className="w-52 shrink-0 overflow-y-auto border-l border-zinc-800 text-[11px]"
      data-testid="batch-query-hits"
      data-rows={hits.length}
    >
      <div className="sticky top-0 z-10 flex bg-zinc-925 px-1 text-[10px] text-zinc-500 uppercase">
        <span className="w-10 text-right">ep</span>
        <span className="w-10 text-right">step</span>
        <span className="flex-1 pl-2">value / where</span>
      </div>
      {hits.length === 0 ? (
        <div className="px-2 py-1 text-zinc-500">No step of any episode meets it.</div>
      ) : (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const h = hits[item.index]!;
            const where = [...h.keys.map((k) => `[${k}]`), ...h.nodes.map((n) => `by ${n}`)].join(' ');
            return (
              <div
                key={`${h.run_id}/${h.step}`}
                role="button"
                tabIndex={0}
                data-testid={`batch-query-hit-${h.episode}-${h.step}`}
                title={`episode ${h.episode}, step ${h.step} — open run ${h.run_id} at this step`}
                onClick={() => void openRunAtStep(h.run_id, h.step)}
                onKeyDown={(e) => e.key === 'Enter' && void openRunAtStep(h.run_id, h.step)}
                className={`absolute inset-x-0 top-0 flex cursor-pointer items-center px-1 hover:bg-zinc-800 ${item.index % 2 ? 'bg-zinc-900/40' : ''}`}
                style={{ height: ROW_H, transform: `translateY(${item.start}px)` }}
              >
                <span className="w-10 text-right text-zinc-400 tabular-nums">{h.episode}</span>
                <span className="w-10 text-right text-zinc-200 tabular-nums">{h.step}</span>
                <span className="min-w-0 flex-1 truncate pl-2 font-mono text-zinc-400">
                  {h.value !== null ? shortValue(h.value) : ''} {where}
                </span>
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
