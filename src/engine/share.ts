// Structural sharing of checkpoint records, not only of the values inside them. A checkpoint is
// captured against the previous one: every object of the new state that holds the same content as
// its counterpart in the previous checkpoint IS that counterpart, so the history keeps one copy of
// an unchanged record (a node's pending inputs, a scope, a container's slot table…) and a step
// retains only the records on the paths to what it changed. The walk stops at identical
// references, so its cost is proportional to what the step replaced, not to the size of the state.
// Values are deep-frozen (freeze.ts): equal content is then interchangeable for every reader.

import { build } from './records.ts';
import type { TextPool } from './texts.ts';

type Rec = Record<string, unknown>;

/**
 * One capture's memory. `seen`: what it already produced for a value it met, so a value reached
 * twice in the state (an output that is both an iterOut harvest and the newest entry of an
 * accumulator list) is rebuilt once and then shared by both places, instead of each place keeping
 * a copy of its own. `texts`: the run's pool of texts (texts.ts), so a repeated text is kept once.
 */
export class ShareMemo {
  readonly seen = new Map<object, unknown>();
  constructor(readonly texts?: TextPool) {}
}

const isRecord = (v: unknown): v is Rec =>
  typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer);

/**
 * `cur` with every sub-object whose content equals its counterpart in `prev` replaced by that
 * counterpart (all of `prev` when everything is equal). `cur` must be deep-frozen, except with
 * `owned`: then `cur` itself is the caller's mutable record (it changes after the capture) whose
 * entries are deep-frozen, and what is returned is never `cur` but `prev` or a frozen copy.
 * Pass one `memo` to every call of one capture.
 */
export function share<T>(cur: T, prev: unknown, owned = false, memo: ShareMemo = new ShareMemo()): T {
  if (Object.is(cur, prev) && !owned) return cur;
  if (!isRecord(cur)) return cur;
  if (!owned) {
    // Met before in this capture: what was made of it then is already kept, so it is only compared
    // with this place's counterpart (and copied only if some child of it is shared from there).
    const done = memo.seen.get(cur) as T | undefined;
    if (done !== undefined)
      return Object.is(done, prev) ? done : (shareRecord(done as Rec, prev, false, memo, false) as T);
  }
  const out = shareRecord(cur, prev, owned, memo, true);
  if (!owned) {
    memo.seen.set(cur, out);
    // What was made is met again as itself (an entry both places now hold): it is no first sight.
    if (out !== cur) memo.seen.set(out, out);
  }
  return out;
}

/**
 * `fresh`: `cur` is this capture's first sight of a value, not what it made of one: a changed plain
 * record is then rebuilt even when none of its children was replaced, and its texts are pooled.
 */
function shareRecord<T extends Rec>(
  cur: T,
  prev: unknown,
  owned: boolean,
  memo: ShareMemo,
  fresh: boolean,
): T {
  if (!isRecord(prev) || Array.isArray(cur) !== Array.isArray(prev))
    return unmatched(cur, owned, memo, fresh);
  if (Array.isArray(cur))
    return shareList(cur, prev as unknown as readonly unknown[], owned, memo, fresh) as unknown as T;
  const keys = Object.keys(cur);
  const prevKeys = Object.keys(prev);
  let equal = keys.length === prevKeys.length;
  let kids: unknown[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const c = cur[k];
    const has = Object.hasOwn(prev, k);
    const p = has ? prev[k] : undefined;
    const t = fresh ? earlierText(c, p, memo) : undefined;
    const s = t ?? share(c, p, false, memo);
    // Same key order too: a reader that iterates (JSON, the timeline) must not see a difference.
    if (equal && (prevKeys[i] !== k || !has || !Object.is(s, prev[k]))) equal = false;
    if (t !== undefined || s !== c) {
      kids ??= keys.map((kk) => cur[kk]);
      kids[i] = s;
    }
  }
  if (equal) return prev as T;
  if (Object.getPrototypeOf(cur) !== Object.prototype) return owned ? copyOf(cur) : cur;
  if (!kids && !fresh) return cur;
  // A changed plain record is rebuilt key by key even when no child was replaced: V8 gives an object
  // spread from a frozen one and then frozen a hidden class of its own (no transition to share), which
  // costs more than the record itself once thousands of checkpoints keep one each. Rebuilt, every
  // such record of a step shares one hidden class with its predecessors.
  return Object.freeze(build(keys, kids ?? keys.map((k) => cur[k]))) as T;
}

/**
 * A record without a counterpart (a new key, a new list entry) is still walked: a value in it may
 * have been met elsewhere in this capture, and must then be what was made of it there.
 */
function unmatched<T extends Rec>(cur: T, owned: boolean, memo: ShareMemo, fresh: boolean): T {
  const list = Array.isArray(cur);
  // Indexes, not Object.keys, for a list: a copy must keep the holes a sparse list may have.
  const keys = list ? Array.from(cur as unknown as unknown[], (_, i) => i) : Object.keys(cur);
  let kids: unknown[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const c = cur[keys[i]!];
    const t = fresh ? earlierText(c, undefined, memo) : undefined;
    const s = t ?? share(c, undefined, false, memo);
    if (t !== undefined || s !== c) {
      kids ??= list ? (cur as unknown as unknown[]).slice() : keys.map((k) => cur[k]);
      kids[i] = s;
    }
  }
  if (kids && list) return Object.freeze(kids) as unknown as T;
  if (kids && Object.getPrototypeOf(cur) === Object.prototype)
    return Object.freeze(build(keys as string[], kids)) as T;
  return owned ? copyOf(cur) : cur;
}

/**
 * Lists are compared entry by entry after aligning them: a bounded accumulator (max_size) drops its
 * oldest entries, so its entry i is the previous list's entry i + dropped. Compared at the same index
 * instead, every shifted entry would differ from its counterpart and be rebuilt: a new copy of each
 * entry of the window, every step, of records the history already holds.
 */
function shareList(
  cur: readonly unknown[],
  prev: readonly unknown[],
  owned: boolean,
  memo: ShareMemo,
  fresh: boolean,
): readonly unknown[] {
  const shift = dropped(cur, prev);
  let equal = shift === 0 && cur.length === prev.length;
  let kids: unknown[] | undefined;
  for (let i = 0; i < cur.length; i++) {
    const c = cur[i];
    const j = i + shift;
    const p = j < prev.length ? prev[j] : undefined;
    const t = fresh ? earlierText(c, p, memo) : undefined;
    const s = t ?? share(c, p, false, memo);
    if (equal && !Object.is(s, prev[j])) equal = false;
    if (t !== undefined || s !== c) {
      kids ??= cur.slice();
      kids[i] = s;
    }
  }
  if (equal) return prev;
  if (kids) return Object.freeze(kids);
  return owned ? Object.freeze(cur.slice()) : cur;
}

/**
 * The pool's earlier copy of a text that differs from its counterpart (an equal counterpart is the
 * previous step's own entry, already that copy). `===` cannot tell copies apart, so the caller
 * puts the returned copy in place of `c` whenever there is one.
 */
function earlierText(c: unknown, counterpart: unknown, memo: ShareMemo): string | undefined {
  return typeof c === 'string' && c !== counterpart ? memo.texts?.earlier(c) : undefined;
}

/** How many leading entries of `prev` `cur` no longer has, when `cur` starts with a later entry of it. */
function dropped(cur: readonly unknown[], prev: readonly unknown[]): number {
  const first = cur[0];
  if (cur.length === 0 || first === prev[0] || typeof first !== 'object' || first === null) return 0;
  const at = prev.indexOf(first);
  return at > 0 ? at : 0;
}

const copyOf = <T extends Rec>(r: T): T => {
  // slice, not a spread: a spread list keeps spare capacity (about twice its length) for good.
  if (Array.isArray(r)) return Object.freeze(r.slice()) as unknown as T;
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
