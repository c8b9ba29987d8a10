// Timeline (bottom drawer): one tick per step of the followed run. Clicking a tick inspects that
// step everywhere (boxes and State panel show its values, full values fetched from the server);
// Restore rewinds the run to it (paused, Play resumes), Fork starts a new run from it (after its
// dialog previews which recorded calls it reuses, ForkDialog.tsx). Steps are
// grouped into episodes (coloured bands, src/app/episodes/episodes.ts); each tick's tooltip says
// what its step did; Episodes opens Compare (a slot in two episodes) and Plot.
import { memo, useLayoutEffect, useRef, useState } from 'react';
import { ChartLine, GitFork, History, Radio } from 'lucide-react';
import { tickLabel } from '../episodes/episodes.ts';
import { EpisodesView } from '../episodes/EpisodesView.tsx';
import { setEpisodeView, useEpisodeView } from '../episodes/episodeView.store.ts';
import { useTimelineEpisodes } from '../episodes/useEpisodes.ts';
import { Button } from '../ui/Button.tsx';
import { ForkDialog } from './ForkDialog.tsx';
import { inspect } from './run.actions.ts';
import { RestoreButton } from './RestoreButton.tsx';
import { RunsMenu } from './RunsMenu.tsx';
import { TOOL_LABEL } from './toolLabel.ts';
import {
  liveStep,
  shownPartial,
  useRun,
  viewContainers,
  viewFeatures,
  type StepSnapshot,
} from './run.store.ts';
import { formatValue, slotLine } from './slotLine.ts';
import { shownNodeStates } from './nodeLocalState.ts';
import { ndInfoOf } from '../ui/ndarray.ts';
import { NdArrayView } from '../ui/NdArrayView.tsx';
import { CompareButton } from '../compare/CompareButton.tsx';
import { StepFeatureRows, StepRoutes } from '../routing/RunRouting.tsx';
import { differingStep, useReplay } from './replayVerdict.ts';
import { ReplayVerdictBar } from './ReplayVerdictBar.tsx';

/** Past this many steps only a window of ticks around the selection is drawn (DOM stays small). */
const MAX_TICKS = 1500;
/** Within this many px of the right end, the tick strip counts as "at the end" and follows new steps. */
const FOLLOW_SLACK_PX = 24;
/** Room kept beside a selected tick scrolled into view. */
const TICK_MARGIN = 16;

/** Band backgrounds, by episode number (alternating so neighbours differ). */
const BAND_TONES = [
  'bg-sky-500/15 border-sky-500/50 text-sky-300',
  'bg-violet-500/15 border-violet-500/50 text-violet-300',
  'bg-emerald-500/15 border-emerald-500/50 text-emerald-300',
  'bg-amber-500/15 border-amber-500/50 text-amber-300',
];

const Tick = memo(function Tick({
  step,
  selected,
  current,
  hasError,
  hasClear,
  hasSignal,
  label,
  partial = false,
  warned = false,
  replayDiff = false,
}: {
  step: number;
  selected: boolean;
  current: boolean;
  hasError: boolean;
  /** A warning about this step's state (a node service not saved or not put back). */
  warned?: boolean;
  hasClear: boolean;
  hasSignal: boolean;
  label: string;
  /** The step the run is paused inside (no snapshot of its own yet): drawn hollow; a click shows it live. */
  partial?: boolean;
  /** Runs → Replay and verify found the first difference at this step (replayVerdict.ts). */
  replayDiff?: boolean;
}) {
  const tone = selected
    ? 'bg-sky-400'
    : partial
      ? 'border border-emerald-400 bg-emerald-400/30'
      : current
        ? 'bg-emerald-400'
        : hasError
          ? 'bg-red-500/70 group-hover:bg-red-400'
          : 'bg-zinc-600 group-hover:bg-zinc-400';
  return (
    <button
      type="button"
      data-testid={`timeline-tick-${step}`}
      data-selected={selected ? 'true' : 'false'}
      data-signal={hasSignal ? 'true' : 'false'}
      data-error={hasError ? 'true' : 'false'}
      data-current={current ? 'true' : 'false'}
      data-partial={partial ? 'true' : 'false'}
      data-warning={warned ? 'true' : 'false'}
      data-replay-diff={replayDiff ? 'true' : 'false'}
      title={replayDiff ? `${label} · the replay parted from the recording here` : label}
      aria-label={label}
      onClick={() => void inspect(partial ? null : step)}
      className="group relative flex h-7 w-2 shrink-0 items-end justify-center"
    >
      <span className={`block w-1 rounded-sm ${tone} ${selected || current ? 'h-6' : 'h-4'}`} />
      {hasSignal ? (
        <span className="absolute top-0 h-1.5 w-1.5 rotate-45 bg-amber-300" />
      ) : (
        hasClear && <span className="absolute top-0 h-1 w-1 rounded-full bg-pink-400" />
      )}
      {hasError && <span className="absolute top-2 h-1 w-1.5 rounded-sm bg-red-400" />}
      {warned && <span className="absolute bottom-0 h-1 w-2 rounded-sm bg-amber-400" />}
      {replayDiff && <span className="absolute -bottom-0.5 h-1.5 w-2 rounded-sm bg-orange-400" />}
    </button>
  );
});

function Ticks() {
  const steps = useRun((s) => s.steps);
  const snapshots = useRun((s) => s.snapshots);
  const stepWarnings = useRun((s) => s.stepWarnings);
  const selected = useRun((s) => s.inspectedStep);
  const current = useRun(liveStep);
  const partial = useRun(shownPartial);
  const runId = useRun((s) => s.runId);
  const replayStep = useReplay((s) => differingStep(s, runId));
  const { signals, episodeOf, hasResets } = useTimelineEpisodes();
  let shown = steps;
  if (steps.length > MAX_TICKS) {
    const at = selected === null ? steps.length - 1 : Math.max(0, steps.indexOf(selected));
    const from = Math.max(0, Math.min(at - MAX_TICKS / 2, steps.length - MAX_TICKS));
    shown = steps.slice(from, from + MAX_TICKS);
  }
  const scroller = useRef<HTMLDivElement>(null);
  // Live, the strip follows the newest tick unless the user scrolled back to look at older ones;
  // inspecting (click, ←/→), the selected tick is kept in view.
  const followLive = useRef(true);
  const wasSelected = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const backToLive = selected === null && wasSelected.current !== null;
    wasSelected.current = selected;
    if (selected === null) {
      if (followLive.current || backToLive) el.scrollLeft = el.scrollWidth;
      return;
    }
    const tick = el.querySelector<HTMLElement>(`[data-testid="timeline-tick-${selected}"]`);
    if (!tick) return;
    const left = tick.offsetLeft; // the strip is `relative`, so this is within the strip
    if (left < el.scrollLeft) el.scrollLeft = left - TICK_MARGIN;
    else if (left + tick.offsetWidth > el.scrollLeft + el.clientWidth)
      el.scrollLeft = left + tick.offsetWidth - el.clientWidth + TICK_MARGIN;
  }, [selected, current, shown.length]);
  return (
    <div
      ref={scroller}
      className="relative flex overflow-x-auto px-1 outline-none focus-visible:ring-1 focus-visible:ring-sky-600"
      data-testid="timeline-ticks"
      onScroll={(e) => {
        const el = e.currentTarget;
        followLive.current = el.scrollLeft + el.clientWidth >= el.scrollWidth - FOLLOW_SLACK_PX;
      }}
      tabIndex={0}
      title="←/→ step through the timeline, Esc back to live"
      onKeyDown={(e) => {
        if (e.key === 'Escape') return void inspect(null);
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        e.preventDefault();
        const at = steps.indexOf(selected ?? current);
        const next =
          steps[
            Math.max(
              0,
              Math.min(steps.length - 1, (at < 0 ? steps.length : at) + (e.key === 'ArrowLeft' ? -1 : 1)),
            )
          ];
        if (next !== undefined) void inspect(next);
      }}
    >
      {bandsOf(shown, hasResets ? episodeOf : null).map((band) => {
        const ticks = band.steps.map((st) => {
          const snap = snapshots[st];
          const sigs = signals.get(st) ?? [];
          const warnings = stepWarnings[st];
          return (
            <Tick
              key={st}
              step={st}
              selected={st === selected}
              current={st === current}
              hasError={(snap?.errors.length ?? 0) > 0}
              hasClear={(snap?.clears.length ?? 0) > 0}
              hasSignal={sigs.length > 0}
              warned={warnings !== undefined}
              replayDiff={st === replayStep}
              label={[tickLabel(st, band.episode, snap, sigs), ...(warnings ?? [])].join(' · ')}
            />
          );
        });
        if (band.episode === undefined) return ticks;
        const first = band.steps[0]!;
        const last = band.steps[band.steps.length - 1]!;
        return (
          <div
            key={`ep${band.episode}-${first}`}
            data-testid={`timeline-band-${band.episode}`}
            data-first={first}
            data-last={last}
            title={`episode ${band.episode} · step${first === last ? ` ${first}` : `s ${first}–${last}`}`}
            className={`flex shrink-0 flex-col border-l ${BAND_TONES[(band.episode - 1) % BAND_TONES.length]}`}
          >
            <span className="h-3 overflow-hidden px-0.5 text-[9px] leading-3 whitespace-nowrap">
              ep {band.episode}
            </span>
            <div className="flex">{ticks}</div>
          </div>
        );
      })}
      {partial && (
        <Tick
          step={partial.step}
          selected={false}
          current
          partial
          hasError={partial.errors.length > 0}
          hasClear={partial.clears.length > 0}
          hasSignal={false}
          label={`${tickLabel(partial.step, undefined, partial)} so far · paused inside this step at a breakpoint`}
        />
      )}
    </div>
  );
}

/** Consecutive shown steps of one episode (one band each); no episodes → one unbanded run. */
function bandsOf(
  shown: readonly number[],
  episodeOf: Map<number, number> | null,
): { episode: number | undefined; steps: number[] }[] {
  if (!episodeOf) return [{ episode: undefined, steps: [...shown] }];
  const out: { episode: number | undefined; steps: number[] }[] = [];
  for (const st of shown) {
    const e = episodeOf.get(st);
    const cur = out[out.length - 1];
    if (cur && cur.episode === e) cur.steps.push(st);
    else out.push({ episode: e, steps: [st] });
  }
  return out;
}

function StepChanges({ snap }: { snap: StepSnapshot | undefined }) {
  if (!snap) return <div className="text-zinc-500">No events recorded for this step.</div>;
  return (
    <div className="space-y-0.5" data-testid="timeline-changes">
      {snap.writes.map((w, i) => (
        <div key={`w${i}`} className="truncate" title={`${formatValue(w.before)} → ${formatValue(w.after)}`}>
          <span className="text-zinc-400">{w.node_id}</span> →{' '}
          <span className="text-violet-300">
            {w.container}.{w.slot}
          </span>
          {w.key !== undefined && <span className="text-zinc-500">[{w.key}]</span>}{' '}
          <span className="text-zinc-500">{w.reducer}</span>{' '}
          <span className="font-mono text-zinc-300">{formatValue(w.after)}</span>
        </div>
      ))}
      {snap.clears.map((c, i) => (
        <div
          key={`c${i}`}
          className="truncate text-pink-300"
          title={`${c.container}.${c.slot} cleared by ${c.signal}`}
        >
          {c.container}.{c.slot} cleared by {c.signal}
        </div>
      ))}
      {snap.errors.map((e, i) => (
        <div key={`e${i}`} className="truncate text-red-400" title={e}>
          {e}
        </div>
      ))}
      {snap.writes.length + snap.clears.length + snap.errors.length === 0 && (
        <div className="text-zinc-500">No writes, clears or errors in this step.</div>
      )}
    </div>
  );
}

function StepValues() {
  const containers = useRun(viewContainers);
  const nodeStates = useRun(shownNodeStates);
  const full = useRun((s) => s.inspected !== null && s.inspected.step === s.inspectedStep);
  const entries = Object.entries(containers);
  const features = useRun((s) => Object.keys(viewFeatures(s)).length);
  if (entries.length === 0 && features === 0)
    return <div className="text-zinc-500">No container values yet.</div>;
  return (
    <table className="w-full table-fixed" data-testid="timeline-values" data-full={full ? 'true' : 'false'}>
      <tbody>
        <StepFeatureRows />
        {entries.flatMap(([cid, c]) =>
          Object.entries(c.states).map(([slot, s]) => (
            <tr key={`${cid}/${slot}`} className="border-t border-zinc-800/60">
              <td className="w-1/3 truncate px-1 text-violet-300" title={`${cid}.${slot}`}>
                {cid}.{slot}
              </td>
              <td
                className="truncate px-1 font-mono text-zinc-300"
                title={s.value !== undefined ? formatValue(s.value) : s.preview}
              >
                {ndInfoOf(s.value) ? (
                  <NdArrayView value={s.value} size="thumb" />
                ) : full && s.value !== undefined && s.size === undefined ? (
                  formatValue(s.value)
                ) : (
                  slotLine(s)
                )}
              </td>
            </tr>
          )),
        )}
        {Object.entries(nodeStates).map(([nodeId, v]) => (
          <tr key={`node/${nodeId}`} className="border-t border-zinc-800/60">
            <td className="w-1/3 truncate px-1 text-zinc-400" title="node-local state">
              node {nodeId}
            </td>
            <td className="truncate px-1 font-mono text-zinc-400" title={formatValue(v)}>
              {formatValue(v)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TimelinePanel() {
  const runId = useRun((s) => s.runId);
  const count = useRun((s) => s.steps.length);
  const selected = useRun((s) => s.inspectedStep);
  const current = useRun(liveStep);
  const inStep = useRun((s) => shownPartial(s) !== null);
  const status = useRun((s) => s.status);
  const snap = useRun((s) =>
    s.inspectedStep === null ? (shownPartial(s) ?? s.snapshots[s.step]) : s.snapshots[s.inspectedStep],
  );
  const episodesOpen = useEpisodeView((s) => s.open);
  /** The step the fork dialog is open for (it previews what the fork reuses, then starts it). */
  const [forkAt, setForkAt] = useState<number | null>(null);
  if (runId === null)
    return (
      <div className="flex items-center gap-2 p-2 text-xs text-zinc-500" data-testid="timeline-panel">
        No run yet. Press Play to run the graph of this tab; every step is kept here.
        <RunsMenu />
      </div>
    );
  const target = selected ?? current;
  return (
    <div className="flex h-full flex-col text-xs" data-testid="timeline-panel">
      {/* One line at any width: the run id gives way first (its tooltip has it), then the buttons
          keep only their icons (their tooltips say what they do), never wrap. */}
      <div
        className="@container flex items-center gap-2 border-b border-zinc-800 px-2 py-0.5 whitespace-nowrap"
        data-testid="timeline-toolbar"
      >
        <History size={12} className="shrink-0 text-sky-400" />
        <span className="shrink-0 text-zinc-300" data-testid="timeline-count">
          {count} steps
        </span>
        <span
          className="min-w-0 truncate text-[10px] text-zinc-500"
          data-testid="timeline-run-id"
          title={`run ${runId} · ${status ?? 'idle'}`}
        >
          {runId} · {status ?? 'idle'}
        </span>
        <span className="ml-auto shrink-0 text-zinc-400" data-testid="timeline-selected">
          {selected === null
            ? `live · step ${current}${inStep ? ' (paused inside it)' : ''}`
            : `inspecting step ${selected}`}
        </span>
        <Button
          variant="ghost"
          className="shrink-0"
          data-testid="timeline-live"
          disabled={selected === null}
          onClick={() => void inspect(null)}
          title="Show the live values again"
        >
          <Radio size={11} /> <span className={TOOL_LABEL}>Live</span>
        </Button>
        <RestoreButton selected={selected} target={target} />
        <Button
          className="shrink-0"
          data-testid="timeline-fork"
          disabled={count === 0 || (selected === null && inStep)}
          onClick={() => setForkAt(target)}
          title={
            selected === null && inStep
              ? `Step ${current} is not complete (paused inside it): Step finishes it, or pick an earlier step to fork from`
              : "Start a new run from this step's state (with this tab's graph; unchanged calls answered from this run's recording)"
          }
        >
          <GitFork size={11} /> <span className={TOOL_LABEL}>Fork</span>
        </Button>
        {forkAt !== null && <ForkDialog runId={runId} step={forkAt} onClose={() => setForkAt(null)} />}
        <CompareButton runId={runId} step={target} />
        <Button
          variant={episodesOpen ? 'primary' : 'ghost'}
          className="shrink-0"
          data-testid="timeline-episodes"
          data-open={episodesOpen ? 'true' : 'false'}
          onClick={() => setEpisodeView({ open: !episodesOpen })}
          title="Compare a slot across two episodes, plot a number over the steps"
        >
          <ChartLine size={11} /> <span className={TOOL_LABEL}>Episodes</span>
        </Button>
        <RunsMenu />
      </div>
      <ReplayVerdictBar />
      <Ticks />
      {episodesOpen ? (
        <EpisodesView />
      ) : (
        <div className="grid min-h-0 flex-1 grid-cols-2 gap-2 overflow-y-auto border-t border-zinc-800 px-2 py-1">
          <div className="min-w-0">
            <div className="mb-0.5 text-[10px] text-zinc-500 uppercase">Values at step {target}</div>
            <StepValues />
          </div>
          <div className="min-w-0">
            <div className="mb-0.5 text-[10px] text-zinc-500 uppercase">
              What step {target} did{selected === null && inStep ? ' so far' : ''}
            </div>
            <StepRoutes step={target} />
            <StepChanges snap={snap} />
          </div>
        </div>
      )}
    </div>
  );
}
