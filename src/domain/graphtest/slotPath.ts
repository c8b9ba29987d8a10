// Slot paths of graph tests: `container.slot`, a keyed partition `container.slot[key]`, and a JSON
// path into the value after either (`container.slot.a.b[0]`, `container.slot[key].a`). Grammar:
//
//   path      = name "." name [ "[" key "]" ] { "." segment | "[" index "]" | "[" string "]" }
//   name      = one or more characters other than . [ ]
//   key       = a JSON string ("a.b") or characters other than ]     (partition key, kept as text)
//   segment   = a name; on an array a run of digits is an index      (memory.trail.0.x)
//   index     = digits;  string = a JSON string                     (stats["odd key"])
//
// The bracket directly after the slot name is always a partition key, so `c.s[0]` is partition "0";
// the first item of a list slot is `c.s.0`.

export type PathSegment = string | number;

export interface SlotPath {
  container: string;
  slot: string;
  /** Keyed partition (`[key]` right after the slot name). */
  key?: string;
  /** JSON path into the value: names and array indices. */
  path: PathSegment[];
}

export type SlotPathResult = { ok: true; value: SlotPath } | { ok: false; message: string };

const NAME = /^[^.[\]]+/;

/** Reads `[…]` at `at`: a JSON string or raw text up to `]`. */
function bracket(text: string, at: number): { text: string; quoted: boolean; end: number } | string {
  if (text[at + 1] === '"') {
    // The shortest JSON string that parses: scan to the first unescaped quote.
    let i = at + 2;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (text[i + 1] !== ']') return `unterminated ["…"] at character ${at + 1}`;
    try {
      return { text: JSON.parse(text.slice(at + 1, i + 1)) as string, quoted: true, end: i + 2 };
    } catch {
      return `invalid quoted key at character ${at + 1}`;
    }
  }
  const close = text.indexOf(']', at);
  if (close < 0) return `missing ] after character ${at + 1}`;
  const inner = text.slice(at + 1, close);
  if (inner === '') return `empty [] at character ${at + 1}`;
  return { text: inner, quoted: false, end: close + 1 };
}

export function parseSlotPath(text: string): SlotPathResult {
  const fail = (message: string): SlotPathResult => ({
    ok: false,
    message: `slot path ${JSON.stringify(text)}: ${message} (expected container.slot, container.slot[key] or container.slot.a.b[0])`,
  });
  const container = NAME.exec(text)?.[0];
  if (!container) return fail('missing container name');
  let at = container.length;
  if (text[at] !== '.') return fail('missing "." and slot name after the container');
  const slot = NAME.exec(text.slice(at + 1))?.[0];
  if (!slot) return fail('missing slot name');
  at += 1 + slot.length;
  const out: SlotPath = { container, slot, path: [] };
  if (text[at] === '[') {
    const b = bracket(text, at);
    if (typeof b === 'string') return fail(b);
    out.key = b.text;
    at = b.end;
  }
  while (at < text.length) {
    if (text[at] === '.') {
      const seg = NAME.exec(text.slice(at + 1))?.[0];
      if (!seg) return fail(`missing name after "." at character ${at + 1}`);
      out.path.push(seg);
      at += 1 + seg.length;
    } else if (text[at] === '[') {
      const b = bracket(text, at);
      if (typeof b === 'string') return fail(b);
      if (!b.quoted && !/^\d+$/.test(b.text))
        return fail(`[${b.text}] is neither an index nor a quoted key (write ["${b.text}"])`);
      out.path.push(b.quoted ? b.text : Number(b.text));
      at = b.end;
    } else return fail(`unexpected ${JSON.stringify(text[at])} at character ${at + 1}`);
  }
  return { ok: true, value: out };
}

export type Lookup = { found: true; value: unknown } | { found: false; message: string };

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

/** Walks `path` into `value`: names into objects, indices (or digit names) into arrays. */
export function walkPath(value: unknown, path: readonly PathSegment[], where: string): Lookup {
  let cur = value;
  let at = where;
  for (const seg of path) {
    if (Array.isArray(cur)) {
      const i = typeof seg === 'number' ? seg : /^\d+$/.test(seg) ? Number(seg) : NaN;
      if (!Number.isInteger(i)) return { found: false, message: `${at} is a list; "${seg}" is not an index` };
      if (i >= cur.length)
        return { found: false, message: `${at} has ${cur.length} item(s); there is no index ${i}` };
      cur = cur[i] as unknown;
      at += `[${i}]`;
    } else if (typeof cur === 'object' && cur !== null) {
      const k = String(seg);
      if (!Object.hasOwn(cur, k)) {
        const keys = Object.keys(cur);
        return {
          found: false,
          message: `${at} has no key ${JSON.stringify(k)} (keys: ${keys.length ? keys.slice(0, 10).join(', ') : 'none'})`,
        };
      }
      cur = (cur as Record<string, unknown>)[k];
      at += `.${k}`;
    } else return { found: false, message: `${at} is ${describe(cur)}; cannot take ${JSON.stringify(seg)}` };
  }
  return { found: true, value: cur };
}
