// Breakpoints of the debugger: on a slot (`write`, `clear`, `match` — the value after a write meets a
// condition) or on a node (`node`: pause before it fires). Pure: the engine asks `hitsOf(event)` for
// each event it emits and pauses before the next node fires when one hits; the app edits and shows
// them; the CLI parses `--break 'graph_state.step_count>=10'`. Breakpoints are view settings of a
// graph, never part of its reference-format body.
import { z } from 'zod';

export const CONDITION_OPS = ['==', '!=', '<', '<=', '>', '>=', 'contains', 'length>'] as const;
export const ConditionOpSchema = z.enum(CONDITION_OPS);
export type ConditionOp = z.infer<typeof ConditionOpSchema>;

const base = { id: z.string().min(1), enabled: z.boolean().default(true) };
const slotRef = { container: z.string().min(1), slot: z.string().min(1) };

export const BreakpointSchema = z.discriminatedUnion('kind', [
  z.object({
    ...base,
    kind: z.literal('write'),
    ...slotRef,
    /** Only writes by this node (`write c.s by NODE`); any writer when absent. */
    by: z.string().min(1).optional(),
  }),
  z.object({ ...base, kind: z.literal('clear'), ...slotRef }),
  z.object({
    ...base,
    kind: z.literal('match'),
    ...slotRef,
    /** Path into the value: `""` (the value itself), `a.b[0]`, `[2].name`. */
    path: z.string().default(''),
    op: ConditionOpSchema,
    value: z.unknown(),
  }),
  z.object({ ...base, kind: z.literal('node'), node_id: z.string().min(1) }),
]);
export type Breakpoint = z.infer<typeof BreakpointSchema>;
export type BreakpointInput = z.input<typeof BreakpointSchema>;
export const BreakpointListSchema = z.array(BreakpointSchema).max(200);

/** What the engine reports when a breakpoint hits (the `breakpoint_hit` event's data). */
export const BreakpointHitSchema = z.object({
  breakpoint_id: z.string(),
  kind: z.enum(['write', 'clear', 'match', 'node']),
  /** Human-readable: `graph_state.step_count >= 10`, `write nav_memory.trail`, `before node policy`. */
  description: z.string(),
  step: z.number().int(),
  /** The writer of the slot (write/match), or the node about to fire (node). */
  node_id: z.string().optional(),
  container: z.string().optional(),
  slot: z.string().optional(),
  key: z.string().optional(),
  /** The slot's value after the write (write/match). */
  value: z.unknown().optional(),
});
export type BreakpointHit = z.infer<typeof BreakpointHitSchema>;

// ---- paths and conditions ----

const PATH_PART = /\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;

/** Splits `a.b[0]["x y"]` into keys; null when the path is malformed. */
export function parsePath(path: string): Array<string | number> | null {
  const parts: Array<string | number> = [];
  const p = path.startsWith('$') ? path.slice(1) : path;
  PATH_PART.lastIndex = 0;
  let at = 0;
  while (at < p.length) {
    PATH_PART.lastIndex = at;
    const m = PATH_PART.exec(p);
    if (!m || m.index !== at) return null;
    if (m[1] !== undefined) parts.push(m[1]);
    else if (m[2] !== undefined) parts.push(Number(m[2]));
    else parts.push(JSON.parse(m[3]!) as string);
    at = PATH_PART.lastIndex;
  }
  return parts;
}

/** The value at `path` inside `value`; undefined when a step is missing. */
export function valueAtPath(value: unknown, path: string): unknown {
  const parts = parsePath(path);
  if (!parts) return undefined;
  let v: unknown = value;
  for (const k of parts) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

function sizeOf(v: unknown): number | undefined {
  if (typeof v === 'string' || Array.isArray(v)) return v.length;
  if (v && typeof v === 'object') return Object.keys(v).length;
  return undefined;
}

/** Does `actual` meet `op expected`? Ordering compares numbers with numbers and strings with strings. */
export function meets(actual: unknown, op: ConditionOp, expected: unknown): boolean {
  switch (op) {
    case '==':
      return deepEqual(actual, expected);
    case '!=':
      return !deepEqual(actual, expected);
    case 'contains':
      if (typeof actual === 'string') return typeof expected === 'string' && actual.includes(expected);
      if (Array.isArray(actual)) return actual.some((x) => deepEqual(x, expected));
      if (actual && typeof actual === 'object') return typeof expected === 'string' && expected in actual;
      return false;
    case 'length>': {
      const n = sizeOf(actual);
      return n !== undefined && typeof expected === 'number' && n > expected;
    }
    default: {
      const comparable =
        (typeof actual === 'number' && typeof expected === 'number') ||
        (typeof actual === 'string' && typeof expected === 'string');
      if (!comparable) return false;
      const [a, b] = [actual as number | string, expected as number | string];
      return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    }
  }
}

export function describeBreakpoint(bp: BreakpointInput): string {
  switch (bp.kind) {
    case 'write':
      return `write ${bp.container}.${bp.slot}${bp.by !== undefined ? ` by ${bp.by}` : ''}`;
    case 'clear':
      return `clear ${bp.container}.${bp.slot}`;
    case 'match': {
      const path = bp.path ? (bp.path.startsWith('[') ? bp.path : `.${bp.path}`) : '';
      return `${bp.container}.${bp.slot}${path} ${bp.op} ${JSON.stringify(bp.value)}`;
    }
    case 'node':
      return `before node ${bp.node_id}`;
  }
}

// ---- matching engine events ----

interface WriteEvent {
  type: 'state_written';
  data: { node_id: string; container: string; slot: string; key?: string; step: number; after: unknown };
}
interface SignalEvent {
  type: 'signal';
  data: { payload?: unknown; cleared: ReadonlyArray<{ container: string; slot: string; key?: string }> };
}

/** The first enabled breakpoint this event hits (write/clear/match), with what to report. */
export function hitOf(
  bps: readonly Breakpoint[],
  event: { type: string; data: unknown },
  step: number,
): BreakpointHit | undefined {
  if (event.type === 'state_written') {
    const d = (event as WriteEvent).data;
    for (const bp of bps) {
      if (!bp.enabled || bp.kind === 'node' || bp.kind === 'clear') continue;
      if (bp.container !== d.container || bp.slot !== d.slot) continue;
      if (bp.kind === 'write' && bp.by !== undefined && bp.by !== d.node_id) continue;
      // A keyed write's `after` is the partition's value: conditions look at that.
      if (bp.kind === 'match' && !meets(valueAtPath(d.after, bp.path), bp.op, bp.value)) continue;
      return {
        breakpoint_id: bp.id,
        kind: bp.kind,
        description: describeBreakpoint(bp),
        step: d.step,
        node_id: d.node_id,
        container: d.container,
        slot: d.slot,
        ...(d.key !== undefined ? { key: d.key } : {}),
        value: d.after,
      };
    }
  }
  if (event.type === 'signal') {
    const cleared = (event as SignalEvent).data.cleared ?? [];
    // step_end says which step ended: that is the step of the clear (the engine is past it already).
    const payload = (event as SignalEvent).data.payload as { step?: unknown } | undefined;
    const at = typeof payload?.step === 'number' ? payload.step : step;
    for (const bp of bps) {
      if (!bp.enabled || bp.kind !== 'clear') continue;
      const c = cleared.find((r) => r.container === bp.container && r.slot === bp.slot);
      if (!c) continue;
      return {
        breakpoint_id: bp.id,
        kind: 'clear',
        description: describeBreakpoint(bp),
        step: at,
        container: c.container,
        slot: c.slot,
        ...(c.key !== undefined ? { key: c.key } : {}),
      };
    }
  }
  return undefined;
}

/** The enabled node breakpoint on `nodeId`, as a hit. */
export function nodeHitOf(
  bps: readonly Breakpoint[],
  nodeId: string,
  step: number,
): BreakpointHit | undefined {
  const bp = bps.find((b) => b.enabled && b.kind === 'node' && b.node_id === nodeId);
  return bp
    ? { breakpoint_id: bp.id, kind: 'node', description: describeBreakpoint(bp), step, node_id: nodeId }
    : undefined;
}

// ---- the CLI's expression form ----

const EXPR =
  /^\s*([A-Za-z_][\w-]*)\.([A-Za-z_][\w-]*)((?:\.[A-Za-z_$][\w$-]*|\[\d+\])*)\s*(==|!=|<=|>=|<|>|contains|length>)\s*(.+?)\s*$/;

const SLOT_EVENT =
  /^\s*(?:(write|clear)\s+)?([A-Za-z_][\w-]*)\.([A-Za-z_][\w-]*)(?:\s+by\s+([A-Za-z_][\w.-]*))?\s*$/;

/**
 * `graph_state.step_count>=10`, `nav_memory.trail length> 3`, `log.last.status == "done"`, a bare
 * `container.slot` or `write container.slot` (every write), `write container.slot by NODE` (writes
 * by that node), `clear container.slot` (every clear). The value is JSON when it parses, else a
 * plain string. The one grammar of conditions: `--break`, `statewire query` and the Batches query box.
 */
export function parseBreakExpression(expr: string, id = 'cli'): Breakpoint | { error: string } {
  const ev = SLOT_EVENT.exec(expr);
  if (ev && !(ev[1] === 'clear' && ev[4] !== undefined)) {
    const [, kind, container, slot, by] = ev;
    if (kind === 'clear') return { id, enabled: true, kind: 'clear', container: container!, slot: slot! };
    return {
      id,
      enabled: true,
      kind: 'write',
      container: container!,
      slot: slot!,
      ...(by !== undefined ? { by } : {}),
    };
  }
  const m = EXPR.exec(expr);
  if (!m)
    return {
      error: `cannot read condition '${expr}': expected container.slot[.path] OP value (OP one of ${CONDITION_OPS.join(' ')}), [write] container.slot [by NODE], or clear container.slot`,
    };
  let value: unknown = m[5]!;
  try {
    value = JSON.parse(m[5]!);
  } catch {
    // a bare word is a string
  }
  const path = m[3]!.startsWith('.') ? m[3]!.slice(1) : m[3]!;
  return {
    id,
    enabled: true,
    kind: 'match',
    container: m[1]!,
    slot: m[2]!,
    path,
    op: m[4] as ConditionOp,
    value,
  };
}
