// Structural sharing of checkpoint records, not only of the values inside them. A checkpoint is
// captured against the previous one: every object of the new state that holds the same content as
// its counterpart in the previous checkpoint IS that counterpart, so the history keeps one copy of
// an unchanged record (a node's pending inputs, a scope, a container's slot table…) and a step
// retains only the records on the paths to what it changed. The walk stops at identical
// references, so its cost is proportional to what the step replaced, not to the size of the state.
// Values are deep-frozen (freeze.ts): equal content is then interchangeable for every reader.

type Rec = Record<string, unknown>;

const isRecord = (v: unknown): v is Rec =>
  typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer);

/**
 * `cur` with every sub-object whose content equals its counterpart in `prev` replaced by that
 * counterpart (all of `prev` when everything is equal). `cur` must be deep-frozen, except with
 * `owned`: then `cur` itself is the caller's mutable record (it changes after the capture) whose
 * entries are deep-frozen, and what is returned is never `cur` but `prev` or a frozen copy.
 */
export function share<T>(cur: T, prev: unknown, owned = false): T {
  if (Object.is(cur, prev) && !owned) return cur;
  if (!isRecord(cur)) return cur;
  if (!isRecord(prev) || Array.isArray(cur) !== Array.isArray(prev)) return owned ? copyOf(cur) : cur;
  const keys = Object.keys(cur);
  const prevKeys = Object.keys(prev);
  let equal = keys.length === prevKeys.length;
  let kids: unknown[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const c = cur[k];
    const has = Object.hasOwn(prev, k);
    const s = has ? share(c, prev[k]) : c;
    // Same key order too: a reader that iterates (JSON, the timeline) must not see a difference.
    if (equal && (prevKeys[i] !== k || !has || !Object.is(s, prev[k]))) equal = false;
    if (s !== c) {
      kids ??= keys.map((kk) => cur[kk]);
      kids[i] = s;
    }
  }
  if (equal) return prev as T;
  if (Array.isArray(cur)) return (kids ? Object.freeze(kids) : owned ? copyOf(cur) : cur) as T;
  if (Object.getPrototypeOf(cur) !== Object.prototype) return owned ? copyOf(cur) : cur;
  // A changed plain record is rebuilt key by key even when no child was replaced: V8 gives an object
  // spread from a frozen one and then frozen a hidden class of its own (no transition to share), which
  // costs more than the record itself once thousands of checkpoints keep one each. Rebuilt, every
  // such record of a step shares one hidden class with its predecessors.
  return Object.freeze(build(keys, kids ?? keys.map((k) => cur[k]))) as T;
}

/** Literal factories by key list: a literal gets exact in-object room and one shared hidden class. */
const factories = new Map<string, (v: readonly unknown[]) => Rec>();
const MAX_FACTORIES = 2048;

function build(keys: readonly string[], vals: readonly unknown[]): Rec {
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
  if (f) return f(vals);
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

const copyOf = <T extends Rec>(r: T): T => {
  if (Array.isArray(r)) return Object.freeze([...(r as unknown[])]) as unknown as T;
  const keys = Object.keys(r);
  return Object.freeze(
    build(
      keys,
      keys.map((k) => r[k]),
    ),
  ) as T;
};

/** True when both records hold the same keys, in the same order, bound to identical values. */
export function sameEntries(a: Readonly<Rec>, b: Readonly<Rec>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || a[ka[i]!] !== b[ka[i]!]) return false;
  return true;
}
