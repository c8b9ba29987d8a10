// One step of event-page compaction: consecutive per-step pages of a finished run (eventPages.ts)
// become one packed page of many steps, in ONE transaction with the deletion of the pages it
// replaces (a crash leaves the old pages or the new one; both read alike). The packed page is keyed
// by the last seq of its events like every page, so "events after seq N" still finds it first.
import { decodePage, encodePackedPage, isPackedPage, type PagedEvent } from './eventPages.ts';
import type { Db } from './database.ts';

/** Stored (deflated) bytes of per-step pages per packed page: ~25–40 demo steps. */
export const PACKED_PAGE_INPUT_BYTES = 24 * 1024;

interface PageRow {
  seq: number;
  data: Buffer;
}

export class PageRepacker {
  private readonly pagesAfter;
  private readonly deletePage;
  private readonly insertPage;

  constructor(
    private readonly db: Db,
    private readonly inputBytes = PACKED_PAGE_INPUT_BYTES,
  ) {
    this.pagesAfter = db.prepare<[number, number], PageRow>(
      'SELECT seq, data FROM event_pages WHERE run = ? AND seq > ? ORDER BY seq',
    );
    this.deletePage = db.prepare('DELETE FROM event_pages WHERE run = ? AND seq = ?');
    this.insertPage = db.prepare('INSERT INTO event_pages (run, seq, first, n, data) VALUES (?, ?, ?, ?, ?)');
  }

  /**
   * Packs the next group of unpacked pages of run `rid` after seq `after`. Returns the seq to
   * continue after, or undefined when the run has no unpacked page left.
   */
  packNext(rid: number, after: number): number | undefined {
    let next: number | undefined;
    this.db.transaction(() => {
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
    })();
    return next;
  }
}
