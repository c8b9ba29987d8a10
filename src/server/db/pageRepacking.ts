// One step of event-page compaction: consecutive per-step pages of a finished run (eventPages.ts)
// become one packed page of many steps, in ONE transaction with the deletion of the pages it
// replaces (a crash leaves the old pages or the new one; both read alike). The packed page is keyed
// by the last seq of its events like every page, so "events after seq N" still finds it first.
import { decodePage, encodePackedPage, isPackedPage, type PagedEvent } from './eventPages.ts';
import type { Db } from './database.ts';

/**
 * Stored (deflated, level 1) bytes of per-step pages per packed page: ~35 demo steps, ~4.5 KB
 * packed. A packed page is too big for its b-tree cell (event_pages is WITHOUT ROWID: ~1 KB in the
 * cell) and spills into a 4 KB overflow page, mostly empty when the page is small: a ~2 KB packed
 * page (8 KB here) wastes ~2.5 KB per ~12 steps, where 28 KB (24 KB while pages were deflated at
 * level 6) wastes at most one page per ~35 steps; the price is a read of 500 events after a seq
 * that parses ~3x more events.
 */
export const PACKED_PAGE_INPUT_BYTES = 28 * 1024;

interface PageRow {
  seq: number;
  data: Buffer;
}

export class PageRepacker {
  private readonly pagesAfter;
  private readonly lastPacked;
  private readonly deletePage;
  private readonly insertPage;

  constructor(
    private readonly db: Db,
    private readonly inputBytes = PACKED_PAGE_INPUT_BYTES,
  ) {
    this.pagesAfter = db.prepare<[number, number], PageRow>(
      'SELECT seq, data FROM event_pages WHERE run = ? AND seq > ? ORDER BY seq',
    );
    // Newest first: after a restore continued a packed run, its few new pages come before a packed one.
    this.lastPacked = db.prepare<[number], { seq: number }>(
      "SELECT seq FROM event_pages WHERE run = ? AND substr(data, 1, 1) = x'ff' ORDER BY seq DESC LIMIT 1",
    );
    this.deletePage = db.prepare('DELETE FROM event_pages WHERE run = ? AND seq = ?');
    this.insertPage = db.prepare('INSERT INTO event_pages (run, seq, first, n, data) VALUES (?, ?, ?, ?, ?)');
  }

  /**
   * Packs the next group of unpacked pages of run `rid` after seq `after`. Returns the seq to
   * continue after, or undefined when the run has no unpacked page left. Packing goes in seq order
   * and a run only grows at its end, so the packed pages are a prefix: `after` = 0 starts past it.
   */
  packNext(rid: number, after: number): number | undefined {
    let next: number | undefined;
    // IMMEDIATE: episode children write this file too (see RunStore.atomically).
    this.db
      .transaction(() => {
        if (after === 0) after = this.lastPacked.get(rid)?.seq ?? 0;
        const group: PageRow[] = [];
        let bytes = 0;
        for (const page of this.pagesAfter.iterate(rid, after) as IterableIterator<PageRow>) {
          // A packed page ends the group: pages are packed in seq order, never across one.
          if (isPackedPage(page.data)) {
            if (group.length > 0) break;
            after = page.seq;
            continue;
          }
          group.push(page);
          bytes += page.data.length;
          if (bytes >= this.inputBytes) break;
        }
        const last = group[group.length - 1];
        if (!last) return;
        const events: PagedEvent[] = group.flatMap((p) => decodePage(p.data));
        for (const p of group) this.deletePage.run(rid, p.seq);
        this.insertPage.run(rid, last.seq, events[0]!.seq, events.length, encodePackedPage(events));
        next = last.seq;
      })
      .immediate();
    return next;
  }
}
