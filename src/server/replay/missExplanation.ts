// Why a replayed call has no recorded answer. A call's idempotency key (engine/effects.ts) holds the
// step, the node, its ordinal and a hash of the request, so a miss means one of them changed: the
// recorded call of the same node at the same step (and ordinal) is found and the two requests are
// compared field by field — for a node service its config and its inputs — so the message names what
// the edit changed ("no recorded answer for node 'policy' at step 3: its config differs: epsilon
// 0.15 → 0.6"), which is what a user checking a graph or plugin change needs to read.
import { deepEqual } from '../../domain/state/reducers.ts';
import type { EffectCall } from '../../engine/effects.ts';
import type { RecordedCall } from '../db/effectStore.ts';

const MAX_VALUE_TEXT = 60;
const MAX_FIELDS = 4;

/** A short text of a value: JSON, arrays from services as `array[shape]`, long text cut. */
export function shortValue(v: unknown): string {
  if (v === undefined) return 'absent';
  if (ArrayBuffer.isView(v)) return `bytes[${v.byteLength}]`;
  if (typeof v === 'object' && v !== null && 'dtype' in v && 'shape' in v && Array.isArray(v.shape))
    return `${String(v.dtype)} array[${v.shape.join('×')}]`;
  let text: string;
  try {
    text = JSON.stringify(v, (_k, x: unknown) => (ArrayBuffer.isView(x) ? `bytes[${x.byteLength}]` : x));
  } catch {
    text = String(v);
  }
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT - 1)}…` : text;
}

/** `a 1 → 2, b absent → 3` for the keys whose values differ (at most MAX_FIELDS, then `…`). */
export function fieldChanges(before: unknown, after: unknown): string {
  const a = (typeof before === 'object' && before !== null ? before : {}) as Record<string, unknown>;
  const b = (typeof after === 'object' && after !== null ? after : {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const changed = keys.filter((k) => !deepEqual(a[k], b[k]));
  const parts = changed.slice(0, MAX_FIELDS).map((k) => `${k} ${shortValue(a[k])} → ${shortValue(b[k])}`);
  if (changed.length > MAX_FIELDS) parts.push(`and ${changed.length - MAX_FIELDS} more`);
  return parts.join(', ');
}

/** The `step[.iteration]` part of a key (`lineage:at:node:n:hash`). */
function keyAt(key: string, lineage: string): string {
  return key.slice(lineage.length + 1).split(':')[0] ?? '';
}

/** `1–3, 5` */
function stepList(steps: readonly number[]): string {
  const s = [...new Set(steps)].sort((x, y) => x - y);
  const out: string[] = [];
  for (let i = 0; i < s.length;) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j]! + 1) j++;
    out.push(i === j ? `${s[i]}` : `${s[i]}–${s[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** What differs between two requests of the same kind, as a clause (`its config differs: …`). */
function requestDifference(kind: string, recorded: unknown, now: unknown): string {
  const r = (recorded ?? {}) as Record<string, unknown>;
  const n = (now ?? {}) as Record<string, unknown>;
  if (kind === 'service') {
    const parts: string[] = [];
    if (r.service !== n.service || r.fn !== n.fn)
      parts.push(
        `it calls ${String(n.service)}/${String(n.fn)}, the recording ${String(r.service)}/${String(r.fn)}`,
      );
    if (!deepEqual(r.config, n.config)) parts.push(`its config differs: ${fieldChanges(r.config, n.config)}`);
    if (!deepEqual(r.inputs, n.inputs)) parts.push(`its inputs differ: ${fieldChanges(r.inputs, n.inputs)}`);
    if (parts.length) return parts.join('; ');
  } else if (!deepEqual(r, n)) return `its request differs: ${fieldChanges(r, n)}`;
  return 'its request is the same but its place in the run is not (another iteration or call order)';
}

/** What differs between a replayed call and the recording, as a clause (`its config differs: …`). */
export function missReason(call: EffectCall, lineage: string, recorded: readonly RecordedCall[]): string {
  const ofNode = recorded.filter((c) => c.node_id === call.node_id && c.kind === call.kind);
  if (ofNode.length === 0)
    return `the recorded run made no ${call.kind} call from that node (a node new to the graph, or one that never fired there)`;
  const atStep = ofNode.filter((c) => c.step === call.step);
  if (atStep.length === 0)
    return `the recorded run called it at step${ofNode.length > 1 ? 's' : ''} ${stepList(ofNode.map((c) => c.step))}, not at step ${call.step}`;
  const at = keyAt(call.key, lineage);
  const sameAt = atStep.filter((c) => keyAt(c.key, lineage) === at);
  const pool = sameAt.length > 0 ? sameAt : atStep;
  const twin = pool.find((c) => c.index === call.index) ?? pool[pool.length - 1]!;
  if (twin.index !== call.index && pool.every((c) => c.index < call.index))
    return `the recorded run made ${pool.length} call${pool.length > 1 ? 's' : ''} from it there, this is call ${call.index + 1}`;
  return requestDifference(call.kind, twin.request, call.request);
}

/**
 * The message of a replayed call with no recorded answer: which recorded call it was expected to be
 * and what differs, or that the recorded run made no such call.
 */
export function explainMiss(call: EffectCall, lineage: string, recorded: readonly RecordedCall[]): string {
  return `no recorded answer for node '${call.node_id}' at step ${call.step}: ${missReason(call, lineage, recorded)}`;
}
