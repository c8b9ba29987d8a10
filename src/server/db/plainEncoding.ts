// One step of plain-root compaction. A run driven flat out writes its blob-encoded payloads
// (nav_step, state_written, viewer_data, restored) and its checkpoints as plain roots
// (BlobStore.putPlain: one JSON.stringify, no blob rows), which halves the store's share of a
// step; once the run has ended, this encodes them into the Merkle DAG like every other root, so
// their unchanged parts are shared with the other steps again (and packed into segments after).
// Each call is ONE transaction over a few rows: a crash leaves each row plain or encoded, and both
// read alike (a plain root is a valid root). The partial indexes events_plain / checkpoints_plain
// (database.ts) find what is left without scanning the log.
import { isPlainRoot, type BlobStore } from './blobStore.ts';
import type { Db } from './database.ts';

/**
 * At most this many rows, and rows of at most this much JSON (always at least one row), per chunk:
 * a demo step's checkpoint (~2.5 KB) encodes in ~0.1 ms, and a chunk should stay a few ms whatever
 * the size of the states, since a paced run's steps wait behind it.
 */
const ROWS_PER_CHUNK = 64;
const TEXT_PER_CHUNK = 64 * 1024;

const PLAIN_EVENT = `enc = 1 AND substr(data, 1, 1) = ' '`;
const PLAIN_CHECKPOINT = `substr(root, 1, 1) = ' '`;

interface EventRow {
  seq: number;
  type: string;
  ts: number;
  step: number | null;
  enc: number;
  data: string;
}
interface CheckpointRow {
  seq: number;
  step: number;
  root: string;
}

export class PlainEncoder {
  private readonly events;
  private readonly eventRange;
  private readonly deleteEvents;
  private readonly insertEvent;
  private readonly checkpoints;
  private readonly checkpointRange;
  private readonly deleteCheckpoints;
  private readonly insertCheckpoint;
  private readonly finishedRuns;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    finished: string,
  ) {
    this.events = db.prepare<[number, number], { seq: number; data: string }>(
      `SELECT seq, data FROM events INDEXED BY events_plain WHERE run = ? AND ${PLAIN_EVENT} ORDER BY seq LIMIT ?`,
    );
    this.eventRange = db.prepare<[number, number, number], EventRow>(
      'SELECT seq, type, ts, step, enc, data FROM events WHERE run = ? AND seq >= ? AND seq <= ? ORDER BY seq',
    );
    this.deleteEvents = db.prepare('DELETE FROM events WHERE run = ? AND seq >= ? AND seq <= ?');
    this.insertEvent = db.prepare(
      'INSERT INTO events (run, seq, type, ts, step, enc, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.checkpoints = db.prepare<[number, number], { seq: number; root: string }>(
      `SELECT seq, root FROM checkpoints INDEXED BY checkpoints_plain WHERE run = ? AND ${PLAIN_CHECKPOINT} ORDER BY seq LIMIT ?`,
    );
    this.checkpointRange = db.prepare<[number, number, number], CheckpointRow>(
      'SELECT seq, step, root FROM checkpoints WHERE run = ? AND seq >= ? AND seq <= ? ORDER BY seq',
    );
    this.deleteCheckpoints = db.prepare('DELETE FROM checkpoints WHERE run = ? AND seq >= ? AND seq <= ?');
    this.insertCheckpoint = db.prepare('INSERT INTO checkpoints (run, seq, step, root) VALUES (?, ?, ?, ?)');
    this.finishedRuns = db.prepare<[], { run: number }>(
      `SELECT e.run FROM events e INDEXED BY events_plain JOIN runs r ON r.rid = e.run
       WHERE r.status IN ${finished} AND e.enc = 1 AND substr(e.data, 1, 1) = ' '
       UNION SELECT c.run FROM checkpoints c INDEXED BY checkpoints_plain JOIN runs r ON r.rid = c.run
       WHERE r.status IN ${finished} AND substr(c.root, 1, 1) = ' '`,
    );
  }

  /** Finished runs that still hold plain roots (what an earlier process left). */
  runsLeft(): number[] {
    return this.finishedRuns.all().map((r) => r.run);
  }

  /** Encodes the next few plain roots of run `rid`; returns false when it had none left. */
  encodeNext(rid: number): boolean {
    let any = false;
    try {
      // IMMEDIATE: episode children write this file too (see RunStore.atomically).
      this.db
        .transaction(() => {
          const budget = { rows: 0, text: 0 };
          const events = this.take(this.events.all(rid, ROWS_PER_CHUNK), (e) => e.data, budget);
          const cps = this.take(
            budget.rows < ROWS_PER_CHUNK ? this.checkpoints.all(rid, ROWS_PER_CHUNK - budget.rows) : [],
            (c) => c.root,
            budget,
          );
          // The rows of the seq range are written anew, not updated in place: a plain root is many
          // times its encoded root, and rows that shrink in place would leave their pages mostly
          // empty for good (no vacuum reclaims a sparse page). Rewritten, the old pages empty out
          // and are freed, and the new rows are packed densely.
          if (events.length > 0) {
            const lo = events[0]!.seq;
            const hi = events[events.length - 1]!.seq;
            const rows = this.eventRange.all(rid, lo, hi);
            this.deleteEvents.run(rid, lo, hi);
            for (const r of rows)
              this.insertEvent.run(
                rid,
                r.seq,
                r.type,
                r.ts,
                r.step,
                r.enc,
                r.enc === 1 && isPlainRoot(r.data) ? this.encode(r.data) : r.data,
              );
          }
          if (cps.length > 0) {
            const lo = cps[0]!.seq;
            const hi = cps[cps.length - 1]!.seq;
            const rows = this.checkpointRange.all(rid, lo, hi);
            this.deleteCheckpoints.run(rid, lo, hi);
            for (const r of rows)
              this.insertCheckpoint.run(
                rid,
                r.seq,
                r.step,
                isPlainRoot(r.root) ? this.encode(r.root) : r.root,
              );
          }
          any = budget.rows > 0;
        })
        .immediate();
    } catch (err) {
      // The blobs the rolled-back transaction inserted are gone: the store must not remember them.
      this.blobs.resetCaches();
      throw err;
    }
    return any;
  }

  /** The first of `rows` that fit the chunk's budget (always at least one). */
  private take<T>(rows: T[], text: (r: T) => string, budget: { rows: number; text: number }): T[] {
    const out: T[] = [];
    for (const r of rows) {
      if (budget.rows > 0 && (budget.rows >= ROWS_PER_CHUNK || budget.text >= TEXT_PER_CHUNK)) break;
      out.push(r);
      budget.rows++;
      budget.text += text(r).length;
    }
    return out;
  }

  private encode(root: string): string {
    if (!isPlainRoot(root)) throw new Error('not a plain root');
    return this.blobs.put(JSON.parse(root));
  }
}
