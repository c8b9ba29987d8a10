// nav_step container snapshots: the reference's preview shape (docs/reference-system.md §4.3) plus `lifetime` and
// the full `value` (and keyed partitions in `keyed`). Built from an immutable ContainerState, so a
// snapshot taken before step_end shows what the step wrote into step-lifetime slots.
import type { ContainerSnapshot, SlotSnapshot } from '../domain/protocol/protocol.ts';
import { previewKeyed, previewValue } from '../domain/state/preview.ts';
import type { ContainerState, StateContainer } from './container.ts';

/**
 * The last snapshot of each container, slot by slot (index = position in `c.slots`). A slot whose
 * value and partitions are the same (frozen) objects as last time gets the same frozen snapshot, and
 * a container whose slots all did gets the same container snapshot: most slots do not change in a
 * step, so their previews are not recomputed, and the run log (which remembers a frozen object's
 * encoding by identity) does not serialize or hash them again.
 */
interface SlotMemo {
  value: unknown;
  part: unknown;
  snap: SlotSnapshot;
}
const memos = new WeakMap<StateContainer, { slots: Array<SlotMemo | undefined>; snap?: ContainerSnapshot }>();

export function snapshotContainer(c: StateContainer, state: ContainerState = c.state): ContainerSnapshot {
  let memo = memos.get(c);
  if (!memo) memos.set(c, (memo = { slots: [] }));
  const states: Record<string, SlotSnapshot> = {};
  let reused = memo.snap !== undefined;
  c.slots.forEach((s, i) => {
    const value = state.values[s.name];
    const part = state.keyed[s.name];
    const last = memo.slots[i];
    if (last && last.value === value && last.part === part) {
      states[s.name] = last.snap;
      return;
    }
    reused = false;
    const snap = slotSnapshot(s, value, part);
    memo.slots[i] = { value, part, snap };
    states[s.name] = snap;
  });
  if (reused && memo.snap) return memo.snap;
  memo.snap = Object.freeze({ label: c.label, owner: c.owner, states: Object.freeze(states) });
  return memo.snap;
}

/** One slot's snapshot, frozen (its value and partitions already are: engine state is deep-frozen). */
function slotSnapshot(
  s: StateContainer['slots'][number],
  value: unknown,
  part: Readonly<Record<string, unknown>> | undefined,
): SlotSnapshot {
  const slot: SlotSnapshot = {
    type: s.type,
    value_type: s.value_type,
    lifetime: s.lifetime,
    value,
    ...previewValue(value),
  };
  if (part && Object.keys(part).length > 0) {
    const kp = previewKeyed(part);
    slot.keys = kp.keys;
    slot.keyed = part;
    slot.preview = kp.preview;
    if (kp.size !== undefined) slot.size = kp.size;
  }
  return Object.freeze(slot);
}

export function snapshotContainers(
  containers: ReadonlyMap<string, StateContainer>,
  states?: ReadonlyMap<string, ContainerState>,
): Record<string, ContainerSnapshot> {
  const out: Record<string, ContainerSnapshot> = {};
  for (const [id, c] of containers) out[id] = snapshotContainer(c, states?.get(id) ?? c.state);
  return out;
}
