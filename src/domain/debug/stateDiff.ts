// Compare two run states (two steps of a run, or the same step of a fork and its parent): every
// container's slots and keyed partitions as added / removed / changed / same, old → new, with the
// writer of the newer value; JSON values get a structural diff (jsondiffpatch, whose core is pure),
// walked into flat change lines with JSON paths (`$.a.b[3]`) the UI lists. Pure: no I/O.
import { create, type Delta } from 'jsondiffpatch';
import type { ContainerSnapshot, SlotSnapshot } from '../protocol/protocol.ts';
import { childPath } from './jsonPath.ts';

export type ChangeStatus = 'added' | 'removed' | 'changed' | 'same';

/** Who last set a slot (or one key of a keyed slot) up to a step: a node's write or a signal's clear. */
export interface SlotWriter {
  container: string;
  slot: string;
  key?: string;
  node_id?: string;
  signal?: string;
  reducer?: string;
  step: number;
  seq: number;
  /** The run whose log holds the event (a fork's early history is its parent's). */
  run_id: string;
}

export interface StateSide {
  containers: Record<string, ContainerSnapshot>;
  nodeStates?: Record<string, unknown>;
}

/** One leaf of a structural diff: at `path`, `old` became `new` (moved: from index `old` to `new`). */
export interface DiffLine {
  path: string;
  kind: 'added' | 'removed' | 'changed' | 'moved';
  old?: unknown;
  new?: unknown;
}

export interface KeyDiff {
  key: string;
  status: ChangeStatus;
  old?: unknown;
  new?: unknown;
  lines: DiffLine[];
  writer?: SlotWriter;
}

export interface SlotDiff {
  slot: string;
  status: ChangeStatus;
  old?: unknown;
  new?: unknown;
  /** Structural diff of the unkeyed value (empty when same, added or removed). */
  lines: DiffLine[];
  /** Keyed partitions (only for slots that have keys on either side). */
  keys: KeyDiff[];
  /** Reducer / value type / lifetime changes (a fork may run a changed graph). */
  meta: string[];
  writer?: SlotWriter;
}

export interface ContainerDiff {
  id: string;
  label: string;
  status: ChangeStatus;
  slots: SlotDiff[];
  /** Counts of slots by status (keys count into their slot). */
  counts: Record<ChangeStatus, number>;
}

const patcher = create({
  // Items with an id-like field keep their identity when a list shifts.
  objectHash: (item: object, index?: number) => {
    const o = item as Record<string, unknown>;
    for (const k of ['id', 'key', 'name'])
      if (typeof o[k] === 'string' || typeof o[k] === 'number') return `${k}:${String(o[k])}`;
    return `$$index:${index ?? 0}`;
  },
  arrays: { detectMove: true, includeValueOnMove: false },
  cloneDiffValues: false,
});

/** The structural diff of two JSON values as flat leaf lines (empty when equal). */
export function diffLines(oldValue: unknown, newValue: unknown, root = '$'): DiffLine[] {
  const delta = patcher.diff(oldValue, newValue);
  const out: DiffLine[] = [];
  walk(delta, root, out);
  return out;
}

function walk(delta: Delta, path: string, out: DiffLine[]): void {
  if (delta === undefined) return;
  if (Array.isArray(delta)) {
    if (delta.length === 1) out.push({ path, kind: 'added', new: delta[0] });
    else if (delta.length === 2) out.push({ path, kind: 'changed', old: delta[0], new: delta[1] });
    else if (delta[2] === 0) out.push({ path, kind: 'removed', old: delta[0] });
    else if (delta[2] === 3) out.push({ path, kind: 'moved', new: delta[1] });
    else out.push({ path, kind: 'changed', new: delta[0] }); // text diff (not enabled)
    return;
  }
  const d = delta as Record<string, Delta>;
  if ((d._t as unknown) === 'a') {
    // Removals and moves are keyed `_<old index>`, additions and changes `<new index>`.
    const entries = Object.keys(d)
      .filter((k) => k !== '_t')
      .map((k) => ({ k, idx: Number(k.startsWith('_') ? k.slice(1) : k), old: k.startsWith('_') }))
      .sort((a, b) => a.idx - b.idx || Number(b.old) - Number(a.old));
    for (const e of entries) {
      const sub = d[e.k];
      if (e.old && Array.isArray(sub) && sub[2] === 3)
        out.push({ path: childPath(path, e.idx), kind: 'moved', old: e.idx, new: sub[1] });
      else walk(sub, childPath(path, e.idx), out);
    }
    return;
  }
  for (const k of Object.keys(d)) walk(d[k], childPath(path, k), out);
}

function statusOf(inOld: boolean, inNew: boolean, lines: readonly unknown[]): ChangeStatus {
  if (!inOld) return 'added';
  if (!inNew) return 'removed';
  return lines.length > 0 ? 'changed' : 'same';
}

const writerKey = (c: string, s: string, k?: string) =>
  k === undefined ? `${c}\u0000${s}` : `${c}\u0000${s}\u0000${k}`;

/** Writers indexed for lookup: per slot (the latest of its own and its keys') and per key. */
export function indexWriters(writers: readonly SlotWriter[]): Map<string, SlotWriter> {
  const m = new Map<string, SlotWriter>();
  const later = (a: SlotWriter | undefined, b: SlotWriter) => (a === undefined || b.seq > a.seq ? b : a);
  for (const w of writers) {
    if (w.key !== undefined) m.set(writerKey(w.container, w.slot, w.key), w);
    const sk = writerKey(w.container, w.slot);
    m.set(sk, later(m.get(sk), w));
  }
  return m;
}

/**
 * The writer shown for a change. A removed key or slot has none unless a signal cleared it: an
 * eviction (stateEvict) logs no event, so its last write would wrongly be named.
 */
function attributed(status: ChangeStatus, w: SlotWriter | undefined): { writer?: SlotWriter } {
  if (!w || status === 'same' || (status === 'removed' && w.signal === undefined)) return {};
  return { writer: w };
}

function diffKeys(
  a: SlotSnapshot | undefined,
  b: SlotSnapshot | undefined,
  w: (k: string) => SlotWriter | undefined,
) {
  const ka = a?.keyed ?? {};
  const kb = b?.keyed ?? {};
  const keys = [...new Set([...Object.keys(ka), ...Object.keys(kb)])].sort((x, y) =>
    x.localeCompare(y, undefined, { numeric: true }),
  );
  return keys.map((key): KeyDiff => {
    const inA = key in ka;
    const inB = key in kb;
    const lines = inA && inB ? diffLines(ka[key], kb[key], `$[${JSON.stringify(key)}]`) : [];
    const status = statusOf(inA, inB, lines);
    return {
      key,
      status,
      ...(inA ? { old: ka[key] } : {}),
      ...(inB ? { new: kb[key] } : {}),
      lines,
      ...attributed(status, w(key)),
    };
  });
}

function diffSlot(
  cid: string,
  slot: string,
  a: SlotSnapshot | undefined,
  b: SlotSnapshot | undefined,
  writers: Map<string, SlotWriter>,
): SlotDiff {
  const lines = a && b ? diffLines(a.value, b.value) : [];
  const keys =
    a?.keyed !== undefined || b?.keyed !== undefined
      ? diffKeys(a, b, (k) => writers.get(writerKey(cid, slot, k)))
      : [];
  const meta: string[] = [];
  if (a && b)
    for (const f of ['type', 'value_type', 'lifetime'] as const)
      if (a[f] !== b[f]) meta.push(`${f === 'type' ? 'reducer' : f} ${a[f]} → ${b[f]}`);
  const keyChanged = keys.some((k) => k.status !== 'same');
  const status = statusOf(a !== undefined, b !== undefined, [...lines, ...meta, ...(keyChanged ? [1] : [])]);
  const writer = writers.get(writerKey(cid, slot));
  return {
    slot,
    status,
    ...(a ? { old: a.value } : {}),
    ...(b ? { new: b.value } : {}),
    lines,
    keys,
    meta,
    ...attributed(status, writer),
  };
}

const emptyCounts = (): Record<ChangeStatus, number> => ({ added: 0, removed: 0, changed: 0, same: 0 });

/**
 * `a` is the older side, `b` the newer; `writers` are the newer side's (GET /api/runs/{id}/writers).
 * Containers and slots keep `b`'s order, then those only in `a`.
 */
export function diffStates(a: StateSide, b: StateSide, writers: readonly SlotWriter[] = []): ContainerDiff[] {
  const index = indexWriters(writers);
  const ids = [...new Set([...Object.keys(b.containers), ...Object.keys(a.containers)])];
  return ids.map((id) => {
    const ca = a.containers[id];
    const cb = b.containers[id];
    const names = [...new Set([...Object.keys(cb?.states ?? {}), ...Object.keys(ca?.states ?? {})])];
    const slots = names.map((n) => diffSlot(id, n, ca?.states[n], cb?.states[n], index));
    const counts = emptyCounts();
    for (const s of slots) counts[s.status] += 1;
    const status: ChangeStatus = !ca
      ? 'added'
      : !cb
        ? 'removed'
        : counts.added + counts.removed + counts.changed > 0
          ? 'changed'
          : 'same';
    return { id, label: cb?.label ?? ca?.label ?? id, status, slots, counts };
  });
}

/** Node-local state compared like slots (node id → value). */
export function diffNodeStates(a: StateSide, b: StateSide): KeyDiff[] {
  const na = a.nodeStates ?? {};
  const nb = b.nodeStates ?? {};
  return [...new Set([...Object.keys(nb), ...Object.keys(na)])].map((key) => {
    const inA = key in na;
    const inB = key in nb;
    const lines = inA && inB ? diffLines(na[key], nb[key]) : [];
    return {
      key,
      status: statusOf(inA, inB, lines),
      ...(inA ? { old: na[key] } : {}),
      ...(inB ? { new: nb[key] } : {}),
      lines,
    };
  });
}
