// Values of one slot (or one number of a viewer) step by step, for comparing episodes and plotting.
// Snapshot previews carry a slot's value only for numbers and booleans (or every value when the
// stream has full values); anything else is fetched from GET /api/runs/{id}/state?step=N, cached.
import type { SlotSnapshot } from '../../domain/protocol/protocol.ts';
import { runApi } from '../run/run.api.ts';
import type { InspectedState, StepSnapshot, ViewerLine } from '../run/run.store.ts';

/** `container.slot` of a slot, or `viewer:<node>:<field>` of a viewer's number. */
export type SeriesKey = string;

export const slotKey = (container: string, slot: string): SeriesKey => `${container}.${slot}`;
export const viewerKey = (node: string, field: string): SeriesKey => `viewer:${node}:${field}`;

export function parseSlotKey(key: SeriesKey): { container: string; slot: string } | null {
  if (key.startsWith('viewer:')) return null;
  const dot = key.indexOf('.');
  return dot < 0 ? null : { container: key.slice(0, dot), slot: key.slice(dot + 1) };
}

export function parseViewerKey(key: SeriesKey): { node: string; field: string } | null {
  if (!key.startsWith('viewer:')) return null;
  const rest = key.slice('viewer:'.length);
  const colon = rest.indexOf(':');
  return colon < 0 ? null : { node: rest.slice(0, colon), field: rest.slice(colon + 1) };
}

/** The value a snapshot carries in full, or `undefined` when it only has a preview. */
export function valueInSnapshot(s: SlotSnapshot | undefined): { value: unknown } | undefined {
  if (!s) return undefined;
  if (s.keys !== undefined) return s.keyed !== undefined ? { value: s.keyed } : undefined;
  if (s.value !== undefined && s.size === undefined) return { value: s.value };
  return undefined;
}

/** A slot's full value in a fetched state (keyed slots: their partitions). */
export function valueInState(state: InspectedState, container: string, slot: string): unknown {
  const s = state.containers[container]?.states[slot];
  if (!s) return undefined;
  return s.keys !== undefined ? (s.keyed ?? {}) : s.value;
}

/** A number for the plot: a numeric value, else the item count of a list slot. */
export function numberOf(s: SlotSnapshot | undefined): number | null {
  if (!s) return null;
  if (typeof s.value === 'number' && Number.isFinite(s.value) && s.size === undefined) return s.value;
  if (typeof s.value === 'boolean') return s.value ? 1 : 0;
  if (s.size !== undefined) return s.size;
  return null;
}

/** Slots worth plotting: those with a number (value or item count) in the given snapshot. */
export function plottableSlots(snap: StepSnapshot | undefined): SeriesKey[] {
  if (!snap) return [];
  const out: SeriesKey[] = [];
  for (const [cid, c] of Object.entries(snap.containers))
    for (const [slot, s] of Object.entries(c.states)) if (numberOf(s) !== null) out.push(slotKey(cid, slot));
  return out;
}

/** Every numeric field a viewer node has shown (as `viewer:<node>:<field>` keys). */
export function viewerSeriesKeys(history: Record<string, ViewerLine[]>): SeriesKey[] {
  const out = new Set<SeriesKey>();
  for (const [node, lines] of Object.entries(history))
    for (const l of lines.slice(-5))
      for (const f of Object.keys(l.numbers ?? {})) out.add(viewerKey(node, f));
  return [...out];
}

/** y per step (null where the step has no number) for a slot or a viewer field. */
export function seriesOf(
  key: SeriesKey,
  steps: readonly number[],
  snapshots: Record<number, StepSnapshot>,
  viewerHistory: Record<string, ViewerLine[]>,
): (number | null)[] {
  const slot = parseSlotKey(key);
  if (slot) return steps.map((st) => numberOf(snapshots[st]?.containers[slot.container]?.states[slot.slot]));
  const v = parseViewerKey(key);
  if (!v) return steps.map(() => null);
  const byStep = new Map<number, number>();
  for (const l of viewerHistory[v.node] ?? []) {
    const n = l.numbers?.[v.field];
    if (n !== undefined) byStep.set(l.step, n);
  }
  return steps.map((st) => byStep.get(st) ?? null);
}

const CACHE_MAX = 400;
const cache = new Map<string, Promise<InspectedState>>();

/**
 * Full state of a step of a run, fetched once (a small LRU; failures are not cached). `version` is
 * the step's nav_step seq, so a step re-run after a restore is fetched again.
 */
export function stateAt(runId: string, step: number, version: number): Promise<InspectedState> {
  const k = `${runId}\u0000${step}\u0000${version}`;
  const hit = cache.get(k);
  if (hit) {
    cache.delete(k);
    cache.set(k, hit);
    return hit;
  }
  const p = runApi.state(runId, step);
  cache.set(k, p);
  p.catch(() => cache.delete(k));
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return p;
}
