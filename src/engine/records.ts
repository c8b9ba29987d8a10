// How a rebuilt checkpoint record is laid out in V8. Thousands of checkpoints keep one of each
// changed record, so what a record costs beyond its fields (a hidden class of its own, spare
// element capacity, generated code) is paid per step, for good.

type Rec = Record<string, unknown>;

/** Literal factories by key list: a literal gets exact in-object room and one shared hidden class. */
const factories = new Map<string, (v: readonly unknown[]) => Rec>();
const MAX_FACTORIES = 2048;

/** A plain record with `keys` bound to `vals` in that order (an own `__proto__` key stays data). */
export function build(keys: readonly string[], vals: readonly unknown[]): Rec {
  if (keys.some(isIndex)) return indexed(keys, vals);
  const sig = keys.join('\u0000');
  let f = factories.get(sig);
  if (!f && factories.size < MAX_FACTORIES && keys.length <= 32 && !keys.includes('__proto__')) {
    // Keys come from state values (graph data), so they enter the generated code ONLY as JSON string
    // literals (since ES2019 every JSON string is a valid JS string literal): no key can be code.
    // `__proto__` is refused above because a literal `"__proto__": v` would set the prototype.
    const body = keys.map((k, i) => `${JSON.stringify(k)}: v[${i}]`).join(', ');
    f = new Function('v', `return { ${body} };`) as (v: readonly unknown[]) => Rec;
    // Two throwaway objects make every field of the factory's hidden class hold any value (tagged):
    // a number is then stored as the shared reference it already is, not re-boxed per record.
    f(keys.map(() => null));
    f(keys.map(() => 0.5));
    factories.set(sig, f);
  }
  return f ? f(vals) : assigned(keys, vals);
}

/** The record built key by key (no factory: too many key lists, too many keys, or `__proto__`). */
function assigned(keys: readonly string[], vals: readonly unknown[]): Rec {
  const out: Rec = {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    // An own "__proto__" key (JSON.parse makes them) must stay data: assigning it would set the prototype.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: vals[i], enumerable: true, writable: true, configurable: true });
    else out[k] = vals[i];
  }
  return out;
}

/** An array-index key ("0", "17"): V8 keeps such properties as elements, not in the hidden class. */
function isIndex(k: string): boolean {
  const c = k.charCodeAt(0);
  return c >= 48 && c <= 57 && /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 4294967295;
}

/**
 * A record with index keys (a keyed partition by episode number: `{"5": list}`), made by
 * JSON.parse: it sizes the elements to the keys it reads, dense or a dictionary for far-apart
 * keys. A literal or assignment reserves a dense run up to the largest index instead (a record of
 * one key "250" held 3.2 KB, of key "5" 270 B against 120 B parsed), and a factory per key list
 * would compile code for every new episode. Placeholders are the values' positions, so every value
 * is bound by reference; JSON.parse defines an own `__proto__` key as data.
 */
function indexed(keys: readonly string[], vals: readonly unknown[]): Rec {
  // The reviver drops a key whose value it returns as undefined: such a record keeps the slow path.
  if (vals.includes(undefined)) return assigned(keys, vals);
  const text = `{${keys.map((k, i) => `${JSON.stringify(k)}:${i}`).join(',')}}`;
  return JSON.parse(text, (_k, x: unknown) => (typeof x === 'number' ? vals[x] : x)) as Rec;
}
