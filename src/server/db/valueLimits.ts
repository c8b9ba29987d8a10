// How big a stored value may get once expanded, and what a reader does past that. Values are stored
// as a Merkle DAG (merkle.ts): a sub-object used twice is stored once, so a 3 KB bundle whose blob k
// is `{"a": blob k+1, "b": blob k+1}` decodes to 30 shared objects but serializes to 2^30 leaves. Every
// reader of the run database (REST, the live hub's replay, restore and fork) would then expand it on
// the server's only thread. So the blob store measures each value's expanded size while it decodes
// it (for free: a blob's text plus what its references expand to, blobStore.ts) and refuses to hand
// out one larger than the limit; the importer refuses such a value at the door (bundleImport.ts).
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { isNdArray } from '../../domain/services/ndarray.ts';
import { jsonPath } from '../../domain/validate/issues.ts';

/** `statewire serve --max-value-mb` default. */
export const DEFAULT_MAX_VALUE_MB = 64;
export const MB = 1024 * 1024;
/** How a user raises the limit (quoted in every refusal). */
export const VALUE_LIMIT_HOW = 'statewire serve --max-value-mb N, or STATEWIRE_MAX_VALUE_MB';

/** "812 B", "3.1 MB", "107.4 GB" (binary units, as the limit is given). */
export function describeBytes(n: number): string {
  if (!Number.isFinite(n)) return 'an unbounded size';
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} B` : `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

/** A stored value a reader will not hand out; `code` is the API error code. */
export abstract class StoredValueError extends Error {
  constructor(
    readonly code: 'value-too-large' | 'value-cycle',
    message: string,
    readonly status: number,
  ) {
    super(message);
  }

  /** The same refusal, saying which value it is ("event 12 (nav_step) of run r"). */
  abstract about(what: string): StoredValueError;
}

export class ValueTooLargeError extends StoredValueError {
  constructor(
    readonly bytes: number,
    readonly limit: number,
    what = 'a stored value',
  ) {
    super(
      'value-too-large',
      `${what} expands to ${describeBytes(bytes)} of JSON (its shared parts repeated); ` +
        `the server hands out values of at most ${describeBytes(limit)} (${VALUE_LIMIT_HOW})`,
      413,
    );
  }

  about(what: string): ValueTooLargeError {
    return new ValueTooLargeError(this.bytes, this.limit, what);
  }
}

/** A blob that contains itself: only a damaged database or a hand-made bundle holds one. */
export class ValueCycleError extends StoredValueError {
  constructor(
    readonly blob: number | string,
    what = 'a stored value',
  ) {
    super('value-cycle', `${what} cannot be read: its stored blob ${blob} contains itself (a cycle)`, 500);
  }

  about(what: string): ValueCycleError {
    return new ValueCycleError(this.blob, what);
  }
}

/**
 * What a log reader gets instead of an event whose payload it will not hand out: an `error_event`
 * at the same seq (so the seqs stay gap-free) saying which event and why.
 */
export function refusedValueEvent(
  runId: string,
  seq: number,
  ts: string,
  type: string,
  err: StoredValueError,
): EventEnvelope {
  const tooLarge = err instanceof ValueTooLargeError;
  return {
    type: 'error_event',
    runId,
    seq,
    ts,
    data: {
      id: `${err.code}-${seq}`,
      ts,
      severity: 'error',
      source: 'api',
      code: err.code,
      title: tooLarge ? `${type} event not sent: its value is too large` : `${type} event is damaged`,
      message: err.message,
      scope: { run_id: runId, seq },
      details: { event_type: type, ...(tooLarge ? { bytes: err.bytes, limit_bytes: err.limit } : {}) },
      hint: tooLarge
        ? `A value this large is usually a bundle made to be expanded; if it is genuine, raise the limit (${VALUE_LIMIT_HOW}).`
        : 'The run database is damaged; the other events of the run are intact.',
    },
  };
}

/**
 * The JSON size of `value` with shared sub-objects counted at every use (an estimate: strings count
 * their length, node-service arrays their bytes). Walks each distinct object once, so a DAG that
 * expands to gigabytes is measured in microseconds; stops adding once the total passes `stopAbove`.
 */
export function jsonBytes(value: unknown, stopAbove = Infinity, memo = new Map<object, number>()): number {
  if (value === null || value === undefined) return 4;
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
    case 'bigint':
      return String(value).length;
    case 'boolean':
      return 5;
    case 'object':
      break;
    default:
      return 0;
  }
  const known = memo.get(value);
  if (known !== undefined) return known;
  if (isNdArray(value)) return value.data.byteLength + 64;
  let total = 2;
  if (Array.isArray(value)) {
    for (const v of value) {
      total += jsonBytes(v, stopAbove, memo) + 1;
      if (total > stopAbove) return total;
    }
  } else {
    for (const [k, v] of Object.entries(value)) {
      total += k.length + 4 + jsonBytes(v, stopAbove, memo);
      if (total > stopAbove) return total;
    }
  }
  memo.set(value, total);
  return total;
}

/**
 * Where in `value` the bulk is: the JSON path (below `root`) of the deepest part that alone is still
 * larger than `limit`, so a refusal can name it (`$.events[3].data.nodeStates.bomb.a.a`).
 */
export function oversizedPath(value: unknown, limit: number, root: string, maxDepth = 24): string {
  const memo = new Map<object, number>();
  const path: (string | number)[] = [];
  let at = value;
  while (path.length < maxDepth && typeof at === 'object' && at !== null && !isNdArray(at)) {
    const entries: [string | number, unknown][] = Array.isArray(at)
      ? at.map((v, i) => [i, v])
      : Object.entries(at);
    const big = entries.find(([, v]) => jsonBytes(v, limit, memo) > limit);
    if (!big) break;
    path.push(big[0]);
    at = big[1];
  }
  return jsonPath(path, root);
}
