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
const TEXT_PER_CHUNK = 128 * 1024;

const PLAIN_EVENT = `enc = 1 AND substr(data, 1, 1) = ' '`;
const PLAIN_CHECKPOINT = `substr(root, 1, 1) = ' '`;

export class PlainEncoder {
  private readonly events;
  private readonly setEvent;
  private readonly checkpoints;
  private readonly setCheckpoint;
  private readonly finishedRuns;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    finished: string,
  ) {
    this.events = db.prepare<[number, number], { seq: number; data: string }>(
      `SELECT seq, data FROM events INDEXED BY events_plain WHERE run = ? AND ${PLAIN_EVENT} ORDER BY seq LIMIT ?`,
    );
    this.setEvent = db.prepare('UPDATE events SET data = ? WHERE run = ? AND seq = ?');
    this.checkpoints = db.prepare<[number, number], { seq: number; root: string }>(
      `SELECT seq, root FROM checkpoints INDEXED BY checkpoints_plain WHERE run = ? AND ${PLAIN_CHECKPOINT} ORDER BY seq LIMIT ?`,
    );
    this.setCheckpoint = db.prepare('UPDATE checkpoints SET root = ? WHERE run = ? AND seq = ?');
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
      this.db.transaction(() => {
        let rows = 0;
        let text = 0;
        const full = () => rows >= ROWS_PER_CHUNK || text >= TEXT_PER_CHUNK;
        for (const e of this.events.all(rid, ROWS_PER_CHUNK)) {
          this.setEvent.run(this.encode(e.data), rid, e.seq);
          rows++;
          text += e.data.length;
          if (full()) break;
        }
        if (!full())
          for (const c of this.checkpoints.all(rid, ROWS_PER_CHUNK - rows)) {
            this.setCheckpoint.run(this.encode(c.root), rid, c.seq);
            rows++;
            text += c.root.length;
            if (full()) break;
          }
        any = rows > 0;
      })();
    } catch (err) {
      // The blobs the rolled-back transaction inserted are gone: the store must not remember them.
      this.blobs.resetCaches();
      throw err;
    }
    return any;
  }

  private encode(root: string): string {
    if (!isPlainRoot(root)) throw new Error('not a plain root');
    return this.blobs.put(JSON.parse(root));
  }
}
