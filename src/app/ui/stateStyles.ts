// Reducer and lifetime presentation (docs/reference-system.md §5.3 colours; our extension reducers get their own).
import { LIFETIME_HINTS } from '../../domain/state/lifetimes.ts';

export const REDUCER_BADGE: Record<string, string> = {
  accumulator: 'bg-amber-600/40 text-amber-300',
  lastWrite: 'bg-blue-600/40 text-blue-300',
  counter: 'bg-green-600/40 text-green-300',
  merge: 'bg-indigo-600/40 text-indigo-300',
  union: 'bg-teal-600/40 text-teal-300',
  byKey: 'bg-fuchsia-600/40 text-fuchsia-300',
};

export function reducerBadge(reducer: string): string {
  return REDUCER_BADGE[reducer] ?? REDUCER_BADGE.lastWrite!;
}

/** One-line explanation of each reducer, shown in the slot editor. */
export const REDUCER_HELP: Record<string, string> = {
  accumulator: 'appends each write to a list (max_size keeps only the newest items)',
  lastWrite: 'each write replaces the value',
  counter: 'adds each write to a running number',
  merge: 'shallow-merges written objects into one object (later keys win)',
  union: 'adds written items to a set (no duplicates, first-seen order)',
  byKey: 'one record per key; each field merges with its own reducer',
};

export const LIFETIME_BADGE: Record<string, string> = {
  step: 'bg-gray-700/50 text-gray-300',
  episode: 'bg-emerald-700/50 text-emerald-300',
  run: 'bg-cyan-700/50 text-cyan-300',
  custom: 'bg-pink-700/50 text-pink-300',
};

export function lifetimeBadge(lifetime: string): string {
  return LIFETIME_BADGE[lifetime] ?? LIFETIME_BADGE.custom!;
}

export function lifetimeHint(lifetime: string, resetOn: readonly string[] = []): string {
  if (lifetime === 'custom')
    return resetOn.length ? `clears on ${resetOn.join(', ')} (explicit signal list)` : LIFETIME_HINTS.custom!;
  return LIFETIME_HINTS[lifetime] ?? 'unknown lifetime: treated as forever';
}

/** Owner tag (docs/reference-system.md §5.3/5.4): `home` amber, any node service / nodeset indigo. */
export function ownerTag(owner: string): string {
  return owner === 'home' ? 'bg-amber-500/10 text-amber-300' : 'bg-indigo-500/10 text-indigo-300';
}

export function ownerHint(owner: string): string {
  return owner === 'home' ? 'graph / executor process' : 'nodeset-owned (subprocess)';
}
