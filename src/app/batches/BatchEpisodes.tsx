// The selected batch's episodes as a table (episode, seed, status, steps, success, one column per
// metric), sorted by a click on a header (again: the other way), virtualized; a click on a row
// opens that episode's run on the Timeline.
import { useMemo, useRef, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp } from 'lucide-react';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import { useRun } from '../run/run.store.ts';
import { openEpisode } from './batchSync.ts';
import {
  FIXED_COLUMNS,
  formatMetric,
  metricKey,
  metricNames,
  nextSort,
  sortEpisodes,
  type SortKey,
} from './batchTable.ts';
import { batchesStore, useBatches } from './batches.store.ts';

const ROW_H = 20;
const FIXED_WIDTHS: Record<(typeof FIXED_COLUMNS)[number], string> = {
  episode: '2.5rem',
  seed: '5rem',
  status: '4rem',
  steps: '3rem',
  success: '3.25rem',
};
const METRIC_WIDTH = 'minmax(4rem, 1fr)';
const RIGHT: ReadonlySet<SortKey> = new Set(['episode', 'seed', 'steps']);

const STATUS_TONE: Record<EpisodeRow['status'], string> = {
  done: 'text-zinc-300',
  error: 'text-red-400',
  stopped: 'text-amber-300',
  interrupted: 'text-amber-300',
};

function Header({ columns, labels, template }: { columns: SortKey[]; labels: string[]; template: string }) {
  const sort = useBatches((s) => s.sort);
  return (
    <div
      className="sticky top-0 z-10 grid border-b border-zinc-800 bg-zinc-925 text-[10px] text-zinc-500 uppercase"
      style={{ gridTemplateColumns: template }}
    >
      {columns.map((key, i) => {
        const on = sort.key === key;
        return (
          <button
            key={key}
            type="button"
            data-testid={`batch-sort-${key}`}
            data-sorted={on ? sort.dir : undefined}
            title={`Sort by ${labels[i]}`}
            onClick={() => batchesStore.setState({ sort: nextSort(sort, key) })}
            className={`flex min-w-0 items-center gap-0.5 px-1 py-0.5 hover:text-zinc-200 ${RIGHT.has(key) || key.startsWith('metric:') ? 'justify-end' : ''} ${on ? 'text-sky-300' : ''}`}
          >
            <span className="truncate normal-case">{labels[i]}</span>
            {on && (sort.dir === 'asc' ? <ArrowUp size={9} /> : <ArrowDown size={9} />)}
          </button>
        );
      })}
    </div>
  );
}

function Cell({ children, right, tone = '' }: { children: ReactNode; right?: boolean; tone?: string }) {
  return (
    <span className={`truncate px-1 tabular-nums ${right ? 'text-right' : ''} ${tone}`}>{children}</span>
  );
}

export function BatchEpisodes({ episodes }: { episodes: readonly EpisodeRow[] }) {
  const sort = useBatches((s) => s.sort);
  const shownRun = useRun((s) => s.runId);
  const scroller = useRef<HTMLDivElement>(null);
  const metrics = useMemo(() => metricNames(episodes), [episodes]);
  const rows = useMemo(() => sortEpisodes(episodes, sort), [episodes, sort]);
  const columns: SortKey[] = [...FIXED_COLUMNS, ...metrics.map(metricKey)];
  const labels = [...FIXED_COLUMNS.map((c) => (c === 'episode' ? '#' : c)), ...metrics];
  const template = [...FIXED_COLUMNS.map((c) => FIXED_WIDTHS[c]), ...metrics.map(() => METRIC_WIDTH)].join(
    ' ',
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_H,
    overscan: 12,
  });
  return (
    <div
      ref={scroller}
      className="min-h-0 min-w-0 flex-1 overflow-auto text-[11px]"
      data-testid="batch-episodes"
      data-rows={rows.length}
    >
      <div className="min-w-max">
        <Header columns={columns} labels={labels} template={template} />
        {rows.length === 0 ? (
          <div className="px-2 py-1 text-zinc-500">No episode has finished yet.</div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const r = rows[item.index]!;
              const shown = r.run_id === shownRun;
              return (
                <div
                  key={r.episode}
                  role="button"
                  tabIndex={0}
                  data-testid={`batch-episode-${r.episode}`}
                  data-run-id={r.run_id}
                  data-seed={r.seed}
                  data-steps={r.steps}
                  data-status={r.status}
                  title={`episode ${r.episode} · run ${r.run_id}${r.worker ? ` · ${r.worker}` : ''}${r.attempts && r.attempts > 1 ? ` · ${r.attempts} attempts` : ''}${r.error ? ` · ${r.error}` : ''} — click to open its run on the Timeline`}
                  onClick={() => void openEpisode(r)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') void openEpisode(r);
                  }}
                  className={`absolute inset-x-0 top-0 grid cursor-pointer items-center hover:bg-zinc-800 ${shown ? 'bg-sky-950/60' : item.index % 2 === 1 ? 'bg-zinc-900/40' : ''}`}
                  style={{
                    height: ROW_H,
                    transform: `translateY(${item.start}px)`,
                    gridTemplateColumns: template,
                  }}
                >
                  <Cell right tone="text-zinc-400">
                    {r.episode}
                  </Cell>
                  <Cell right tone="font-mono text-zinc-400">
                    {r.seed}
                  </Cell>
                  <Cell tone={STATUS_TONE[r.status]}>{r.status}</Cell>
                  <Cell right>{r.steps}</Cell>
                  <Cell tone={r.success ? 'text-emerald-400' : 'text-zinc-500'}>
                    {r.success ? 'yes' : 'no'}
                  </Cell>
                  {metrics.map((m) => (
                    <Cell key={m} right tone="font-mono text-zinc-200">
                      {formatMetric(r.metrics[m])}
                    </Cell>
                  ))}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
