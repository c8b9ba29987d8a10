// The live `events` batch (live protocol 3, `subscribe {batch: true}`; the one wire form of a batch,
// sent by the hub and the distributed viewer relay alike): one run's events in columns instead of
// an array of envelopes. In a flat-out demo run the envelope (`type`, `runId`, `seq`, `ts` keys and
// values) is ~100 of the ~240 characters of an average event, and every character is stringified,
// framed and written by the server and parsed by the tab (docs/performance.md, Live stream).
// Packed, `runId` travels once per batch, `ts` as a small offset from the batch's first event, and
// the keys not at all:
//   {runId, t0, seq: [s…], type: [t…], dt: [ms…], data: [d…]}  (envelope i = column i of each)
// Every seq is kept as it is (a batch may skip seqs: a `gap` notice stands for what it dropped), so
// the client checks order, holes and duplicates exactly as for envelopes. `ts` round-trips
// exactly: a live or logged envelope's `ts` is an ISO string of whole milliseconds; a batch holding
// any other `ts` (an imported log's) carries every `ts` as it is in a `ts` column instead (dt all 0).
// The empty batch (no events) is the hub's ack request.
import type { EventEnvelope } from './protocol.ts';

export interface PackedEvents {
  runId: string;
  /** Epoch ms of the first event; `ts` of event i is t0 + dt[i]. */
  t0: number;
  seq: number[];
  type: string[];
  dt: number[];
  data: unknown[];
  /** Each event's `ts` as it is, only when one of them is not an ISO date of whole milliseconds. */
  ts?: string[];
}

/** The events (all of `runId`, in seq order) as one packed batch. */
export function packEvents(runId: string, events: readonly EventEnvelope[]): PackedEvents {
  const n = events.length;
  const seq = new Array<number>(n);
  const type = new Array<string>(n);
  const dt = new Array<number>(n);
  const data = new Array<unknown>(n);
  let t0 = NaN;
  let exact = true;
  // A step's dozens of events share a few ms: parse and check each distinct `ts` once.
  let lastTs = '';
  let lastMs = NaN;
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    if (e.runId !== runId) throw new Error(`packEvents: event ${e.seq} is of run ${e.runId}, not ${runId}`);
    if (e.ts !== lastTs) {
      const ms = Date.parse(e.ts);
      if (exact && (!Number.isFinite(ms) || new Date(ms).toISOString() !== e.ts)) exact = false;
      lastTs = e.ts;
      lastMs = ms;
    }
    if (i === 0) t0 = lastMs;
    seq[i] = e.seq;
    type[i] = e.type;
    dt[i] = lastMs - t0;
    data[i] = e.data;
  }
  if (!exact) return { runId, t0: 0, seq, type, dt: dt.fill(0), data, ts: events.map((e) => e.ts) };
  return { runId, t0: n === 0 ? 0 : t0, seq, type, dt, data };
}

export type Unpacked = { ok: true; events: EventEnvelope[] } | { ok: false; error: string };

const isIntArray = (v: unknown, n?: number): v is number[] =>
  Array.isArray(v) && (n === undefined || v.length === n) && v.every((x) => Number.isSafeInteger(x));

/**
 * A packed batch as envelopes, in order. The batch's shape is checked here (columns of one length,
 * integer seqs and offsets, string types), with an error naming what is wrong; each envelope is
 * still the caller's to validate (`EventEnvelopeSchema`), as a single message would be. Never throws.
 */
export function unpackEvents(raw: unknown): Unpacked {
  const fail = (what: string): Unpacked => ({ ok: false, error: `packed events batch: ${what}` });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('not an object');
  const b = raw as Partial<Record<keyof PackedEvents, unknown>>;
  if (typeof b.runId !== 'string') return fail('$.runId is not a string');
  if (typeof b.t0 !== 'number' || !Number.isSafeInteger(b.t0)) return fail('$.t0 is not an integer');
  if (!Array.isArray(b.seq)) return fail('$.seq is not an array');
  const n = b.seq.length;
  if (!isIntArray(b.seq)) return fail('$.seq holds a value that is not an integer');
  if (!isIntArray(b.dt, n)) return fail(`$.dt is not ${n} integers`);
  if (!Array.isArray(b.type) || b.type.length !== n || !b.type.every((t) => typeof t === 'string'))
    return fail(`$.type is not ${n} strings`);
  if (!Array.isArray(b.data) || b.data.length !== n) return fail(`$.data is not ${n} values`);
  if (
    b.ts !== undefined &&
    (!Array.isArray(b.ts) || b.ts.length !== n || !b.ts.every((t) => typeof t === 'string'))
  )
    return fail(`$.ts is not ${n} strings`);
  const { runId, t0, seq, dt, type, data, ts } = b as PackedEvents;
  const events = new Array<EventEnvelope>(n);
  let lastMs = NaN;
  let lastTs = '';
  for (let i = 0; i < n; i++) {
    const ms = t0 + dt[i]!;
    if (ts) lastTs = ts[i]!;
    else if (ms !== lastMs) {
      const d = new Date(ms);
      if (Number.isNaN(d.getTime())) return fail(`$.dt[${i}] is out of range`);
      lastMs = ms;
      lastTs = d.toISOString();
    }
    events[i] = {
      type: type[i] as EventEnvelope['type'],
      runId,
      seq: seq[i]!,
      ts: lastTs,
      data: data[i],
    };
  }
  return { ok: true, events };
}
