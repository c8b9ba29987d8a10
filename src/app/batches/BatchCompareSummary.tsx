// The top of the batch Compare view: the two sides (graph, version, seed, overrides), what changed
// between their graph versions, and the figures — per metric the means and B − A with its interval,
// the success rate with wins / losses / ties.
import type { BatchComparison } from '../../domain/batch/compare.ts';
import { shortVersion } from '../../domain/graph/graphVersion.ts';
import { formatMetric } from './batchTable.ts';
import { interval, percent, signed } from './compareTable.ts';

export function Side({ label, side }: { label: string; side: BatchComparison['a'] }) {
  return (
    <div
      className="flex min-w-0 items-baseline gap-2"
      data-testid={`batch-compare-side-${label.toLowerCase()}`}
    >
      <span className="w-4 shrink-0 font-semibold text-zinc-400">{label}</span>
      <span className="shrink-0 whitespace-nowrap text-zinc-200">{side.graph_name || 'untitled'}</span>
      <span
        className="shrink-0 rounded bg-zinc-800 px-1 font-mono text-[10px] whitespace-nowrap text-sky-300"
        data-testid="batch-compare-version"
        title={
          side.graph_version ? `graph version ${side.graph_version}` : 'stored before versions were kept'
        }
      >
        v {shortVersion(side.graph_version)}
      </span>
      <span className="shrink-0 text-[10px] whitespace-nowrap text-zinc-500">
        {side.episodes} episodes · seed {side.seed} · {side.id}
      </span>
      {side.sets.length > 0 && (
        <span className="min-w-0 truncate font-mono text-[10px] text-zinc-400" title={side.sets.join('\n')}>
          {side.sets.join(' ')}
        </span>
      )}
    </div>
  );
}

export function GraphChanges({ c }: { c: BatchComparison }) {
  const d = c.graph_diff;
  if (!d) return <div className="text-zinc-500">The graphs of these batches are not at hand to compare.</div>;
  if (d.same && d.moved === 0)
    return (
      <div className="text-zinc-500" data-testid="batch-compare-graph-same">
        Both batches ran the same graph version.
      </div>
    );
  return (
    <div
      className="max-h-24 overflow-y-auto rounded border border-zinc-800 bg-zinc-950 px-2 py-0.5"
      data-testid="batch-compare-graph-diff"
    >
      <div className="text-[10px] text-zinc-500 uppercase">graph changes A → B</div>
      {d.changes.map((ch, i) => (
        <div
          key={i}
          className="truncate font-mono text-[11px] text-amber-200"
          data-testid="batch-compare-graph-change"
          title={ch.text}
        >
          {ch.text}
        </div>
      ))}
      {d.moved > 0 && <div className="text-[11px] text-zinc-500">layout: {d.moved} positions changed</div>}
    </div>
  );
}

export function Figures({ c }: { c: BatchComparison }) {
  const s = c.success;
  const sci = interval(s.ci_lo, s.ci_hi);
  const level = `${Math.round(c.bootstrap.level * 100)}%`;
  const cell = 'px-1.5 text-right tabular-nums';
  return (
    <table className="w-full max-w-[820px] text-[11px]" data-testid="batch-compare-metrics">
      <thead className="text-[10px] text-zinc-500 uppercase">
        <tr>
          <th className="px-1.5 text-left font-normal">metric</th>
          <th className={`${cell} font-normal`}>n</th>
          <th className={`${cell} font-normal`}>mean A</th>
          <th className={`${cell} font-normal`}>mean B</th>
          <th className={`${cell} font-normal`}>B − A</th>
          <th className={`${cell} font-normal`}>{level} interval</th>
        </tr>
      </thead>
      <tbody>
        {c.metrics.map((m) => {
          const ci = interval(m.ci_lo, m.ci_hi);
          return (
            <tr
              key={m.metric}
              data-testid={`batch-compare-metric-${m.metric}`}
              className={m.metric === c.metric ? 'bg-sky-950/40' : ''}
            >
              <td className="px-1.5 text-zinc-300">{m.metric}</td>
              <td className={`${cell} text-zinc-500`}>{m.n}</td>
              <td className={`${cell} text-zinc-300`}>{formatMetric(m.mean_a)}</td>
              <td className={`${cell} text-zinc-300`}>{formatMetric(m.mean_b)}</td>
              <td
                className={`${cell} ${m.mean_diff < 0 ? 'text-red-300' : m.mean_diff > 0 ? 'text-emerald-300' : 'text-zinc-400'}`}
              >
                {signed(m.mean_diff)}
              </td>
              <td
                className={`${cell} ${ci.excludesZero ? 'text-zinc-100' : 'text-zinc-500'}`}
                title={ci.excludesZero ? 'the interval excludes 0' : 'the interval contains 0'}
              >
                {ci.text}
              </td>
            </tr>
          );
        })}
        <tr className="border-t border-zinc-800" data-testid="batch-compare-success">
          <td className="px-1.5 text-zinc-300">success rate</td>
          <td className={`${cell} text-zinc-500`}>{s.n}</td>
          <td className={`${cell} text-zinc-300`}>{percent(s.rate_a)}</td>
          <td className={`${cell} text-zinc-300`}>{percent(s.rate_b)}</td>
          <td
            className={`${cell} ${(s.diff ?? 0) < 0 ? 'text-red-300' : (s.diff ?? 0) > 0 ? 'text-emerald-300' : 'text-zinc-400'}`}
          >
            {s.diff === null ? '–' : `${signed(s.diff * 100)} pts`}
          </td>
          <td className={`${cell} ${sci.excludesZero ? 'text-zinc-100' : 'text-zinc-500'}`}>
            {s.ci_lo === null || s.ci_hi === null ? '–' : interval(s.ci_lo * 100, s.ci_hi * 100).text}
          </td>
        </tr>
        <tr>
          <td colSpan={6} className="px-1.5 text-zinc-400" data-testid="batch-compare-wins">
            <span className="text-emerald-300">{s.wins} wins</span> ·{' '}
            <span className="text-red-300">{s.losses} losses</span> · {s.ties} ties
            <span className="ml-2 text-[10px] text-zinc-600">
              paired by seed · {c.bootstrap.resamples} paired bootstrap resamples, seed {c.bootstrap.seed}
            </span>
          </td>
        </tr>
      </tbody>
    </table>
  );
}
