// Wire types and edge compatibility (docs/reference-system.md §1.11). Unlike the reference frontend we
// canonicalise deprecated aliases (ACTION → DISCRETE_ACTION) before comparing (its defect, docs/reference-system.md §8.2 item 15).

export const WIRE_TYPES = [
  'IMAGE',
  'DEPTH',
  'POSE',
  'DISCRETE_ACTION',
  'CONTROL',
  'TEXT',
  'BOOL',
  'METRICS',
  'ANY',
] as const;
/** Accepted but deprecated; ACTION is an alias of DISCRETE_ACTION. */
export const DEPRECATED_WIRE_TYPES = ['ACTION', 'OBSERVATION', 'STEP_RESULT'] as const;
/** Types our own nodes use beyond the reference's wire list (memory-shaped payloads). */
export const EXTRA_WIRE_TYPES = ['OCCUPANCY_MAP', 'POINTCLOUD', 'EMBEDDING', 'EPISODE_CONTEXT'] as const;

/** One line per wire type, shown where a type is picked (e.g. a slot's value type). */
export const WIRE_TYPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  TEXT: 'text: prompts, observations, notes',
  BOOL: 'true / false (done, stop flags)',
  METRICS: 'an object of named numbers (episode, reward, …)',
  POSE: 'a position and heading ({x, y, heading, …})',
  POINTCLOUD: 'a list of 3-D points',
  OCCUPANCY_MAP: 'a grid of free / blocked cells',
  EMBEDDING: 'a vector of numbers',
  EPISODE_CONTEXT: 'what an agent carries through an episode (goal, plan, …)',
  ANY: 'any JSON value (no type check)',
  IMAGE: 'a raw camera frame',
  DEPTH: 'a raw depth frame',
  DISCRETE_ACTION: 'an action index or name (STOP, FORWARD, …)',
  CONTROL: 'a continuous control command',
  ACTION: 'deprecated alias of DISCRETE_ACTION',
  OBSERVATION: 'deprecated: a whole raw observation',
  STEP_RESULT: 'deprecated: a whole raw step result',
};

const KNOWN = new Set<string>([...WIRE_TYPES, ...DEPRECATED_WIRE_TYPES, ...EXTRA_WIRE_TYPES]);

export interface ParsedWireType {
  base: string;
  list: boolean;
}

/** Parses `T` or `LIST[T]`; returns null for a missing or empty type. */
export function parseWireType(raw: string | undefined | null): ParsedWireType | null {
  if (!raw) return null;
  const t = raw.trim().toUpperCase();
  const m = /^LIST\[(.+)\]$/.exec(t);
  const base = canonicalWireBase(m ? m[1]!.trim() : t);
  return { base, list: Boolean(m) };
}

export function canonicalWireBase(base: string): string {
  return base === 'ACTION' ? 'DISCRETE_ACTION' : base;
}

export function formatWireType(t: ParsedWireType): string {
  return t.list ? `LIST[${t.base}]` : t.base;
}

export function isKnownWireType(raw: string): boolean {
  const t = parseWireType(raw);
  return t !== null && KNOWN.has(t.base);
}

export type Compatibility =
  { ok: true; wraps?: boolean } | { ok: false; kind: 'lossy' | 'mismatch'; reason: string };

/**
 * Can a value of wire type `source` flow into a port of type `target`?
 * Missing/unknown either end → allowed; ANY either end → allowed; equal → allowed;
 * T → LIST[T] → allowed (wrapped); LIST[T] → T → lossy; anything else → mismatch.
 */
export function wireCompatibility(
  source: string | undefined | null,
  target: string | undefined | null,
): Compatibility {
  const s = parseWireType(source);
  const t = parseWireType(target);
  if (!s || !t) return { ok: true };
  if (!KNOWN.has(s.base) || !KNOWN.has(t.base)) return { ok: true };
  if ((s.base === 'ANY' && !s.list) || (t.base === 'ANY' && !t.list)) return { ok: true };
  const baseOk = s.base === t.base || s.base === 'ANY' || t.base === 'ANY';
  if (baseOk && s.list === t.list) return { ok: true };
  if (baseOk && !s.list && t.list) return { ok: true, wraps: true };
  if (baseOk && s.list && !t.list) {
    return { ok: false, kind: 'lossy', reason: `${formatWireType(s)} → ${formatWireType(t)} loses items` };
  }
  return {
    ok: false,
    kind: 'mismatch',
    reason: `${formatWireType(s)} → ${formatWireType(t)}: type mismatch`,
  };
}

/** Colour per wire base type, shared by handles, legends and docs. */
export const WIRE_COLORS: Record<string, string> = {
  TEXT: '#38bdf8',
  BOOL: '#f97316',
  POSE: '#22c55e',
  DISCRETE_ACTION: '#eab308',
  CONTROL: '#a3a3a3',
  IMAGE: '#ec4899',
  DEPTH: '#d946ef',
  METRICS: '#14b8a6',
  OCCUPANCY_MAP: '#84cc16',
  POINTCLOUD: '#06b6d4',
  EMBEDDING: '#6366f1',
  EPISODE_CONTEXT: '#f43f5e',
  ANY: '#9ca3af',
};

export function wireColor(raw: string | undefined | null): string {
  const t = parseWireType(raw);
  return (t && WIRE_COLORS[t.base]) ?? WIRE_COLORS.ANY!;
}
