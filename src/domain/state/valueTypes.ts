// A slot's value type: the memory-shaped registry (graph.schema.ts STATE_VALUE_TYPES) with one-line
// descriptions, and why a typed value type is refused: the slot editor refuses as you type what a run
// would reject (removed raw payload types) or `statewire check` would flag (unknown types).
import { REMOVED_VALUE_TYPES, STATE_VALUE_TYPES } from '../graph/graph.schema.ts';
import { WIRE_TYPE_DESCRIPTIONS } from '../flow/wireTypes.ts';

export interface ValueTypeOption {
  type: string;
  description: string;
}

/** The value types a slot may have, each with what it holds. */
export const VALUE_TYPE_OPTIONS: readonly ValueTypeOption[] = STATE_VALUE_TYPES.map((type) => ({
  type,
  description: WIRE_TYPE_DESCRIPTIONS[type] ?? '',
}));

const REMOVED = new Set<string>(REMOVED_VALUE_TYPES);
const KNOWN = new Set<string>(STATE_VALUE_TYPES);

/** Why a removed (raw wire payload) value type is refused, or null when `t` is not one. */
export function removedValueTypeReason(t: string): string | null {
  if (!REMOVED.has(t)) return null;
  return `${t} is a raw wire payload, not a memory type; a run would refuse this slot. Use one of ${STATE_VALUE_TYPES.join(', ')}`;
}

/** The canonical spelling of a typed value type (trimmed, upper case). */
export const normalizeValueType = (raw: string): string => raw.trim().toUpperCase();

/** Why `raw` is not a value type a slot may get (empty, removed or unknown), or null when it is one. */
export function valueTypeRefusal(raw: string): string | null {
  const t = normalizeValueType(raw);
  if (t === '') return `value type must not be empty; use one of ${STATE_VALUE_TYPES.join(', ')}`;
  const removed = removedValueTypeReason(t);
  if (removed) return removed;
  if (!KNOWN.has(t)) return `unknown value type '${t}'; use one of ${STATE_VALUE_TYPES.join(', ')}`;
  return null;
}

/**
 * The options matching a draft: prefix matches first, then a substring of type or description; all
 * of them when the draft is empty, a known type, or matches nothing (so the allowed ones show).
 */
export function valueTypeSuggestions(draft: string): ValueTypeOption[] {
  const q = normalizeValueType(draft);
  if (q === '' || KNOWN.has(q)) return [...VALUE_TYPE_OPTIONS];
  const prefix = VALUE_TYPE_OPTIONS.filter((o) => o.type.startsWith(q));
  const rest = VALUE_TYPE_OPTIONS.filter(
    (o) => !o.type.startsWith(q) && (o.type.includes(q) || o.description.toUpperCase().includes(q)),
  );
  const matches = [...prefix, ...rest];
  return matches.length > 0 ? matches : [...VALUE_TYPE_OPTIONS];
}
