// What the live hub knows about one run's log: its head (the last published seq), the newest events
// in memory (so a client near the head is served without touching SQLite) and a small cache of older
// log pages. Many viewers replaying the same history (200 subscribes from seq 0) share one SQLite read
// and one decode per page instead of one each; the pages are read by the hub's pacer, in bounded
// slices, never in the step loop.
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { RunStore } from '../db/runStore.ts';

export interface FeedOptions {
  /** Events per log page (also the most a client is sent at once). */
  page: number;
  /** Newest events kept in memory. */
  recent: number;
  /** Pages of older history kept decoded (least recently used dropped first). */
  cachedPages: number;
}

/** Index of the first event with seq > `after` in a seq-ordered list. */
function firstAfter(events: readonly EventEnvelope[], after: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((events[mid]?.seq ?? 0) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class RunFeed {
  /** Last published seq (= the log's last seq: publish follows commit in the same tick). */
  head: number;
  /** Seq of the newest nav_step published (the backpressure rule keeps that one). */
  lastNavSeq = 0;
  /** When the run last published (ms, monotonic clock). */
  lastPublishAt = 0;
  private recent: EventEnvelope[] = [];
  private readonly pages = new Map<number, EventEnvelope[]>();

  constructor(
    readonly runId: string,
    private readonly store: RunStore,
    head: number,
    private readonly opts: FeedOptions,
  ) {
    this.head = head;
  }

  append(events: readonly EventEnvelope[], now: number): void {
    for (const e of events) {
      if (e.seq <= this.head) continue; // never twice (a publish repeated by a caller)
      this.recent.push(e);
      this.head = e.seq;
      if (e.type === 'nav_step') this.lastNavSeq = e.seq;
    }
    this.lastPublishAt = now;
    // Trim in chunks, not per event (shift() on a long array is O(n)).
    if (this.recent.length > this.opts.recent * 1.5) this.recent = this.recent.slice(-this.opts.recent);
  }

  /** How many events `read(cursor, max)` returns once the log has them (slices end at page boundaries). */
  sliceLength(cursor: number, max: number): number {
    const boundary = (Math.floor(cursor / this.opts.page) + 1) * this.opts.page;
    return Math.min(max, boundary - cursor);
  }

  /**
   * Up to `max` (≤ page) events after `cursor`, in seq order, never past the end of the cursor's page
   * (so clients catching up sit on page boundaries and share pages): from memory when the cursor is
   * inside the recent window, else from a cached (or freshly read) log page. Empty when `cursor ≥ head`.
   */
  read(cursor: number, wanted: number): EventEnvelope[] {
    if (cursor >= this.head) return [];
    const max = this.sliceLength(cursor, wanted);
    const first = this.recent[0];
    if (first && cursor >= first.seq - 1) {
      const i = firstAfter(this.recent, cursor);
      return this.recent.slice(i, i + max);
    }
    const size = this.opts.page;
    const key = Math.floor(cursor / size) * size;
    let page = this.pages.get(key);
    if (page) {
      this.pages.delete(key); // re-insert: Map order is the LRU order
      this.pages.set(key, page);
    }
    if (!page || (page[page.length - 1]?.seq ?? 0) <= cursor) {
      // Bounded by the value limit: a page of big values ends early (and is not cached as final).
      page = this.store.events(this.runId, key, size, undefined, this.store.blobs.maxValueBytes);
      // Only a full page is final; the log's tail is still growing (and is in `recent` anyway).
      if (page.length === size) {
        this.pages.set(key, page);
        if (this.pages.size > this.opts.cachedPages)
          this.pages.delete(this.pages.keys().next().value as number);
      }
    }
    const i = firstAfter(page, cursor);
    if (i < page.length) return page.slice(i, i + max);
    // Seqs are contiguous in practice; if not, read straight from the cursor.
    return this.store.events(this.runId, cursor, max, undefined, this.store.blobs.maxValueBytes);
  }
}
