// Compaction of finished runs, in the background: the plain roots a run driven flat out wrote are
// encoded into blobs (plainEncoding.ts), a run's per-step event pages are re-packed into
// pages of many steps (pageRepacking.ts), the blob rows written so far are packed into compressed
// segments (blobPacking.ts), and the pages this frees are given back to the file (incremental
// vacuum, on databases created with auto_vacuum; database.ts). Every read returns the same
// events, checkpoints and states before, during and after it.
//
// Work is done in chunks — one transaction each (a packed page, a segment, a vacuum slice) — with
// the event loop free between two, so a live run's steps and the socket traffic interleave with it
// (each chunk is a few milliseconds). It is idle-time work: while a run is driven flat out
// (step_delay_ms 0) or requests are being answered (see `yieldWhile`) it waits, since each chunk
// would take a turn from that run's loop and its stream (a run started right after another ran
// ~15 % slower while the first was packed) or delay a restore or a timeline read; a paced run
// leaves the loop idle between steps, and chunks fit there. A crash between chunks loses nothing: the next start finds
// the finished runs that still have unpacked pages and the blob rows not yet in a segment.
import { BlobPacker } from './blobPacking.ts';
import { BlobStore } from './blobStore.ts';
import { PlainEncoder } from './plainEncoding.ts';
import { PageRepacker } from './pageRepacking.ts';
import type { Db } from './database.ts';

const FINISHED = `('done', 'error', 'stopped', 'interrupted')`;
/** How often a compaction that yields to a flat-out run looks again whether that run is over. */
const YIELD_RECHECK_MS = 100;
/** Pages freed per vacuum chunk (4 KB each). */
const VACUUM_PAGES = 64;

/** Chunk sizes (tests make them small, so that a few steps already span many segments and pages). */
export interface CompactionSizes {
  /** Uncompressed bytes per blob segment (blobPacking.ts). */
  segmentBytes?: number;
  /** Stored bytes of per-step pages packed into one (pageRepacking.ts). */
  pageInputBytes?: number;
}

export class Compactor {
  private readonly pages: PageRepacker;
  private readonly blobs: BlobPacker;
  private readonly plain: PlainEncoder;
  /** Runs (rid) whose plain roots still need encoding (before their pages and blobs are packed). */
  private readonly plainRuns = new Set<number>();
  /** Runs (rid) whose pages still need packing, with the seq to continue after. */
  private readonly runs = new Map<number, number>();
  /** Blob rows up to this id are to be packed. */
  private blobsUpTo = 0;
  private vacuum = false;
  private swept = false;
  private timer: NodeJS.Immediate | undefined;
  private waiting: NodeJS.Timeout | undefined;
  /** While one of these says true, no background chunk runs (a run driven flat out, a request). */
  private readonly yields: Array<() => boolean> = [];
  private readonly rid;
  private readonly unpackedRuns;
  private readonly freePages;

  constructor(
    private readonly db: Db,
    sizes: CompactionSizes = {},
    /** The store's blob store (its dedup memo then spans live writes and compaction). */
    blobStore: BlobStore = new BlobStore(db),
  ) {
    this.pages = new PageRepacker(db, sizes.pageInputBytes);
    this.blobs = new BlobPacker(db, sizes.segmentBytes);
    this.plain = new PlainEncoder(db, blobStore, FINISHED);
    this.rid = db.prepare<[string], { rid: number }>('SELECT rid FROM runs WHERE id = ?');
    this.unpackedRuns = db.prepare<[], { run: number }>(
      `SELECT DISTINCT p.run FROM event_pages p JOIN runs r ON r.rid = p.run
       WHERE r.status IN ${FINISHED} AND substr(p.data, 1, 1) != x'ff'`,
    );
    this.freePages = db.prepare<[], { freelist_count: number }>('PRAGMA freelist_count');
  }

  /** Background chunks also wait while `busy()` holds (drain and step do not). */
  yieldWhile(busy: () => boolean): void {
    this.yields.push(busy);
  }

  private busy(): boolean {
    return this.yields.some((f) => f());
  }

  /** A run has ended: pack its pages and every blob written so far, then free the pages. */
  runEnded(runId: string): void {
    const rid = this.rid.get(runId)?.rid;
    if (rid !== undefined) this.plainRuns.add(rid);
    if (rid !== undefined && !this.runs.has(rid)) this.runs.set(rid, 0);
    this.blobsUpTo = Math.max(this.blobsUpTo, this.blobs.highestId());
    this.schedule();
  }

  /** On start: finish what an earlier process left (finished runs with unpacked pages, loose blobs). */
  resume(): void {
    this.swept = false;
    this.schedule();
  }

  /** Whether any work is known to be left. */
  get pending(): boolean {
    return !this.swept || this.plainRuns.size > 0 || this.runs.size > 0 || this.blobsUpTo > 0 || this.vacuum;
  }

  /**
   * Works synchronously until done or `budgetMs` passed (graceful shutdown: the file is left
   * compact). Returns whether everything is done.
   */
  drain(budgetMs: number): boolean {
    this.cancel();
    if (this.db.inTransaction || !this.db.open) return false;
    const end = performance.now() + budgetMs;
    try {
      while (this.pending) {
        if (performance.now() > end) return false;
        this.step();
      }
    } catch (err) {
      this.failed(err);
      return false;
    }
    return true;
  }

  /** Does one unit of work now (one transaction); returns whether work is left. Throws what it hit. */
  step(): boolean {
    if (this.pending && !this.db.inTransaction) this.chunk();
    return this.pending;
  }

  /** Stops the background work (what is left is found again by `resume`). */
  cancel(): void {
    if (this.timer) clearImmediate(this.timer);
    if (this.waiting) clearTimeout(this.waiting);
    this.timer = undefined;
    this.waiting = undefined;
  }

  private schedule(): void {
    if (this.timer || this.waiting || !this.pending) return;
    if (this.busy()) {
      this.waiting = setTimeout(() => {
        this.waiting = undefined;
        this.schedule();
      }, YIELD_RECHECK_MS);
      this.waiting.unref();
      return;
    }
    this.timer = setImmediate(() => {
      this.timer = undefined;
      if (!this.db.open) return;
      try {
        this.chunk();
      } catch (err) {
        this.failed(err);
        return;
      }
      this.schedule();
    });
    // Not unref'd: with only unref'd immediates pending, Node lets the loop block in its poll for
    // I/O, so on an idle server the next chunk waited for the next request (a finished run stayed
    // half-compacted until someone asked for something). The chain ends when the work does.
  }

  /**
   * One unit of work (one transaction), the first of: sweep, a run's plain roots, a run's pages,
   * blobs, vacuum. Plain roots come first: encoding them adds the blob rows that packing then takes.
   */
  private chunk(): void {
    // Inside a caller's transaction a chunk would join it (and its rollback): wait for the next turn.
    if (this.db.inTransaction) return;
    if (!this.swept) {
      for (const { run } of this.unpackedRuns.all()) if (!this.runs.has(run)) this.runs.set(run, 0);
      for (const run of this.plain.runsLeft()) this.plainRuns.add(run);
      this.blobsUpTo = Math.max(this.blobsUpTo, this.blobs.highestId());
      this.swept = true;
      return;
    }
    const plainRun = this.plainRuns.values().next();
    if (!plainRun.done) {
      if (!this.plain.encodeNext(plainRun.value)) this.plainRuns.delete(plainRun.value);
      this.blobsUpTo = Math.max(this.blobsUpTo, this.blobs.highestId());
      return;
    }
    const head = this.runs.entries().next();
    if (!head.done) {
      const [rid, after] = head.value;
      const next = this.pages.packNext(rid, after);
      if (next === undefined) this.runs.delete(rid);
      else this.runs.set(rid, next);
      this.vacuum = true;
      return;
    }
    if (this.blobsUpTo > 0) {
      if (!this.blobs.packNext(this.blobsUpTo)) this.blobsUpTo = 0;
      this.vacuum = true;
      return;
    }
    if (this.vacuum) {
      this.db.prepare(`PRAGMA incremental_vacuum(${VACUUM_PAGES})`).run();
      this.vacuum = this.freePages.get()!.freelist_count > 0 && this.autoVacuum();
    }
  }

  /** Compaction is an optimisation: a failure (disk full…) leaves the old rows, still readable. */
  private failed(err: unknown): void {
    console.error(`statewire: compaction stopped: ${(err as Error).message}`);
    this.plainRuns.clear();
    this.runs.clear();
    this.blobsUpTo = 0;
    this.vacuum = false;
    this.swept = true;
  }

  private autoVacuum(): boolean {
    return this.db.pragma('auto_vacuum', { simple: true }) === 2;
  }
}
