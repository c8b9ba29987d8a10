// The Compare view's state: the two sides (run + step each), the loaded diff and what the user
// expanded. Loading fetches both states (GET /api/runs/{id}/state?step=N, full values) and the newer
// side's writers (GET /api/runs/{id}/writers?step=N), then diffs them (domain/debug/stateDiff.ts).
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { RunSummary } from '../../domain/protocol/protocol.rest.ts';
import { runHistoryApi } from '../run/runHistory.api.ts';
import {
  diffNodeStates,
  diffStates,
  type ContainerDiff,
  type KeyDiff,
  type SlotWriter,
} from '../../domain/debug/stateDiff.ts';
import { authHeaders } from '../api/token.ts';
import { runApi } from '../run/run.api.ts';

export interface Side {
  runId: string;
  step: number;
}

export interface CompareState {
  open: boolean;
  a: Side;
  b: Side;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  containers: ContainerDiff[];
  nodes: KeyDiff[];
  runs: RunSummary[];
  expanded: Set<string>;
  changedOnly: boolean;
  /** Bumped per load: an older answer never overwrites a newer one. */
  serial: number;
}

export const compareStore = createStore<CompareState>()(() => ({
  open: false,
  a: { runId: '', step: 0 },
  b: { runId: '', step: 0 },
  status: 'idle',
  error: null,
  containers: [],
  nodes: [],
  runs: [],
  expanded: new Set(),
  changedOnly: true,
  serial: 0,
}));

export function useCompare<T>(selector: (s: CompareState) => T): T {
  return useStore(compareStore, selector);
}

async function fetchWriters(runId: string, step: number): Promise<SlotWriter[]> {
  const url = `/api/runs/${encodeURIComponent(runId)}/writers?step=${step}`;
  const res = await fetch(url, { headers: authHeaders() });
  if (!res.ok) throw new Error(`GET ${url} → ${res.status}`);
  return ((await res.json()) as { writers: SlotWriter[] }).writers;
}

export async function loadCompare(): Promise<void> {
  const { a, b } = compareStore.getState();
  const serial = compareStore.getState().serial + 1;
  compareStore.setState({ status: 'loading', error: null, serial });
  try {
    const [sa, sb, writers] = await Promise.all([
      runApi.state(a.runId, a.step),
      runApi.state(b.runId, b.step),
      fetchWriters(b.runId, b.step),
    ]);
    if (compareStore.getState().serial !== serial) return;
    compareStore.setState({
      status: 'ready',
      containers: diffStates(sa, sb, writers),
      nodes: diffNodeStates(sa, sb),
      expanded: new Set(),
    });
  } catch (e) {
    if (compareStore.getState().serial !== serial) return;
    compareStore.setState({ status: 'error', error: (e as Error).message, containers: [], nodes: [] });
  }
}

/** Opens the view on two sides and loads the run list (for the side pickers) and the diff. */
export function openCompare(a: Side, b: Side): void {
  compareStore.setState({ open: true, a, b });
  void loadCompare();
  runHistoryApi
    .list()
    .then((runs) => compareStore.setState({ runs }))
    .catch(() => undefined);
}

export function setSides(a: Side, b: Side): void {
  compareStore.setState({ a, b });
  void loadCompare();
}

export function closeCompare(): void {
  compareStore.setState({ open: false });
}

export function toggleExpanded(id: string): void {
  compareStore.setState((s) => {
    const expanded = new Set(s.expanded);
    if (expanded.has(id)) expanded.delete(id);
    else expanded.add(id);
    return { expanded };
  });
}
