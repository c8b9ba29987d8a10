// A node's `config_schema` (the JSON Schema subset node services and built-ins declare) as form
// fields: string, number, integer, boolean, enum (a select), array of primitives (comma-separated
// text, or a JSON array), and raw JSON for everything else. Pure: the form component renders these
// descriptors and commits what `parseFieldText` returns through one store edit per change.

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'array' | 'json';
export type ItemKind = 'string' | 'number' | 'integer' | 'boolean';

export interface ConfigFieldSpec {
  key: string;
  kind: FieldKind;
  /** `title` of the property, else its key. */
  label: string;
  description: string;
  required: boolean;
  /** Present when the schema declares a default (shown as the placeholder). */
  default?: unknown;
  enumValues?: unknown[];
  itemKind?: ItemKind;
  minimum?: number;
  maximum?: number;
  /** Long text (format `textarea`, or a long default). */
  multiline?: boolean;
  /** Shown, not edited (`readOnly`; a node service's `label` field). */
  readOnly?: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const ITEM_KINDS: readonly string[] = ['string', 'number', 'integer', 'boolean'];

/** The property's type: a string, or the first non-null entry of a type list (`["integer","null"]`). */
function typeOf(p: Obj): string | undefined {
  if (typeof p.type === 'string') return p.type;
  if (Array.isArray(p.type)) return p.type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
}

export function fieldOf(key: string, raw: unknown, required = false): ConfigFieldSpec {
  const p: Obj = isObj(raw) ? raw : {};
  const base: ConfigFieldSpec = {
    key,
    kind: 'json',
    label: typeof p.title === 'string' && p.title ? p.title : key,
    description: typeof p.description === 'string' ? p.description : '',
    required,
    ...('default' in p ? { default: p.default } : {}),
    ...(typeof p.minimum === 'number' ? { minimum: p.minimum } : {}),
    ...(typeof p.maximum === 'number' ? { maximum: p.maximum } : {}),
    ...(p.readOnly === true ? { readOnly: true } : {}),
  };
  if (Array.isArray(p.enum) && p.enum.length > 0) return { ...base, kind: 'enum', enumValues: p.enum };
  const t = typeOf(p);
  if (t === 'string') {
    const long = p.format === 'textarea' || (typeof p.default === 'string' && p.default.length > 40);
    return { ...base, kind: 'string', ...(long ? { multiline: true } : {}) };
  }
  if (t === 'number' || t === 'integer' || t === 'boolean') return { ...base, kind: t };
  if (t === 'array' && isObj(p.items) && !Array.isArray(p.items.enum)) {
    const it = typeOf(p.items);
    if (it && ITEM_KINDS.includes(it)) return { ...base, kind: 'array', itemKind: it as ItemKind };
  }
  return base;
}

/** Fields of a schema's `properties`, in declaration order; none when it declares none. */
export function schemaFields(schema: unknown): ConfigFieldSpec[] {
  if (!isObj(schema) || !isObj(schema.properties)) return [];
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === 'string') : [],
  );
  return Object.entries(schema.properties).map(([k, p]) => fieldOf(k, p, required.has(k)));
}

function itemFits(kind: ItemKind, v: unknown): boolean {
  if (kind === 'integer') return Number.isInteger(v);
  return typeof v === kind;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether a stored value can be shown by the field's control. One that cannot (a legacy file, a
 * hand edit) is shown as raw JSON instead, so the form never silently rewrites it.
 */
export function fits(f: ConfigFieldSpec, v: unknown): boolean {
  if (v === undefined) return true;
  switch (f.kind) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number';
    case 'integer':
      return Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'enum':
      return (f.enumValues ?? []).some((e) => sameJson(e, v));
    case 'array':
      return Array.isArray(v) && v.every((x) => itemFits(f.itemKind ?? 'string', x));
    case 'json':
      return true;
  }
}

/** Text shown in a text control for a stored value. */
export function fieldText(f: ConfigFieldSpec, v: unknown): string {
  if (v === undefined) return '';
  if (f.kind === 'array' && Array.isArray(v)) {
    // Strings with commas (or empty ones) cannot round-trip as a comma list: show the JSON array.
    const plain = v.every((x) => typeof x !== 'string' || (x !== '' && !x.includes(',') && x.trim() === x));
    return plain ? v.map(String).join(', ') : JSON.stringify(v);
  }
  if (f.kind === 'json') {
    const compact = JSON.stringify(v) ?? '';
    return compact.length > 60 ? JSON.stringify(v, null, 2) : compact;
  }
  return String(v);
}

/** Placeholder text: the schema default, when there is one. */
export function placeholderOf(f: ConfigFieldSpec): string {
  if (!('default' in f)) return '';
  const d = f.default;
  return `default: ${typeof d === 'string' ? d : JSON.stringify(d)}`;
}

export type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

function parseNumber(f: ConfigFieldSpec, t: string, integer: boolean, what: string): Parsed {
  const n = Number(t);
  if (t.trim() === '' || !Number.isFinite(n))
    return { ok: false, reason: `${what} must be a number, got "${t}"` };
  if (integer && !Number.isInteger(n))
    return { ok: false, reason: `${what} must be a whole number, got ${t}` };
  if (f.minimum !== undefined && n < f.minimum)
    return { ok: false, reason: `${what} must be at least ${f.minimum}, got ${n}` };
  if (f.maximum !== undefined && n > f.maximum)
    return { ok: false, reason: `${what} must be at most ${f.maximum}, got ${n}` };
  return { ok: true, value: n };
}

function parseItem(kind: ItemKind, raw: unknown, what: string): Parsed {
  if (kind === 'string') return { ok: true, value: String(raw) };
  if (kind === 'boolean') {
    if (typeof raw === 'boolean') return { ok: true, value: raw };
    if (raw === 'true' || raw === 'false') return { ok: true, value: raw === 'true' };
    return { ok: false, reason: `${what} must be true or false, got "${String(raw)}"` };
  }
  const n = typeof raw === 'number' ? raw : Number(raw);
  if ((typeof raw === 'string' && raw.trim() === '') || !Number.isFinite(n))
    return { ok: false, reason: `${what} must be a number, got "${String(raw)}"` };
  if (kind === 'integer' && !Number.isInteger(n))
    return { ok: false, reason: `${what} must be a whole number, got ${String(raw)}` };
  return { ok: true, value: n };
}

/**
 * The value to store for what the user typed, or the reason it is refused (naming the field).
 * An emptied number or JSON field removes the key (the node falls back to its default).
 */
export function parseFieldText(f: ConfigFieldSpec, text: string): Parsed {
  const what = `'${f.key}'`;
  switch (f.kind) {
    case 'string':
      return { ok: true, value: text };
    case 'number':
    case 'integer':
      if (text.trim() === '' && !f.required) return { ok: true, value: undefined };
      return parseNumber(f, text, f.kind === 'integer', what);
    case 'boolean':
      return parseItem('boolean', text.trim(), what);
    case 'enum': {
      const hit = (f.enumValues ?? []).find((e) => (typeof e === 'string' ? e : JSON.stringify(e)) === text);
      if (hit === undefined)
        return { ok: false, reason: `${what} must be one of ${JSON.stringify(f.enumValues)}` };
      return { ok: true, value: hit };
    }
    case 'array': {
      const kind = f.itemKind ?? 'string';
      const t = text.trim();
      let items: unknown[];
      if (t.startsWith('[')) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(t);
        } catch (e) {
          return { ok: false, reason: `${what}: not a valid JSON array: ${(e as Error).message}` };
        }
        if (!Array.isArray(parsed)) return { ok: false, reason: `${what} must be a list` };
        items = parsed;
      } else items = t === '' ? [] : t.split(',').map((x) => x.trim());
      const out: unknown[] = [];
      for (let i = 0; i < items.length; i++) {
        const r = parseItem(kind, items[i], `${what} item ${i + 1}`);
        if (!r.ok) return r;
        out.push(r.value);
      }
      return { ok: true, value: out };
    }
    case 'json': {
      if (text.trim() === '') return { ok: true, value: undefined };
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch (e) {
        return { ok: false, reason: `${what}: not valid JSON: ${(e as Error).message}` };
      }
    }
  }
}
