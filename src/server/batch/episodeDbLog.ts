// The EpisodeLog of an episode child that writes the run database itself: its own connection to the
// parent's SQLite file (WAL mode takes writers from several processes, one transaction at a time;
// busy_timeout makes one wait for another). Each commit is one transaction, as in the parent, so a
// killed child leaves a log that ends at its last committed step's checkpoint. After each commit the
// pool is told what is now in the log (`Committed`); the parent reads those events back for its live
// viewers and schedules compaction, which stays with the parent: this connection never compacts.
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { Checkpoint } from '../../engine/run.api.ts';
import { openDatabase } from '../db/database.ts';
import type { CommitBatch, EpisodeLog, NewRun, StoredRun } from '../db/runLog.ts';
import { RunStore } from '../db/runStore.ts';

/** What one commit put in the log: seqs `from`..`to` of `runId` (0..0: none), published by the parent. */
export interface Committed {
  runId: string;
  from: number;
  to: number;
  /** Plain roots (an episode driven flat out: the parent holds compaction back meanwhile). */
  plain: boolean;
  /** The run row got its end (the parent packs the run). */
  ended: boolean;
}

export class EpisodeDbLog implements EpisodeLog {
  private readonly store: RunStore;

  constructor(
    file: string,
    private readonly onCommitted: (c: Committed) => void,
  ) {
    const db = openDatabase(file);
    // The parent's writes (compaction chunks, a run deleted) may hold the file a while: a commit
    // that waits is better than an attempt lost (after this long it fails, and the episode resumes).
    db.pragma('busy_timeout = 10000');
    this.store = new RunStore(db);
  }

  async createRun(r: NewRun): Promise<void> {
    this.store.createRun(r);
  }

  async commit(runId: string, batch: CommitBatch): Promise<void> {
    this.store.commit(runId, batch);
    // Its seqs: rows, the pre-encoded page's (eventPages.pageOut) and each step's last.
    let from = batch.page?.first ?? Infinity;
    let to = batch.page?.last ?? 0;
    for (const p of [...(batch.earlier ?? []), batch]) {
      from = Math.min(from, p.events[0]?.seq ?? Infinity);
      to = Math.max(to, p.events[p.events.length - 1]?.seq ?? 0, p.through ?? 0);
    }
    this.onCommitted({
      runId,
      from: to > 0 ? from : 0,
      to,
      plain: batch.plain === true,
      ended: Boolean(batch.endedAt),
    });
  }

  async getRun(id: string): Promise<StoredRun | undefined> {
    return this.store.getRun(id);
  }

  async events(runId: string, after: number, limit: number, type?: string): Promise<EventEnvelope[]> {
    return this.store.events(runId, after, limit, type);
  }

  async lastCheckpoint(runId: string): Promise<(Checkpoint & { seq: number }) | undefined> {
    const steps = this.store.checkpointSteps(runId);
    const last = steps[steps.length - 1];
    return last === undefined ? undefined : this.store.checkpoint(runId, last);
  }

  /** The parent keeps the file open: it folds the WAL back when it closes (closeDatabase). */
  close(): void {
    this.store.db.close();
  }
}
