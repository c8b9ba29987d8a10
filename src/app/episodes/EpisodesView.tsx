// The timeline's Episodes view: Compare (one slot in two episodes, step i of A beside step i of B)
// and Plot (one number over the run's steps, episode starts marked). Values come from the streamed
// snapshots when they carry them, else from GET /api/runs/{id}/state?step=N (cached).
import { useEffect, useMemo, useState } from 'react';
import { runStore, useRun, type StepSnapshot } from '../run/run.store.ts';
import { formatValue } from '../run/slotLine.ts';
import { alignEpisodes, type Episode } from './episodes.ts';
import { EpisodePlot } from './EpisodePlot.tsx';
import { setEpisodeView, useEpisodeView } from './episodeView.store.ts';
import {
  parseSlotKey,
  parseViewerKey,
  plottableSlots,
  seriesOf,
  slotKey,
  stateAt,
  valueInSnapshot,
  valueInState,
  viewerSeriesKeys,
  type SeriesKey,
} from './series.ts';
import { useTimelineEpisodes } from './useEpisodes.ts';

/** Fetches in flight at once for Compare's full values. */
const FETCH_CONCURRENCY = 4;

const SELECT =
  'rounded border border-zinc-700 bg-zinc-900 px-1 py-0 text-[11px] text-zinc-200 outline-none focus:border-sky-600';

function allSlots(snap: StepSnapshot | undefined): SeriesKey[] {
  if (!snap) return [];
  return Object.entries(snap.containers).flatMap(([cid, c]) =>
    Object.keys(c.states).map((s) => slotKey(cid, s)),
  );
}

function seriesName(key: SeriesKey): string {
  const v = parseViewerKey(key);
  return v ? `${v.node} › ${v.field}` : key;
}

/** A step's value of the series: known now (snapshot / viewer line) or `pending` (to fetch). */
type Cell = { value: unknown; fetched: boolean } | 'pending' | 'none';

function useCompareCells(key: SeriesKey | null, wanted: readonly number[]): Map<number, Cell> {
  const runId = useRun((s) => s.runId);
  const snapshots = useRun((s) => s.snapshots);
  const viewerHistory = useRun((s) => s.viewerHistory);
  const [fetched, setFetched] = useState<{ id: string; values: Map<number, unknown> }>({
    id: '',
    values: new Map(),
  });
  const id = `${runId}\u0000${key}`;
  const values = fetched.id === id ? fetched.values : undefined;
  const cells = useMemo(() => {
    const out = new Map<number, Cell>();
    const slot = key ? parseSlotKey(key) : null;
    const viewer = key ? parseViewerKey(key) : null;
    for (const st of wanted) {
      if (viewer) {
        const n = viewerHistory[viewer.node]?.find((l) => l.step === st)?.numbers?.[viewer.field];
        out.set(st, n === undefined ? 'none' : { value: n, fetched: false });
      } else if (slot) {
        const snap = snapshots[st];
        const known = valueInSnapshot(snap?.containers[slot.container]?.states[slot.slot]);
        if (known) out.set(st, { value: known.value, fetched: false });
        else if (values?.has(st)) out.set(st, { value: values.get(st), fetched: true });
        else out.set(st, snap ? 'pending' : 'none');
      } else out.set(st, 'none');
    }
    return out;
  }, [key, wanted, snapshots, viewerHistory, values]);

  useEffect(() => {
    const slot = key ? parseSlotKey(key) : null;
    if (!runId || !slot) return;
    const todo = [...cells].filter(([, c]) => c === 'pending').map(([st]) => st);
    if (todo.length === 0) return;
    let cancelled = false;
    const run = async () => {
      while (todo.length > 0 && !cancelled) {
        const st = todo.shift()!;
        const seq = runStore.getState().snapshots[st]?.seq ?? 0;
        try {
          const state = await stateAt(runId, st, seq);
          if (cancelled) return;
          const v = valueInState(state, slot.container, slot.slot);
          setFetched((f) => {
            const base = f.id === id ? f.values : new Map<number, unknown>();
            const next = new Map(base);
            next.set(st, v);
            return { id, values: next };
          });
        } catch {
          // Left as "…": the step may be gone (restore) or the server unreachable.
        }
      }
    };
    for (let i = 0; i < FETCH_CONCURRENCY; i++) void run();
    return () => {
      cancelled = true;
    };
  }, [cells, runId, key, id]);
  return cells;
}

function cellText(c: Cell | undefined): string {
  if (c === undefined || c === 'none') return '';
  if (c === 'pending') return '…';
  return formatValue(c.value) || String(c.value);
}

/** A step number and its value, one side of a Compare row. */
function CompareCells({
  side,
  offset,
  step,
  cell,
}: {
  side: 'a' | 'b';
  offset: number;
  step: number | undefined;
  cell: Cell | undefined;
}) {
  const text = cellText(cell);
  return (
    <>
      <td className="px-1 text-zinc-500">{step ?? ''}</td>
      <td
        className={`truncate px-1 ${typeof cell === 'object' && cell.fetched ? 'text-zinc-200' : 'text-zinc-300'}`}
        data-testid={`episode-compare-${side}-${offset}`}
        data-step={step ?? ''}
        title={text}
      >
        {text}
      </td>
    </>
  );
}

function same(a: Cell | undefined, b: Cell | undefined): boolean {
  if (typeof a !== 'object' || typeof b !== 'object') return true;
  return JSON.stringify(a.value) === JSON.stringify(b.value);
}

function EpisodeSelect({
  testId,
  value,
  episodes,
  onChange,
}: {
  testId: string;
  value: number;
  episodes: readonly Episode[];
  onChange: (n: number) => void;
}) {
  return (
    <select
      className={SELECT}
      data-testid={testId}
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
    >
      {episodes.map((e) => (
        <option key={e.index} value={e.index}>
          episode {e.index} ({e.steps.length} steps)
        </option>
      ))}
    </select>
  );
}

function Compare({ series, episodes }: { series: SeriesKey | null; episodes: readonly Episode[] }) {
  // Choices kept from an earlier run may name episodes this one does not have: use its last.
  const last = Math.max(1, episodes.length);
  const a = Math.min(
    useEpisodeView((s) => s.episodeA),
    last,
  );
  const b = Math.min(
    useEpisodeView((s) => s.episodeB),
    last,
  );
  const epA = episodes.find((e) => e.index === a);
  const epB = episodes.find((e) => e.index === b);
  const rows = useMemo(() => alignEpisodes(epA, epB), [epA, epB]);
  const wanted = useMemo(
    () => rows.flatMap((r) => [r.a, r.b]).filter((s): s is number => s !== undefined),
    [rows],
  );
  const cells = useCompareCells(series, wanted);
  return (
    <div className="min-h-0">
      <div className="mb-1 flex items-center gap-1 text-zinc-400">
        {(['a', 'b'] as const).map((side) => (
          <label key={side} className="flex items-center gap-1">
            {side.toUpperCase()}
            <EpisodeSelect
              testId={`episode-${side}`}
              value={side === 'a' ? a : b}
              episodes={episodes}
              onChange={(n) => setEpisodeView(side === 'a' ? { episodeA: n } : { episodeB: n })}
            />
          </label>
        ))}
      </div>
      {!series ? (
        <div className="text-zinc-500">Pick a slot to compare.</div>
      ) : (
        <table className="w-full table-fixed font-mono" data-testid="episode-compare">
          <thead>
            <tr className="text-left text-[10px] text-zinc-500">
              <th className="w-8 px-1 font-normal">#</th>
              <th className="w-12 px-1 font-normal">step</th>
              <th className="px-1 font-normal">episode {a}</th>
              <th className="w-12 px-1 font-normal">step</th>
              <th className="px-1 font-normal">episode {b}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const ca = r.a === undefined ? undefined : cells.get(r.a);
              const cb = r.b === undefined ? undefined : cells.get(r.b);
              const differs = !same(ca, cb);
              return (
                <tr
                  key={r.offset}
                  data-testid={`episode-compare-row-${r.offset}`}
                  data-differs={differs ? 'true' : 'false'}
                  className={`border-t border-zinc-800/60 ${differs ? 'bg-amber-500/10' : ''}`}
                >
                  <td className="px-1 text-zinc-500">{r.offset}</td>
                  <CompareCells side="a" offset={r.offset} step={r.a} cell={ca} />
                  <CompareCells side="b" offset={r.offset} step={r.b} cell={cb} />
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Plot({ series, episodes }: { series: SeriesKey | null; episodes: readonly Episode[] }) {
  const steps = useRun((s) => s.steps);
  const snapshots = useRun((s) => s.snapshots);
  const viewerHistory = useRun((s) => s.viewerHistory);
  const ys = useMemo(
    () => (series ? seriesOf(series, steps, snapshots, viewerHistory) : []),
    [series, steps, snapshots, viewerHistory],
  );
  if (!series) return <div className="text-zinc-500">Pick a numeric slot or a viewer number to plot.</div>;
  if (!ys.some((y) => y !== null))
    return <div className="text-zinc-500">{seriesName(series)} has no numbers to plot.</div>;
  return <EpisodePlot label={seriesName(series)} steps={steps} ys={ys} episodes={episodes} />;
}

export function EpisodesView() {
  const tab = useEpisodeView((s) => s.tab);
  const chosen = useEpisodeView((s) => s.series);
  const { episodes } = useTimelineEpisodes();
  const latest = useRun((s) => s.snapshots[s.steps[s.steps.length - 1] ?? -1]);
  const viewerHistory = useRun((s) => s.viewerHistory);
  const options = useMemo(() => {
    const slots = tab === 'plot' ? plottableSlots(latest) : allSlots(latest);
    const merged = [...slots, ...viewerSeriesKeys(viewerHistory)];
    return chosen && !merged.includes(chosen) ? [chosen, ...merged] : merged;
  }, [tab, latest, viewerHistory, chosen]);
  const series = chosen ?? options[0] ?? null;
  const tabButton = (t: 'compare' | 'plot', text: string) => (
    <button
      type="button"
      data-testid={`episodes-tab-${t}`}
      data-active={tab === t ? 'true' : 'false'}
      onClick={() => setEpisodeView({ tab: t })}
      className={`rounded px-1.5 ${tab === t ? 'bg-sky-500/20 text-sky-300' : 'text-zinc-400 hover:text-zinc-200'}`}
    >
      {text}
    </button>
  );
  return (
    <div
      className="flex min-h-0 flex-1 flex-col overflow-y-auto border-t border-zinc-800 px-2 py-1"
      data-testid="episodes-view"
    >
      <div className="mb-1 flex shrink-0 items-center gap-2">
        <span className="text-[10px] text-zinc-500 uppercase">Episodes · {episodes.length}</span>
        {tabButton('compare', 'Compare')}
        {tabButton('plot', 'Plot')}
        <select
          className={`${SELECT} max-w-64`}
          data-testid="episodes-series"
          value={series ?? ''}
          onChange={(e) => setEpisodeView({ series: e.target.value || null })}
        >
          {options.length === 0 && <option value="">no slots yet</option>}
          {options.map((k) => (
            <option key={k} value={k}>
              {seriesName(k)}
            </option>
          ))}
        </select>
      </div>
      {tab === 'compare' ? (
        <Compare series={series} episodes={episodes} />
      ) : (
        <Plot series={series} episodes={episodes} />
      )}
    </div>
  );
}
