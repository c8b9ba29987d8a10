// The asynchronous store ports shared by the embedded SQLite store and PostgreSQL (distributed
// mode). Two of them, by who needs what:
// - `EpisodeLog`, the narrow port one episode writes and resumes its run through (runEpisode): what
//   an episode child may ask its parent over IPC (batch/ipcRunLog.ts implements just this);
// - `RunLog`, the archive and batch port of the server, the batch manager and the CLI: runs, the
//   append-only event log, checkpoints, projections and batch results (SQLite and PostgreSQL).
// The interactive run manager keeps using the synchronous `RunStore` directly (its step loop is
// built on SQLite's synchronous transactions). Both RunLogs pass the same suite (runLog.suite.ts).
import type { Checkpoint } from '../../engine/run.api.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { CommitBatch, NewRun, StoredRun } from './runStore.ts';
import type { BatchRecord, EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { DataPath, ProjectedEvent } from '../../domain/batch/query.ts';

export type { CommitBatch, DataPath, NewRun, ProjectedEvent, StoredRun };

/** What one episode needs: create its run, commit its steps, and find where to resume. */
export interface EpisodeLog {
  createRun(r: NewRun): Promise<void>;
  /**
   * Appends a batch atomically: staged steps (`earlier`, group commit) then `events`, each part
   * with consecutive seqs and its optional checkpoint, and the run row's counters.
   */
  commit(runId: string, batch: CommitBatch): Promise<void>;
  getRun(id: string): Promise<StoredRun | undefined>;
  events(runId: string, after: number, limit: number, type?: string): Promise<EventEnvelope[]>;
  /** The newest committed checkpoint of a run (where a restarted episode resumes). */
  lastCheckpoint(runId: string): Promise<(Checkpoint & { seq: number }) | undefined>;
}

/** The archive and batch port: everything an episode writes, and what the server reads and keeps. */
export interface RunLog extends EpisodeLog {
  readonly kind: 'sqlite' | 'postgres';
  listRuns(limit?: number): Promise<StoredRun[]>;
  graphOf(id: string): Promise<unknown>;
  checkpointSteps(runId: string): Promise<number[]>;
  checkpoint(runId: string, step: number): Promise<(Checkpoint & { seq: number }) | undefined>;
  deleteRun(runId: string): Promise<void>;
  /**
   * Every event of `type` of each run, in seq order, reduced to the values at `paths` inside its
   * data (undefined where absent). Only what the paths reach is read: a batch query over thousands
   * of episodes reads one slot of each snapshot, not the snapshots. Unknown runs map to [].
   */
  projectEvents(
    runIds: readonly string[],
    type: string,
    paths: readonly DataPath[],
  ): Promise<Map<string, ProjectedEvent[]>>;

  // ---- batches ----
  createBatch(b: BatchRecord): Promise<void>;
  getBatch(id: string): Promise<BatchRecord | undefined>;
  listBatches(limit?: number): Promise<BatchRecord[]>;
  updateBatch(id: string, patch: Partial<Pick<BatchRecord, 'status' | 'ended_at' | 'error'>>): Promise<void>;
  /**
   * Records an episode's result exactly once: a second record of the same (batch, episode) — a
   * retried or recovered job — replaces the first, never adds a row. Returns the episodes recorded.
   */
  recordEpisode(batchId: string, row: EpisodeRow): Promise<number>;
  episodes(batchId: string): Promise<EpisodeRow[]>;

  close(): Promise<void>;
}
