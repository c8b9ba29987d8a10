// nav_step container snapshots: the reference's preview shape (REFERENCE.md 4.3) plus `lifetime` and
// the full `value` (and keyed partitions in `keyed`). Built from an immutable ContainerState, so a
// snapshot taken before step_end shows what the step wrote into step-lifetime slots.
import type { ContainerSnapshot, SlotSnapshot } from '../domain/protocol/protocol.ts';
import { previewKeyed, previewValue } from '../domain/state/preview.ts';
import type { ContainerState, StateContainer } from './container.ts';

export function snapshotContainer(c: StateContainer, state: ContainerState = c.state): ContainerSnapshot {
  const states: Record<string, SlotSnapshot> = {};
  for (const s of c.slots) {
    const value = state.values[s.name];
    const slot: SlotSnapshot = {
      type: s.type,
      value_type: s.value_type,
      lifetime: s.lifetime,
      value,
      ...previewValue(value),
    };
    const part = state.keyed[s.name];
    if (part && Object.keys(part).length > 0) {
      const kp = previewKeyed(part);
      slot.keys = kp.keys;
      slot.keyed = part;
      slot.preview = kp.preview;
      if (kp.size !== undefined) slot.size = kp.size;
    }
    states[s.name] = slot;
  }
  return { label: c.label, owner: c.owner, states };
}

export function snapshotContainers(
  containers: ReadonlyMap<string, StateContainer>,
  states?: ReadonlyMap<string, ContainerState>,
): Record<string, ContainerSnapshot> {
  const out: Record<string, ContainerSnapshot> = {};
  for (const [id, c] of containers) out[id] = snapshotContainer(c, states?.get(id) ?? c.state);
  return out;
}
