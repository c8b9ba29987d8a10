// The editor's breakpoints, per tab (a graph's view settings: loaded from and saved to
// /api/views/{graph id} once the tab's graph is saved, never into the graph file). Every change is
// also sent to the run executing that tab's graph, so a breakpoint set during a run applies at once.
import { createStore, useStore } from 'zustand';
import {
  describeBreakpoint,
  type Breakpoint,
  type BreakpointInput,
  BreakpointSchema,
} from '../../domain/debug/breakpoints.ts';
import { editorStore } from '../store/editor.store.ts';
import { isActive, runStore } from '../run/run.store.ts';
import { viewsApi } from '../api/views.ts';

interface BreakpointsState {
  byTab: Record<string, Breakpoint[]>;
  /** Tabs whose saved breakpoints were fetched (or that have none to fetch). */
  loaded: Record<string, true>;
  /** Last save/sync failure, shown in the panel. */
  error: string | null;
}

export const breakpointsStore = createStore<BreakpointsState>()(() => ({
  byTab: {},
  loaded: {},
  error: null,
}));

const NONE: Breakpoint[] = [];

export function useBreakpoints(tabId: string | null): Breakpoint[] {
  return useStore(breakpointsStore, (s) => (tabId ? (s.byTab[tabId] ?? NONE) : NONE));
}

export function breakpointsOf(tabId: string | null): Breakpoint[] {
  return tabId ? (breakpointsStore.getState().byTab[tabId] ?? NONE) : NONE;
}

const savedIdOf = (tabId: string) => editorStore.getState().tabs.find((t) => t.id === tabId)?.savedId ?? null;

/** Fetches a saved graph's breakpoints once per tab (kept in memory only while the tab is unsaved). */
export async function loadBreakpoints(tabId: string): Promise<void> {
  if (breakpointsStore.getState().loaded[tabId]) return;
  const savedId = savedIdOf(tabId);
  breakpointsStore.setState((s) => ({ loaded: { ...s.loaded, [tabId]: true } }));
  if (!savedId) return;
  try {
    const v = await viewsApi.get(savedId);
    const mine = breakpointsStore.getState().byTab[tabId] ?? [];
    // Anything set meanwhile wins over what was saved (same id).
    const merged = [...v.breakpoints.filter((b) => !mine.some((m) => m.id === b.id)), ...mine];
    breakpointsStore.setState((s) => ({ byTab: { ...s.byTab, [tabId]: merged } }));
  } catch (e) {
    breakpointsStore.setState({ error: `could not load breakpoints: ${(e as Error).message}` });
  }
}

async function sync(tabId: string, list: Breakpoint[]): Promise<void> {
  const errors: string[] = [];
  const savedId = savedIdOf(tabId);
  if (savedId) await viewsApi.put(savedId, list).catch((e: Error) => errors.push(`save: ${e.message}`));
  const run = runStore.getState();
  if (run.runId && run.tabId === tabId && isActive(run.status))
    await viewsApi.setRunBreakpoints(list).catch((e: Error) => errors.push(`run: ${e.message}`));
  breakpointsStore.setState({
    error: errors.length ? `breakpoints not applied (${errors.join('; ')})` : null,
  });
}

function change(tabId: string, fn: (list: Breakpoint[]) => Breakpoint[]): void {
  const next = fn(breakpointsOf(tabId));
  breakpointsStore.setState((s) => ({ byTab: { ...s.byTab, [tabId]: next } }));
  void sync(tabId, next);
}

/** A breakpoint as the user describes it (the id is made here). */
export type NewBreakpoint = BreakpointInput extends infer T
  ? T extends unknown
    ? Omit<T, 'id'> & { id?: string }
    : never
  : never;

let counter = 0;
const newId = () => `bp_${Date.now().toString(36)}_${(counter++).toString(36)}`;

/** Adds a breakpoint (an identical one already there is not added twice); returns its id. */
export function addBreakpoint(tabId: string, input: NewBreakpoint): string {
  const bp = BreakpointSchema.parse({ ...input, id: input.id ?? newId() });
  const same = breakpointsOf(tabId).find((b) => describeBreakpoint(b) === describeBreakpoint(bp));
  if (same) return same.id;
  change(tabId, (l) => [...l, bp]);
  return bp.id;
}

export function removeBreakpoint(tabId: string, id: string): void {
  change(tabId, (l) => l.filter((b) => b.id !== id));
}

export function setBreakpointEnabled(tabId: string, id: string, enabled: boolean): void {
  change(tabId, (l) => l.map((b) => (b.id === id ? { ...b, enabled } : b)));
}

/** The on-write breakpoint of a slot, if any (the dot on slot rows toggles it). */
export function writeBreakpointOf(
  list: Breakpoint[],
  container: string,
  slot: string,
): Breakpoint | undefined {
  return list.find((b) => b.kind === 'write' && b.container === container && b.slot === slot);
}

export function toggleWriteBreakpoint(tabId: string, container: string, slot: string): void {
  const existing = writeBreakpointOf(breakpointsOf(tabId), container, slot);
  if (existing) removeBreakpoint(tabId, existing.id);
  else addBreakpoint(tabId, { kind: 'write', container, slot });
}
