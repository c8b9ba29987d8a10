// A batch's progress and the shapes the REST API and the `batch_progress` notice carry (the server
// builds them, the editor's Batches view reads them).
import type { BatchAggregate, BatchRecord, BatchStatus, EpisodeRow } from './batch.types.ts';

export interface BatchProgress {
  status: BatchStatus;
  /** Episodes that ended `done`. */
  completed: number;
  /** Episodes that ended otherwise (error, stopped, interrupted). */
  failed: number;
  /** Episodes handed to a worker and not finished yet. */
  running: number;
  total: number;
  /** Finished episodes per second since the batch started (until it ended). */
  episodes_per_s: number;
}

/** `GET /api/batches` items. */
export interface BatchListItem {
  batch: Omit<BatchRecord, 'graph'>;
  progress: BatchProgress;
}

/** `GET /api/batches/{id}`. */
export interface BatchDetail extends BatchListItem {
  episodes: EpisodeRow[];
  aggregate: BatchAggregate;
}

/** The socket.io notice `batch_progress`. */
export type BatchProgressNotice = BatchProgress & { batch_id: string };

export function progressOf(
  status: BatchStatus,
  rows: Iterable<EpisodeRow>,
  total: number,
  running: number,
  elapsedMs: number,
): BatchProgress {
  let completed = 0;
  let failed = 0;
  for (const r of rows) {
    if (r.status === 'done') completed += 1;
    else failed += 1;
  }
  const perS = elapsedMs > 0 ? (completed + failed) / (elapsedMs / 1000) : 0;
  return { status, completed, failed, running, total, episodes_per_s: Math.round(perS * 100) / 100 };
}
