// The reference's `get_preview()` rules (docs/reference-system.md §3.8), shared by the engine's nav_step snapshot
// and the app's container boxes: list → size + first 3 items; finite number/bool → value; string →
// first 100 chars; null → "null"; other → first 100 chars of its text; keyed slot → key count and the
// first key's value prefixed "[<key>] ". Beyond the reference: NaN/Infinity show as text (JSON, which
// carries snapshots and service answers, has neither), an array as `ndarray <dtype> [<shape>]` and
// bytes as `<n bytes>`, at the top or nested. The Python SDK previews its own containers by the same
// rules; vectors/previews.json holds both sides to them (docs/value-encodings.md).
import { isNdArray, isNdArraySummary, type NdArray } from '../services/ndarray.ts';

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
    const opaque = opaqueText(x);
    if (opaque !== null) {
      out += JSON.stringify(opaque);
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

const ndText = (a: Pick<NdArray, 'dtype' | 'shape'>) => `ndarray ${a.dtype} [${a.shape.join(', ')}]`;

/** What an array or binary value is, not its bytes (null for any other value). */
function opaqueText(v: object): string | null {
  if (isNdArray(v)) return ndText(v);
  if (isNdArraySummary(v)) return ndText(v.$ndarray);
  if (ArrayBuffer.isView(v)) return `<${v.byteLength} bytes>`;
  return null;
}

/** The first 100 UTF-16 units and `...`, never cutting an emoji (a surrogate pair) in half. */
function truncate(s: string): string {
  if (s.length <= MAX_TEXT) return s;
  const highSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
  return `${s.slice(0, highSurrogate(s.charCodeAt(MAX_TEXT - 1)) ? MAX_TEXT - 1 : MAX_TEXT)}...`;
}

export function previewValue(v: unknown): SlotPreview {
  // Arrays from node services and bytes: what they are, not their bytes.
  const opaque = typeof v === 'object' && v !== null ? opaqueText(v) : null;
  if (opaque !== null) return { preview: opaque };
  if (Array.isArray(v)) {
    const head = v.slice(0, 3).map(text).join(', ');
    return { size: v.length, preview: `[${head}${v.length > 3 ? ', ...' : ''}]` };
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return { preview: String(v) };
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
