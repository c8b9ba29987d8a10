// The run toolbar's state machine (docs/reference-system.md §4.7) as a pure function of the run status, with
// what the reference lacked: Play resumes a paused run, and Step advances one step (starting a
// paused run first when none is live).
import type { RunStatusView } from './run.store.ts';

export interface ToolbarModel {
  play: boolean;
  playLabel: 'Play' | 'Resume';
  pause: boolean;
  step: boolean;
  stop: boolean;
  reset: boolean;
}

/** `otherTab`: the followed run executes another tab's graph, so Play/Step here start a new run. */
export function toolbarModel(status: RunStatusView | null, busy = false, otherTab = false): ToolbarModel {
  const s = status ?? 'idle';
  const live = s === 'running' || s === 'paused' || s === 'starting';
  return {
    play: !busy && ((s !== 'running' && s !== 'starting') || otherTab),
    playLabel: s === 'paused' && !otherTab ? 'Resume' : 'Play',
    pause: !busy && s === 'running',
    step: !busy && ((s !== 'running' && s !== 'starting') || otherTab),
    stop: !busy && live && s !== 'starting',
    reset: !busy && status !== null && s !== 'starting',
  };
}

/** Short status text and its colour class. */
export function statusView(status: RunStatusView | null): { text: string; tone: string } {
  switch (status) {
    case null:
      return { text: 'idle', tone: 'text-zinc-500' };
    case 'running':
      return { text: 'running', tone: 'text-emerald-400' };
    case 'starting':
      return { text: 'starting…', tone: 'text-emerald-300' };
    case 'paused':
      return { text: 'paused', tone: 'text-amber-300' };
    case 'done':
      return { text: 'done', tone: 'text-sky-300' };
    case 'error':
      return { text: 'error', tone: 'text-red-400' };
    case 'interrupted':
      return { text: 'interrupted', tone: 'text-orange-300' };
    default:
      return { text: status, tone: 'text-zinc-400' };
  }
}
