// The reference's `get_preview()` rules (REFERENCE.md 3.8), shared by the engine's nav_step snapshot
// and the app's container boxes: list → size + first 3 items; number/bool → value; string → first 100
// chars; null → "null"; other → first 100 chars of its text; keyed slot → key count and the first key's
// value prefixed "[<key>] ".
import { isNdArray, isNdArraySummary } from '../services/ndarray.ts';

export interface SlotPreview {
  size?: number;
  value?: number | boolean;
  preview?: string;
}

const MAX_TEXT = 100;

/**
 * JSON text of `v`, but stops once `limit` characters are produced: previews of a 100 KB map must not
 * serialize the whole map on every step.
 */
export function boundedJson(v: unknown, limit = MAX_TEXT + 1): string {
  let out = '';
  // Ancestors on the current path (cycle guard); an array, because paths are short.
  const seen: unknown[] = [];
  const write = (x: unknown): void => {
    if (out.length > limit) return;
    if (x === null || typeof x !== 'object') {
      out +=
        typeof x === 'string'
          ? JSON.stringify(x)
          : typeof x === 'number' || typeof x === 'boolean'
            ? String(x)
            : 'null';
      return;
    }
    if (seen.includes(x)) {
      out += '"[circular]"';
      return;
    }
    seen.push(x);
    if (Array.isArray(x)) {
      out += '[';
      for (let i = 0; i < x.length && out.length <= limit; i++) {
        if (i > 0) out += ',';
        write(x[i]);
      }
      out += ']';
    } else {
      out += '{';
      let first = true;
      for (const [k, val] of Object.entries(x)) {
        if (out.length > limit) break;
        if (val === undefined || typeof val === 'function') continue;
        out += `${first ? '' : ','}${JSON.stringify(k)}:`;
        first = false;
        write(val);
      }
      out += '}';
    }
    seen.pop();
  };
  write(v);
  return out;
}

function text(v: unknown): string {
  return boundedJson(v);
}

function truncate(s: string): string {
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}...` : s;
}

export function previewValue(v: unknown): SlotPreview {
  // Arrays from node services: what they are, not their bytes (the SDK's own preview says the same).
  if (isNdArray(v)) return { preview: `ndarray ${v.dtype} [${v.shape.join(', ')}]` };
  if (isNdArraySummary(v)) return { preview: `ndarray ${v.$ndarray.dtype} [${v.$ndarray.shape.join(', ')}]` };
  if (Array.isArray(v)) {
    const head = v.slice(0, 3).map(text).join(', ');
    return { size: v.length, preview: `[${head}${v.length > 3 ? ', ...' : ''}]` };
  }
  if (typeof v === 'number' || typeof v === 'boolean') return { value: v };
  if (typeof v === 'string') return { preview: truncate(v) };
  if (v === null || v === undefined) return { preview: 'null' };
  return { preview: truncate(text(v)) };
}

/** Preview of a keyed slot: the count plus the first key's value rendered with a `[key] ` prefix. */
export function previewKeyed(keyed: Readonly<Record<string, unknown>>): SlotPreview & { keys: number } {
  const keys = Object.keys(keyed);
  const first = keys[0];
  if (first === undefined) return { keys: 0, preview: 'null' };
  const p = previewValue(keyed[first]);
  const shown = p.preview ?? String(p.value);
  const out: SlotPreview & { keys: number } = { keys: keys.length, preview: `[${first}] ${shown}` };
  if (p.size !== undefined) out.size = p.size;
  return out;
}
