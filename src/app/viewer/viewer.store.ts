// What the value viewer shows: one value with a title, opened from a value cell (State panel,
// container box), the Compare view or anywhere else. A slot's live value may be a preview, so
// opening a slot fetches the step's full state from GET /api/runs/{id}/state?step=N.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { SlotSnapshot } from '../../domain/protocol/protocol.ts';
import { runApi } from '../run/run.api.ts';
import { runStore, viewContainers } from '../run/run.store.ts';

export interface ViewerState {
  open: boolean;
  title: string;
  status: 'loading' | 'ready' | 'error';
  value: unknown;
  /** Shown under the title (where the value is from, or why only a preview is shown). */
  note: string;
  /** Bumped per open, so the viewer resets its expansion and search. */
  serial: number;
}

export const viewerStore = createStore<ViewerState>()(() => ({
  open: false,
  title: '',
  status: 'ready',
  value: undefined,
  note: '',
  serial: 0,
}));

export function useViewer<T>(selector: (s: ViewerState) => T): T {
  return useStore(viewerStore, selector);
}

export function closeViewer(): void {
  viewerStore.setState({ open: false, value: undefined });
}

/** Opens a value that is already complete (Compare view sides, node state…). */
export function openValue(title: string, value: unknown, note = ''): void {
  viewerStore.setState((s) => ({ open: true, title, value, note, status: 'ready', serial: s.serial + 1 }));
}

/** A slot's value as the viewer shows it: its keyed partitions when it has any, else its value. */
export function slotViewValue(s: SlotSnapshot | undefined): unknown {
  if (!s) return undefined;
  if (s.keyed !== undefined && Object.keys(s.keyed).length > 0) return s.keyed;
  return s.value;
}

/** A snapshot value that may be shortened (a list with `size`, or only a preview). */
function isPartial(s: SlotSnapshot | undefined): boolean {
  if (!s) return true;
  if (s.keyed !== undefined) return false;
  if (s.value === undefined) return true;
  return Array.isArray(s.value) && s.size !== undefined && s.value.length < s.size;
}

/** Opens a container slot at the shown step (inspected or live), with its full value. */
export async function openSlot(containerId: string, slot: string): Promise<void> {
  const run = runStore.getState();
  const step = run.inspectedStep ?? run.step;
  const title = `${containerId}.${slot}`;
  const local = viewContainers(run)[containerId]?.states[slot];
  const full = run.inspectedStep !== null && run.inspected?.step === run.inspectedStep;
  if (run.runId === null || (full && !isPartial(local))) {
    openValue(title, slotViewValue(local), `step ${step}`);
    return;
  }
  const serial = viewerStore.getState().serial + 1;
  viewerStore.setState({
    open: true,
    title,
    value: undefined,
    note: `step ${step}`,
    status: 'loading',
    serial,
  });
  try {
    const state = await runApi.state(run.runId, step);
    if (viewerStore.getState().serial !== serial) return;
    const s = state.containers[containerId]?.states[slot];
    viewerStore.setState({ value: slotViewValue(s), status: 'ready', note: `step ${step} · full value` });
  } catch (e) {
    if (viewerStore.getState().serial !== serial) return;
    viewerStore.setState({
      value: slotViewValue(local),
      status: local ? 'ready' : 'error',
      note: `step ${step} · streamed value, the full one is unavailable (${(e as Error).message})`,
    });
  }
}
