// Pure slot (StateDef) edits inside one container, with the validation the inspector shows inline.
// Slot order is the key order of `states`, so reorder rebuilds the record in the new order.
import { type ContainerDef, type StateDef } from '../../../domain/graph/graph.schema.ts';
import { removedValueTypeReason, valueTypeRefusal } from '../../../domain/state/valueTypes.ts';

export type SlotResult = ContainerDef | string;

/** Why a slot name is not acceptable, or null when it is. */
export function slotNameProblem(name: string, existing: readonly string[], current?: string): string | null {
  if (!name.trim()) return 'name must not be empty';
  if (name !== name.trim() || /\s/.test(name)) return 'name must not contain spaces';
  if (name.startsWith('__')) return 'names starting with "__" are reserved';
  if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name))
    return 'use letters, digits, _ . - (start with a letter or _)';
  if (name !== current && existing.includes(name)) return `a slot named "${name}" already exists`;
  return null;
}

/**
 * Why a new slot's value type is refused (removed raw payload types), or null. A slot added with an
 * unknown type (e.g. pasted) is kept with a validation warning; the editor's own value-type edits
 * are stricter (`updateSlot`: known types only).
 */
export function valueTypeProblem(valueType: string): string | null {
  return removedValueTypeReason(valueType);
}

export function defaultSlot(reducer = 'lastWrite'): StateDef {
  return { type: reducer, value_type: 'ANY', config: {}, lifetime: 'forever', reset_on: [] };
}

export function addSlot(c: ContainerDef, name: string, def: StateDef = defaultSlot()): SlotResult {
  const problem = slotNameProblem(name, Object.keys(c.states));
  if (problem) return problem;
  const vt = valueTypeProblem(def.value_type);
  if (vt) return vt;
  return { ...c, states: { ...c.states, [name]: def } };
}

export function renameSlot(c: ContainerDef, from: string, to: string): SlotResult {
  if (!(from in c.states)) return `slot "${from}" does not exist`;
  if (from === to) return c;
  const problem = slotNameProblem(to, Object.keys(c.states), from);
  if (problem) return problem;
  const states: Record<string, StateDef> = {};
  for (const [k, v] of Object.entries(c.states)) states[k === from ? to : k] = v;
  return { ...c, states };
}

export function removeSlot(c: ContainerDef, name: string): SlotResult {
  if (!(name in c.states)) return `slot "${name}" does not exist`;
  const states = { ...c.states };
  delete states[name];
  return { ...c, states };
}

/** Moves a slot up (-1) or down (+1) in the container's order. */
export function moveSlot(c: ContainerDef, name: string, delta: -1 | 1): SlotResult {
  const keys = Object.keys(c.states);
  const i = keys.indexOf(name);
  const j = i + delta;
  if (i < 0) return `slot "${name}" does not exist`;
  if (j < 0 || j >= keys.length) return 'already at the edge';
  [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  const states: Record<string, StateDef> = {};
  for (const k of keys) states[k] = c.states[k]!;
  return { ...c, states };
}

export function updateSlot(c: ContainerDef, name: string, patch: Partial<StateDef>): SlotResult {
  const cur = c.states[name];
  if (!cur) return `slot "${name}" does not exist`;
  if (patch.value_type !== undefined && patch.value_type !== cur.value_type) {
    const vt = valueTypeRefusal(patch.value_type);
    if (vt) return vt;
  }
  if (patch.reset_on && patch.reset_on.some((s) => !s.trim())) return 'signal names must not be empty';
  return { ...c, states: { ...c.states, [name]: { ...cur, ...patch } } };
}

/** Sets (or with undefined removes) one key of the slot's config. */
export function setSlotConfig(c: ContainerDef, name: string, key: string, value: unknown): SlotResult {
  const cur = c.states[name];
  if (!cur) return `slot "${name}" does not exist`;
  if (
    key === 'max_size' &&
    value !== undefined &&
    (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
  ) {
    return 'max_size must be a positive whole number';
  }
  const config = { ...cur.config } as Record<string, unknown>;
  if (value === undefined) delete config[key];
  else config[key] = value;
  return { ...c, states: { ...c.states, [name]: { ...cur, config } } };
}

/** Parses the initial_value editor's text; empty text means "no initial value". */
export function parseInitialValue(
  text: string,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (!text.trim()) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, reason: `not valid JSON: ${(e as Error).message}` };
  }
}
