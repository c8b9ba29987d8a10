// One step of blob compaction: the next run of unpacked blob rows (ascending id) becomes one
// segment row (blobSegment.ts), in ONE transaction with the deletion of those rows — a crash or a
// throw half-way leaves either the rows or the segment, and a read finds a blob in either.
//
// The row with the highest id is never packed: a rowid table gives a new row max(id) + 1, so
// deleting the top rows would hand their ids out again, and a packed blob's id would then name
// a new row's value (reads try rows before segments).
import { encodeSegment, type SegmentBlob } from './blobSegment.ts';
import type { Db } from './database.ts';

/** Uncompressed bytes per segment: one spans tens of demo steps (brotli finds their repetition). */
export const SEGMENT_BYTES = 192 * 1024;
/** Bigger rows (an image array) stay rows: reading a neighbour must not inflate them. */
const MAX_PACKED_BLOB = 64 * 1024;

interface BlobRow {
  id: number;
  json: string | Buffer;
}

export class BlobPacker {
  private readonly maxPacked;
  private readonly maxId;
  private readonly rowsAfter;
  private readonly insertSegment;
  private readonly deleteRow;

  constructor(
    private readonly db: Db,
    private readonly segmentBytes = SEGMENT_BYTES,
  ) {
    this.maxPacked = db.prepare<[], { m: number | null }>('SELECT MAX(last) AS m FROM blob_segments');
    this.maxId = db.prepare<[], { m: number | null }>('SELECT MAX(id) AS m FROM blobs');
    this.rowsAfter = db.prepare<[number, number], BlobRow>(
      'SELECT id, json FROM blobs WHERE id > ? AND id <= ? ORDER BY id',
    );
    this.insertSegment = db.prepare('INSERT INTO blob_segments (last, first, data) VALUES (?, ?, ?)');
    this.deleteRow = db.prepare('DELETE FROM blobs WHERE id = ?');
  }

  /** The highest blob id now (what a caller may ask to pack up to). */
  highestId(): number {
    return this.maxId.get()?.m ?? 0;
  }

  /**
   * Packs the next segment of rows with ids up to `upTo` (never the highest row). Returns false when
   * there was nothing left to pack.
   */
  packNext(upTo: number): boolean {
    let packed = false;
    // IMMEDIATE: episode children write this file too (see RunStore.atomically).
    this.db
      .transaction(() => {
        const after = this.maxPacked.get()?.m ?? 0;
        const limit = Math.min(upTo, this.highestId() - 1);
        if (limit <= after) return;
        const blobs: SegmentBlob[] = [];
        let bytes = 0;
        let last = after;
        for (const row of this.rowsAfter.iterate(after, limit) as IterableIterator<BlobRow>) {
          last = row.id;
          if (row.json.length > MAX_PACKED_BLOB) continue;
          blobs.push({ id: row.id, value: row.json });
          bytes += row.json.length;
          if (bytes >= this.segmentBytes) break;
        }
        if (last === after) return;
        const first = blobs[0]?.id ?? last;
        this.insertSegment.run(last, first, encodeSegment(first, blobs));
        // Exactly the rows now in the segment (the big ones it skipped stay).
        for (const b of blobs) this.deleteRow.run(b.id);
        packed = true;
      })
      .immediate();
    return packed;
  }
}
