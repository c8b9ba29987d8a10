// The selected batch's aggregate: success rate, mean steps, and per metric mean ± std, min, max
// (the server's numbers); under it one metric (or the steps) per episode, drawn by the episodes'
// uPlot chart with the episode number as x.
import { useMemo } from 'react';
import type { BatchAggregate as Aggregate, EpisodeRow } from '../../domain/batch/batch.types.ts';
import { EpisodePlot } from '../episodes/EpisodePlot.tsx';
import { chartSeries, formatMetric, metricKey, metricNames, type SortKey } from './batchTable.ts';
import { batchesStore, useBatches } from './batches.store.ts';

const NO_BOUNDARIES: never[] = [];
const SELECT =
  'max-w-40 rounded border border-zinc-700 bg-zinc-900 px-1 py-0 text-[11px] text-zinc-200 outline-none focus:border-sky-600';

const keyLabel = (k: SortKey) => (k.startsWith('metric:') ? k.slice('metric:'.length) : k);

function Chart({ episodes }: { episodes: readonly EpisodeRow[] }) {
  const chosen = useBatches((s) => s.metric);
  const options = useMemo<SortKey[]>(() => [...metricNames(episodes).map(metricKey), 'steps'], [episodes]);
  const key = chosen && options.includes(chosen) ? chosen : options[0]!;
  const { xs, ys } = useMemo(() => chartSeries(episodes, key), [episodes, key]);
  return (
    <div
      className="flex min-h-[168px] min-w-0 flex-1 flex-col gap-0.5"
      data-testid="batch-chart"
      data-metric={keyLabel(key)}
    >
      <div className="flex items-center gap-1 text-[10px] text-zinc-500">
        <span className="uppercase">per episode</span>
        <select
          className={SELECT}
          data-testid="batch-chart-metric"
          value={key}
          onChange={(e) => batchesStore.setState({ metric: e.target.value as SortKey })}
        >
          {options.map((k) => (
            <option key={k} value={k}>
              {keyLabel(k)}
            </option>
          ))}
        </select>
      </div>
      {xs.length === 0 ? (
        <div className="text-zinc-500">Nothing to draw yet.</div>
      ) : (
        <EpisodePlot label={keyLabel(key)} steps={xs} ys={ys} episodes={NO_BOUNDARIES} />
      )}
    </div>
  );
}

export function BatchAggregate({
  aggregate,
  episodes,
  finished,
  className = '',
}: {
  aggregate: Aggregate;
  episodes: readonly EpisodeRow[];
  /** Episodes the batch's progress says have ended (notices run ahead of the fetched aggregate). */
  finished: number;
  className?: string;
}) {
  const names = Object.keys(aggregate.metrics).sort((a, b) => a.localeCompare(b));
  const behind = aggregate.episodes < finished;
  // A column beside the table (18rem); given the whole detail (Summary), the numbers and the chart
  // sit side by side once there is room. Either way it scrolls rather than squeeze the chart.
  return (
    <div
      className={`@container/agg flex w-72 shrink-0 overflow-y-auto border-l border-zinc-800 ${className}`}
      data-testid="batch-aggregate"
      data-episodes={aggregate.episodes}
      data-behind={behind ? 'true' : 'false'}
    >
      <div className="flex min-h-full w-full flex-col gap-1 px-2 py-1 @min-[36rem]/agg:flex-row @min-[36rem]/agg:gap-3">
        <div className="flex shrink-0 flex-col gap-1 @min-[36rem]/agg:w-72">
          <div
            className={`text-[10px] ${behind ? 'text-amber-300' : 'text-zinc-500'}`}
            data-testid="batch-aggregate-scope"
            title="the episodes these numbers are computed from"
          >
            {behind
              ? `over ${aggregate.episodes} of ${finished} finished episodes · updating…`
              : `over ${aggregate.episodes} episode${aggregate.episodes === 1 ? '' : 's'}`}
          </div>
          <div className="flex items-baseline gap-3 text-[11px] whitespace-nowrap">
            <span title="episodes that count as a success, of those finished">
              <span className="text-zinc-500">success </span>
              <span className="text-emerald-300 tabular-nums" data-testid="batch-success-rate">
                {(aggregate.success_rate * 100).toFixed(1)}%
              </span>
            </span>
            <span>
              <span className="text-zinc-500">mean steps </span>
              <span className="text-zinc-200 tabular-nums" data-testid="batch-mean-steps">
                {formatMetric(aggregate.mean_steps)}
              </span>
            </span>
          </div>
          {names.length > 0 && (
            <table className="w-full table-fixed text-[11px] whitespace-nowrap" data-testid="batch-metrics">
              <thead>
                <tr className="text-[10px] text-zinc-500">
                  <th className="text-left font-normal">metric</th>
                  <th className="w-24 text-right font-normal">mean ± std</th>
                  <th className="w-12 text-right font-normal">min</th>
                  <th className="w-12 text-right font-normal">max</th>
                </tr>
              </thead>
              <tbody>
                {names.map((m) => {
                  const a = aggregate.metrics[m]!;
                  return (
                    <tr key={m} data-testid={`batch-metric-${m}`} className="border-t border-zinc-800/60">
                      <td className="truncate text-violet-300" title={`${m} · ${a.n} episodes`}>
                        {m}
                      </td>
                      <td className="text-right font-mono text-zinc-200 tabular-nums">
                        {formatMetric(a.mean)}
                        <span className="text-zinc-500"> ± {formatMetric(a.std)}</span>
                      </td>
                      <td className="text-right font-mono text-zinc-400 tabular-nums">
                        {formatMetric(a.min)}
                      </td>
                      <td className="text-right font-mono text-zinc-400 tabular-nums">
                        {formatMetric(a.max)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </div>
        <Chart episodes={episodes} />
      </div>
    </div>
  );
}
