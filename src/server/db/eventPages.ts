// Event pages: the chatty events of one committed step (exec_log, node_status, viewer_data: ~48 of
// the demo's ~57 events per step) stored as ONE row instead of one row each. A page is the JSON of
// [firstSeq, firstTs, [[seqDelta, type, tsDelta, data], …]] compressed with raw deflate: the same node
// ids, labels and keys repeat in every event of a step, so the page costs a fraction of the rows it
// replaces (no per-row key, header and index entry). JSON — not msgpack — inside, so a payload reads
// back exactly as the per-row JSON did (undefined keys dropped, NaN → null, same key order).
// Compaction (compaction.ts) re-packs a finished run's pages into pages of many steps, compressed
// with brotli behind a 0xFF marker byte (a raw deflate stream never starts with it: its block-type
// bits would be the reserved 11), so every reader decodes both kinds of page alike.
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  deflateRawSync,
  inflateRawSync,
} from 'node:zlib';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { CommitBatch, StepPart } from './runStore.ts';

/**
 * Event types stored in pages. The rest keep one row each: nav_step/restored are what the snapshot
 * queries find by step, state_written/signal are folded by step (stateEvents), state_written's
 * values are shared with the checkpoints through the blob store (inline in a page they cost more),
 * and the rare types are not worth a page.
 */
export const PAGED_TYPES: ReadonlySet<string> = new Set(['exec_log', 'node_status', 'viewer_data']);

/** One event as a page holds it: the envelope without runId, ts in epoch ms. */
export interface PagedEvent {
  seq: number;
  type: string;
  ts: number;
  data: unknown;
}

type PageBody = [number, number, [number, string, number, unknown][]];

function pageBody(events: readonly PagedEvent[]): PageBody {
  const first = events[0];
  if (!first) throw new Error('an event page needs at least one event');
  let seq = first.seq;
  let ts = first.ts;
  const rows: PageBody[2] = [];
  for (const e of events) {
    rows.push([e.seq - seq, e.type, e.ts - ts, e.data ?? null]);
    seq = e.seq;
    ts = e.ts;
  }
  return [first.seq, first.ts, rows];
}

/** Encodes events (ascending seq) as one page (one step's: cheap deflate, on the commit path). */
export function encodePage(events: readonly PagedEvent[]): Buffer {
  // Level 1: on a demo step's page (~5 KB of JSON) it is ~4x faster than zlib's default 6 (24 vs
  // 100 µs, a few % of a step at full speed) for a page ~12% bigger, and a finished run's pages are
  // re-packed with brotli by compaction anyway, so only a live run's pages keep this size.
  return deflateRawSync(Buffer.from(JSON.stringify(pageBody(events)), 'utf8'), { level: 1 });
}

const PACKED = 0xff;
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 22 } };

/** Encodes the events of many steps as one packed page (compaction; brotli spans all the steps). */
export function encodePackedPage(events: readonly PagedEvent[]): Buffer {
  const body = brotliCompressSync(Buffer.from(JSON.stringify(pageBody(events)), 'utf8'), BROTLI);
  return Buffer.concat([Buffer.of(PACKED), body]);
}

/** Whether a stored page is already packed by compaction. */
export const isPackedPage = (page: Uint8Array): boolean => page[0] === PACKED;

export function decodePage(page: Uint8Array): PagedEvent[] {
  const text = isPackedPage(page) ? brotliDecompressSync(page.subarray(1)) : inflateRawSync(page);
  const [seq0, ts0, rows] = JSON.parse(text.toString('utf8')) as PageBody;
  const out: PagedEvent[] = [];
  let seq = seq0;
  let ts = ts0;
  for (const [dSeq, type, dTs, data] of rows) {
    seq += dSeq;
    ts += dTs;
    out.push({ seq, type, ts, data });
  }
  return out;
}

/** The host's envelope of a paged event (field order as every other read of the log). */
export const pagedEnvelope = (runId: string, e: PagedEvent): EventEnvelope => ({
  type: e.type as EventEnvelope['type'],
  runId,
  seq: e.seq,
  ts: new Date(e.ts).toISOString(),
  data: e.data as EventEnvelope['data'],
});

/** A commit's page encoded before the commit (pageOut): seqs `first`..`last`, `n` events. */
export interface EncodedPage {
  first: number;
  last: number;
  n: number;
  bytes: Uint8Array;
}

/**
 * `batch` with its paged events taken out into the one page its commit writes, encoded here: what
 * RunStore.commit would do inside the transaction, done by whoever prepares the commit (an episode
 * child's engine thread, while its writer thread writes the previous commit). Each step keeps its
 * last seq (`through`), where its checkpoint sits.
 */
export function pageOut(batch: CommitBatch): CommitBatch {
  const paged: PagedEvent[] = [];
  const part = (p: StepPart): StepPart => {
    const rows = [];
    for (const e of p.events)
      if (PAGED_TYPES.has(e.type))
        paged.push({ seq: e.seq, type: e.type, ts: Date.parse(e.ts), data: e.data });
      else rows.push(e);
    const through = p.events[p.events.length - 1]?.seq;
    return { ...p, events: rows, ...(through !== undefined ? { through } : {}) };
  };
  const earlier = batch.earlier?.map(part);
  const out: CommitBatch = { ...batch, ...part(batch), ...(earlier ? { earlier } : {}) };
  const first = paged[0];
  const last = paged[paged.length - 1];
  if (first && last)
    out.page = { first: first.seq, last: last.seq, n: paged.length, bytes: encodePage(paged) };
  return out;
}
