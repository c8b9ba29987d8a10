// Lifetime → signals that clear a slot (docs/reference-system.md §1.5). Pure data, shared by engine and UI.
import type { StateDef } from '../graph/graph.schema.ts';

export const BUILTIN_SIGNALS = ['run_start', 'step_start', 'step_end', 'run_end', 'episode_reset'] as const;

export const LIFETIME_SIGNALS: Record<string, readonly string[]> = {
  forever: [],
  step: ['step_end'],
  episode: ['episode_reset'],
  run: ['run_end'],
  custom: [],
};

/** Signals that clear this slot. Unknown lifetimes behave as forever; reset_on counts only for custom. */
export function resetSignals(state: Pick<StateDef, 'lifetime' | 'reset_on'>): readonly string[] {
  if (state.lifetime === 'custom') return state.reset_on;
  // Own properties only: a lifetime named `constructor` is unknown (forever), not Object's function.
  return Object.hasOwn(LIFETIME_SIGNALS, state.lifetime) ? LIFETIME_SIGNALS[state.lifetime]! : [];
}

/** One-line hints, as the reference shows them on lifetime badges. */
export const LIFETIME_HINTS: Record<string, string> = {
  forever: 'never clears',
  step: 'clears at IterOut (end of each step of its scope)',
  episode: 'clears on episode change',
  run: 'clears at run end',
  custom: 'explicit signal list',
};
