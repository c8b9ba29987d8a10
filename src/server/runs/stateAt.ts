// State at a step as a pure reduction over the log (docs/architecture.md "Run state and durability"): start from the nearest snapshot event
// (`nav_step` or `restored`, which carry every container's full values and node-local state) and fold
// the `state_written` / `signal` events committed after it up to the step. Because the run manager
// commits whole steps and the engine ends each step with a nav_step, the fold is usually empty; it
// matters for partial logs (a step that wrote state but ended in an error).
import type { ContainerDef } from '../../domain/graph/graph.schema.ts';
import type { ContainerSnapshot, EventEnvelope, FeatureValues } from '../../domain/protocol/protocol.ts';
import { previewValue } from '../../domain/state/preview.ts';
import { initialValue } from '../../domain/state/reducers.ts';

export interface RunStateView {
  step: number;
  containers: Record<string, ContainerSnapshot>;
  nodeStates: Record<string, unknown>;
  /** Routing features (docs/routing.md); `{}` when the graph declares none. */
  features: FeatureValues;
}

type Snap = {
  step: number;
  containers?: Record<string, ContainerSnapshot>;
  nodeStates?: Record<string, unknown>;
  features?: FeatureValues;
};

export function snapshotOf(e: EventEnvelope): RunStateView | undefined {
  if (e.type !== 'nav_step' && e.type !== 'restored') return undefined;
  const d = e.data as Snap;
  return {
    step: d.step,
    containers: d.containers ?? {},
    nodeStates: d.nodeStates ?? {},
    features: d.features ?? {},
  };
}

/**
 * `base`: the snapshot event; `after`: events with seq > base.seq in seq order; `defs`: container
 * definitions (initial values for signal clears). Returns a new state; inputs are not mutated.
 */
export function reduceState(
  base: EventEnvelope | undefined,
  after: readonly EventEnvelope[],
  step: number,
  defs: readonly ContainerDef[],
): RunStateView {
  const start = base ? snapshotOf(base) : undefined;
  const containers: Record<string, ContainerSnapshot> = structuredClone(start?.containers ?? {});
  const nodeStates: Record<string, unknown> = { ...(start?.nodeStates ?? {}) };
  let features: FeatureValues = { ...(start?.features ?? {}) };
  const defOf = (cid: string, slot: string) => defs.find((c) => c.id === cid)?.states[slot];
  const setSlot = (cid: string, slot: string, key: string | undefined, value: unknown) => {
    const c = containers[cid];
    const s = c?.states[slot];
    if (!s) return;
    if (key === undefined)
      Object.assign(s, { value, size: undefined, preview: undefined }, previewValue(value));
    else s.keyed = { ...(s.keyed ?? {}), [key]: value };
  };
  for (const e of after) {
    const d = e.data as { step?: number };
    if (typeof d.step === 'number' && d.step > step) continue;
    if (e.type === 'state_written') {
      const w = e.data as { container: string; slot: string; key?: string; after: unknown };
      setSlot(w.container, w.slot, w.key, w.after);
    } else if (e.type === 'route') {
      features = { ...(e.data as { after: FeatureValues }).after };
    } else if (e.type === 'signal') {
      const sig = e.data as { cleared: Array<{ container: string; slot: string; key?: string }> };
      for (const c of sig.cleared) {
        const def = defOf(c.container, c.slot);
        if (def) setSlot(c.container, c.slot, c.key, initialValue(def.type, def.config));
      }
    }
  }
  return { step, containers, nodeStates, features };
}
