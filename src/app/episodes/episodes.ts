// Episodes of a run, from its timeline: pure functions over the run store's steps, snapshots and
// pending events (the same whether the run is live or a past one replayed from its log on `/?run=`).
//
// Rule (checked against the demo's event log): the env emits `episode_reset` while it fires, i.e.
// inside step N, after that step's `step_start` and before its `nav_step`, and step N already shows
// the new episode's first observation (t=0). So an `episode_reset` seen in step N makes N the first
// step of the next episode. Episode 1 starts at the run's first step; a reset inside that first step
// (the demo's first one) just opens episode 1. A run without `episode_reset` is one episode.
import type { RunState, StepSignal, StepSnapshot } from '../run/run.store.ts';

export const EPISODE_SIGNAL = 'episode_reset';

export interface Episode {
  /** 1-based episode number. */
  index: number;
  /** Its steps, ascending (the run's steps from its first step to the one before the next reset). */
  steps: number[];
}

type Timeline = Pick<RunState, 'steps' | 'snapshots' | 'pending'>;

/**
 * The signals of each step on the timeline. The handlers file a signal under "the step after the
 * newest nav_step seen"; when the server dropped intermediate nav_steps (backfilled later) that
 * step is too early, so a signal is moved to the first step at or after it whose nav_step came
 * after the signal (by seq). Signals of steps not on the timeline (yet) are left out.
 */
export function signalsByStep(t: Timeline): Map<number, StepSignal[]> {
  const steps = [...t.steps].sort((a, b) => a - b);
  const out = new Map<number, StepSignal[]>();
  const file = (attributed: number, sig: StepSignal) => {
    let i = lowerBound(steps, attributed);
    for (; i < steps.length; i++) {
      const snap = t.snapshots[steps[i]!];
      if (snap && snap.seq > sig.seq) break;
    }
    const step = steps[i];
    if (step === undefined) return;
    const list = out.get(step);
    if (list) list.push(sig);
    else out.set(step, [sig]);
  };
  for (const st of steps) for (const sig of t.snapshots[st]?.signals ?? []) file(st, sig);
  for (const [st, ev] of Object.entries(t.pending)) for (const sig of ev.signals ?? []) file(Number(st), sig);
  for (const list of out.values()) list.sort((a, b) => a.seq - b.seq);
  return out;
}

/** Index of the first element ≥ x in an ascending array. */
function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Episodes of the timeline (see the rule above); [] for a run without steps. */
export function computeEpisodes(steps: readonly number[], signals: Map<number, StepSignal[]>): Episode[] {
  const sorted = [...new Set(steps)].sort((a, b) => a - b);
  const out: Episode[] = [];
  for (const st of sorted) {
    const reset = signals.get(st)?.some((s) => s.signal === EPISODE_SIGNAL) ?? false;
    const cur = out[out.length - 1];
    if (!cur || reset) out.push({ index: out.length + 1, steps: [st] });
    else cur.steps.push(st);
  }
  return out;
}

/** Episode number of every step. */
export function episodeOfStep(episodes: readonly Episode[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const e of episodes) for (const st of e.steps) m.set(st, e.index);
  return m;
}

export interface TimelineEpisodes {
  episodes: Episode[];
  signals: Map<number, StepSignal[]>;
  episodeOf: Map<number, number>;
}

/** Everything the timeline needs about episodes, from the run store's timeline fields. */
export function timelineEpisodes(t: Timeline): TimelineEpisodes {
  const signals = signalsByStep(t);
  const episodes = computeEpisodes(t.steps, signals);
  return { episodes, signals, episodeOf: episodeOfStep(episodes) };
}

const PER_STEP_SIGNALS = new Set(['step_start', 'step_end']);
/** At most this many cleared slot names are spelled out in a tick label. */
const CLEARS_SHOWN = 3;

/**
 * A tick's label: "step 37 · episode 4 · 5 writes · cleared last_obs · signal episode_reset · 1 error".
 * Parts with nothing to say are left out.
 */
export function tickLabel(
  step: number,
  episode: number | undefined,
  snap: StepSnapshot | undefined,
  signals: readonly StepSignal[] = [],
): string {
  const parts = [`step ${step}`];
  if (episode !== undefined) parts.push(`episode ${episode}`);
  if (!snap) parts.push('no events recorded');
  else {
    const w = snap.writes.length;
    parts.push(`${w} write${w === 1 ? '' : 's'}`);
    const cleared = [...new Set(snap.clears.map((c) => c.slot))];
    if (cleared.length > 0)
      parts.push(
        `cleared ${cleared.slice(0, CLEARS_SHOWN).join(', ')}${cleared.length > CLEARS_SHOWN ? ` +${cleared.length - CLEARS_SHOWN}` : ''}`,
      );
  }
  const names = [...new Set(signals.map((s) => s.signal).filter((n) => !PER_STEP_SIGNALS.has(n)))];
  if (names.length > 0) parts.push(`signal ${names.join(', ')}`);
  const e = snap?.errors.length ?? 0;
  if (e > 0) parts.push(`${e} error${e === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

/** Row i pairs the i-th step of episode A with the i-th step of episode B (undefined past the shorter). */
export interface AlignedRow {
  offset: number;
  a: number | undefined;
  b: number | undefined;
}

export function alignEpisodes(a: Episode | undefined, b: Episode | undefined): AlignedRow[] {
  const n = Math.max(a?.steps.length ?? 0, b?.steps.length ?? 0);
  const rows: AlignedRow[] = [];
  for (let i = 0; i < n; i++) rows.push({ offset: i, a: a?.steps[i], b: b?.steps[i] });
  return rows;
}
