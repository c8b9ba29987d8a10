// Reads blobs that compaction packed into segments (blobSegment.ts), through an LRU of inflated
// segments: neighbouring blobs (one step's records, a checkpoint's unchanged records) are read
// together, so one inflate usually serves many reads. Segments are found by the last id they cover
// (their key), so no per-blob row outlives packing.
import { InflatedSegment } from './blobSegment.ts';
import type { Db } from './database.ts';

/** Inflated bytes kept (about 100 segments of the default size). */
const CACHE_BYTES = 24 * 1024 * 1024;

export class SegmentCache {
  private readonly covering;
  private readonly lru = new Map<number, InflatedSegment>();
  private cached = 0;

  constructor(db: Db) {
    this.covering = db.prepare<[number], { last: number; first: number; data: Buffer }>(
      'SELECT last, first, data FROM blob_segments WHERE last >= ? ORDER BY last LIMIT 1',
    );
  }

  /** The value packed for blob `id`, or undefined when no segment holds it. */
  get(id: number): string | Buffer | undefined {
    for (const [last, seg] of this.lru)
      if (id <= last && id >= seg.first) {
        // Re-insert: Map order is the recency order.
        this.lru.delete(last);
        this.lru.set(last, seg);
        return seg.get(id);
      }
    const row = this.covering.get(id);
    if (!row || row.first > id) return undefined;
    const seg = new InflatedSegment(row.first, row.data);
    this.lru.set(row.last, seg);
    this.cached += seg.size;
    for (const [last, old] of this.lru) {
      if (this.cached <= CACHE_BYTES || this.lru.size <= 1) break;
      this.lru.delete(last);
      this.cached -= old.size;
    }
    return seg.get(id);
  }

  /** Forget every inflated segment (a rolled-back compaction may have cached one it never stored). */
  clear(): void {
    this.lru.clear();
    this.cached = 0;
  }
}
