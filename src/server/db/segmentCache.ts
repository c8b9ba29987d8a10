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
  private readonly maxLast;
  private readonly lru = new Map<number, InflatedSegment>();
  /** The cached segments' keys (their last ids), ascending: found by binary search, not a scan. */
  private readonly lasts: number[] = [];
  /** The segment used last (consecutive reads mostly stay in one segment). */
  private recent: { first: number; last: number; seg: InflatedSegment } | undefined;
  private cached = 0;
  /** The highest id packed so far, as last seen (it only grows; undefined until first asked). */
  private packedUpTo: number | undefined;

  constructor(db: Db) {
    this.covering = db.prepare<[number], { last: number; first: number; data: Buffer }>(
      'SELECT last, first, data FROM blob_segments WHERE last >= ? ORDER BY last LIMIT 1',
    );
    this.maxLast = db.prepare<[], { m: number | null }>('SELECT MAX(last) AS m FROM blob_segments');
  }

  /**
   * Whether blob `id` is at or below the last id packed into a segment as this cache last saw it:
   * then it is most likely in a segment (its row is gone), and a reader asks here before the rows.
   * A stale answer only costs a lookup: packing never moves a blob back into a row.
   */
  packed(id: number): boolean {
    this.packedUpTo ??= this.maxLast.get()?.m ?? 0;
    return id <= this.packedUpTo;
  }

  /** The inflated segment covering `id`, if one is cached: the last one used, else a binary search. */
  private cachedFor(id: number): InflatedSegment | undefined {
    const recent = this.recent;
    if (recent && id >= recent.first && id <= recent.last) return recent.seg;
    const lasts = this.lasts;
    let lo = 0;
    let hi = lasts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lasts[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    const last = lasts[lo];
    if (last === undefined || last < id) return undefined;
    const seg = this.lru.get(last)!;
    if (seg.first > id) return undefined;
    this.recent = { first: seg.first, last, seg };
    // Re-insert: Map order is the recency order.
    this.lru.delete(last);
    this.lru.set(last, seg);
    return seg;
  }

  /** The value packed for blob `id`, or undefined when no segment holds it. */
  get(id: number): string | Buffer | undefined {
    const hit = this.cachedFor(id);
    if (hit) return hit.get(id);
    const row = this.covering.get(id);
    if (!row || row.first > id) return undefined;
    this.packedUpTo = Math.max(this.packedUpTo ?? 0, row.last);
    const seg = new InflatedSegment(row.first, row.data);
    this.lru.set(row.last, seg);
    this.lasts.splice(this.insertionPoint(row.last), 0, row.last);
    this.cached += seg.size;
    for (const [last, old] of this.lru) {
      if (this.cached <= CACHE_BYTES || this.lru.size <= 1) break;
      this.lru.delete(last);
      this.lasts.splice(this.insertionPoint(last), 1);
      this.cached -= old.size;
    }
    this.recent = { first: seg.first, last: row.last, seg };
    return seg.get(id);
  }

  /** Where `last` is (or would go) in the sorted `lasts`. */
  private insertionPoint(last: number): number {
    let lo = 0;
    let hi = this.lasts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.lasts[mid]! < last) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Forget every inflated segment (a rolled-back compaction may have cached one it never stored). */
  clear(): void {
    this.lru.clear();
    this.lasts.length = 0;
    this.recent = undefined;
    this.cached = 0;
    this.packedUpTo = undefined;
  }
}
