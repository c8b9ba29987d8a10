// The batch Compare view (a dialog from the Batches view's "Compare…"): batch B (the candidate)
// against batch A (the baseline), episode by episode. At the top the two sides with their graph
// versions and what changed between the versions; then per metric the means and the mean difference
// with its 95% interval, the success rate with wins / losses / ties; then the paired episodes,
// regressions first (a click on Δ re-sorts), each opening both runs in the state Compare view at the
// first step where they differ; and the episodes without a partner. CSV downloads the pair table.
import { memo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowLeftRight, Columns2, Download, GitCompare } from 'lucide-react';
import type { BatchComparison, PairRow } from '../../domain/batch/compare.ts';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import { shortVersion } from '../../domain/graph/graphVersion.ts';
import { editorStore } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import { DebugDialog } from '../viewer/DebugDialog.tsx';
import { mountOverlay } from '../viewer/overlayRoot.tsx';
import {
  batchCompareStore,
  closeBatchCompare,
  defaultBaseline,
  openPair,
  setMetric,
  setSides,
  useBatchCompare,
} from './batchCompare.store.ts';
import { useBatches } from './batches.store.ts';
import { nextOrder, orderPairs, signed } from './compareTable.ts';
import { Figures, GraphChanges, Side } from './BatchCompareSummary.tsx';
import { evaluationApi } from './evaluation.api.ts';

const ROW_H = 20;
const PAIR_COLUMNS = '6.5rem 3rem 3rem 6rem 5.5rem 6rem minmax(8rem, 1fr)';

const OUTCOME_TONE: Record<PairRow['outcome'], string> = {
  regression: 'bg-red-500/15 text-red-300',
  improvement: 'bg-emerald-500/15 text-emerald-300',
  same: 'bg-zinc-700/40 text-zinc-400',
};

function BatchPicker({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | null;
  onChange: (id: string) => void;
}) {
  const list = useBatches((s) => s.list) ?? [];
  const tag = label.toLowerCase();
  return (
    <span className="flex items-center gap-1">
      <span className="font-semibold text-zinc-400">{label}</span>
      <select
        data-testid={`batch-compare-${tag}`}
        className="max-w-[300px] rounded border border-zinc-700 bg-zinc-950 px-1 text-[11px] text-zinc-200"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value)}
      >
        {value === null && <option value="">pick a batch…</option>}
        {list.map((i) => (
          <option key={i.batch.id} value={i.batch.id}>
            {i.batch.graph_name || 'untitled'} · v {shortVersion(i.batch.graph_version)} ·{' '}
            {new Date(i.batch.created_at).toLocaleTimeString([], { hour12: false })} · {i.batch.episodes} ep
            {i.batch.sets.length ? ` · ${i.batch.sets.join(' ')}` : ''}
          </option>
        ))}
      </select>
    </span>
  );
}

const PairLine = memo(function PairLine({ p, opening }: { p: PairRow; opening: boolean }) {
  return (
    <div
      role="button"
      tabIndex={0}
      data-testid={`batch-compare-pair-${p.seed}`}
      data-outcome={p.outcome}
      title={`seed ${p.seed}: run ${p.run_a} (A) vs ${p.run_b} (B) — click to compare both at the first step where they differ`}
      onClick={() => void openPair(p)}
      onKeyDown={(e) => e.key === 'Enter' && void openPair(p)}
      className="grid h-full cursor-pointer items-center hover:bg-zinc-800"
      style={{ gridTemplateColumns: PAIR_COLUMNS }}
    >
      <span className="truncate px-1 font-mono text-zinc-400">{p.seed}</span>
      <span className="px-1 text-right text-zinc-400 tabular-nums">{p.episode_a}</span>
      <span className="px-1 text-right text-zinc-400 tabular-nums">{p.episode_b}</span>
      <span className="px-1 tabular-nums">
        <span className={p.success_a ? 'text-emerald-400' : 'text-zinc-500'}>
          {p.success_a ? 'yes' : 'no'}
        </span>
        <span className="text-zinc-600"> → </span>
        <span className={p.success_b ? 'text-emerald-400' : 'text-zinc-500'}>
          {p.success_b ? 'yes' : 'no'}
        </span>
      </span>
      <span
        className={`px-1 text-right font-mono tabular-nums ${(p.delta ?? 0) < 0 ? 'text-red-300' : (p.delta ?? 0) > 0 ? 'text-emerald-300' : 'text-zinc-400'}`}
        data-testid="batch-compare-delta"
      >
        {signed(p.delta)}
      </span>
      <span className="px-1">
        <span className={`rounded px-1 text-[9px] uppercase ${OUTCOME_TONE[p.outcome]}`}>{p.outcome}</span>
      </span>
      <span className="flex items-center gap-1 truncate px-1 text-[10px] text-zinc-500">
        <Columns2 size={10} className="shrink-0" />
        {opening ? 'finding the first difference…' : 'compare at first difference'}
      </span>
    </div>
  );
});

function Pairs({ c }: { c: BatchComparison }) {
  const order = useBatchCompare((s) => s.order);
  const opening = useBatchCompare((s) => s.opening);
  const pairs = orderPairs(c.pairs, order);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: pairs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_H,
    overscan: 12,
  });
  const arrow = order === 'delta-asc' ? ' ↑' : order === 'delta-desc' ? ' ↓' : '';
  return (
    <div className="flex min-h-0 flex-1 flex-col rounded border border-zinc-800 bg-zinc-950 text-[11px]">
      <div
        className="grid border-b border-zinc-800 text-[10px] text-zinc-500 uppercase"
        style={{ gridTemplateColumns: PAIR_COLUMNS }}
      >
        <span className="px-1">seed</span>
        <span className="px-1 text-right">ep A</span>
        <span className="px-1 text-right">ep B</span>
        <span className="px-1">success</span>
        <button
          type="button"
          data-testid="batch-compare-sort-delta"
          data-order={order}
          className="px-1 text-right uppercase hover:text-zinc-200"
          title="Order: regressions first (then by Δ), Δ ascending, Δ descending"
          onClick={() => batchCompareStore.setState({ order: nextOrder(order) })}
        >
          Δ {c.metric ?? ''}
          {arrow}
        </button>
        <span
          className="px-1"
          title={order === 'regressions' ? 'regressions (success → failure) first' : undefined}
        >
          outcome
        </span>
        <span className="px-1" />
      </div>
      <div
        ref={scroller}
        className="min-h-0 flex-1 overflow-y-auto"
        data-testid="batch-compare-pairs"
        data-rows={pairs.length}
      >
        {pairs.length === 0 ? (
          <div className="px-2 py-1 text-zinc-500">
            No episode of A shares a seed with one of B (start both batches with the same seed).
          </div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const p = pairs[item.index]!;
              return (
                <div
                  key={`${p.seed}-${p.episode_a}`}
                  className={`absolute inset-x-0 top-0 ${item.index % 2 === 1 ? 'bg-zinc-900/40' : ''}`}
                  style={{ height: ROW_H, transform: `translateY(${item.start}px)` }}
                >
                  <PairLine p={p} opening={opening === p.run_a} />
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}

function Unpaired({ label, rows }: { label: string; rows: readonly EpisodeRow[] }) {
  if (rows.length === 0) return null;
  return (
    <div
      className="truncate text-[11px] text-zinc-400"
      data-testid={`batch-compare-unpaired-${label.toLowerCase()}`}
    >
      <span className="text-amber-300">
        {rows.length} only in {label}:
      </span>{' '}
      {rows.map((r) => `episode ${r.episode} (seed ${r.seed})`).join(', ')}
    </div>
  );
}

export function BatchCompareView() {
  const open = useBatchCompare((s) => s.open);
  const a = useBatchCompare((s) => s.a);
  const b = useBatchCompare((s) => s.b);
  const status = useBatchCompare((s) => s.status);
  const error = useBatchCompare((s) => s.error);
  const c = useBatchCompare((s) => s.comparison);
  const metric = useBatchCompare((s) => s.metric);
  if (!open) return null;
  const csv = () => {
    if (!a || !b) return;
    evaluationApi.downloadCompare(a, b, metric ?? undefined).then(
      (name) => editorStore.getState().showToast(`downloaded ${name}`, 'info'),
      (e: unknown) => editorStore.getState().showToast((e as Error).message, 'error'),
    );
  };
  return (
    <DebugDialog
      label="Compare batches"
      testId="batch-compare-view"
      status={status}
      closeTestId="batch-compare-close"
      onClose={closeBatchCompare}
      width="w-[1100px]"
      // Under the state Compare view a pair opens.
      layer="z-40"
      escapeUnless='[data-testid="compare-view"], [data-testid="value-viewer"]'
      header={
        <>
          <GitCompare size={13} className="text-sky-400" />
          <span className="font-semibold text-zinc-100">Compare batches</span>
          <span className="text-[10px] text-zinc-500">episodes paired by seed; B − A</span>
        </>
      }
    >
      <div className="flex flex-wrap items-center gap-2">
        <BatchPicker label="A" value={a} onChange={(id) => setSides(id, b)} />
        <span className="text-zinc-500">→</span>
        <BatchPicker label="B" value={b} onChange={(id) => setSides(a, id)} />
        <Button
          variant="ghost"
          data-testid="batch-compare-swap"
          onClick={() => setSides(b, a)}
          title="Swap baseline and candidate"
        >
          <ArrowLeftRight size={11} /> Swap
        </Button>
        {c && c.metric_names.length > 0 && (
          <label className="flex items-center gap-1 text-zinc-400">
            order by
            <select
              data-testid="batch-compare-metric"
              className="rounded border border-zinc-700 bg-zinc-950 px-1 text-[11px] text-zinc-200"
              value={c.metric ?? ''}
              onChange={(e) => setMetric(e.target.value)}
            >
              {c.metric_names.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
        )}
        <Button
          className="ml-auto"
          variant="ghost"
          data-testid="batch-compare-csv"
          disabled={!c}
          onClick={csv}
          title="The pair table as CSV (one line per pair, then unpaired episodes)"
        >
          <Download size={11} /> CSV
        </Button>
      </div>
      {status === 'loading' && <div className="text-zinc-500">Comparing…</div>}
      {status === 'error' && (
        <div className="text-red-400" data-testid="batch-compare-error">
          {error}
        </div>
      )}
      {status === 'idle' && !a && <div className="text-zinc-500">Pick a baseline batch A.</div>}
      {c && status === 'ready' && (
        <>
          <div className="flex flex-col gap-0.5">
            <Side label="A" side={c.a} />
            <Side label="B" side={c.b} />
          </div>
          <GraphChanges c={c} />
          <Figures c={c} />
          <Pairs c={c} />
          <Unpaired label="A" rows={c.unpaired_a} />
          <Unpaired label="B" rows={c.unpaired_b} />
        </>
      )}
    </DebugDialog>
  );
}

/** Opens the view (mounted on first use) comparing batch `b` with a baseline (default: the batch before it). */
export function showBatchCompare(b: string, a: string | null = defaultBaseline(b)): void {
  mountOverlay('batch-compare-view', <BatchCompareView />);
  batchCompareStore.setState({ open: true, order: 'regressions' });
  setSides(a, b);
}
