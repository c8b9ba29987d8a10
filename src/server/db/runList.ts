// One page of the run list (`GET /api/runs`), answered the same way by the embedded SQLite store
// (RunStore.listPage) and by PostgreSQL (PgRunLog.listPage): newest first by (started_at, id), a
// keyset page — `before` is the (started_at, id) of the last row of the previous page, never an
// OFFSET, so the 1000th page costs what the first does — with optional exact filters, each backed
// by an index of its own in both schemas ((filter column, started_at, id)).
import { batchOfEpisodeRun, episodeOfRunId } from '../../domain/batch/episodeIds.ts';
import { encodeRunCursor, type RunKind } from '../../domain/protocol/protocol.rest.ts';
import type { StoredRun } from './runStore.ts';

export type { RunKind };

export interface RunListQuery {
  limit: number;
  /** The (started_at, id) of the last row already shown: the page starts after it. */
  before?: { startedAt: string; id: string };
  graph?: string;
  status?: string;
  kind?: RunKind;
  /** A batch id: its episode runs only. */
  batch?: string;
}

/** A run as the list shows it: the row, what kind of run it is, and its batch (episodes). */
export type RunListRow = StoredRun & {
  kind: RunKind;
  batch: { id: string; episode: number; episodes: number; status: string } | null;
};

/** The kind a new run row gets when its writer says none: a fork by its parent, an episode by its id. */
export function kindOfNewRun(id: string, parentRunId: string | null, kind?: RunKind): RunKind {
  if (kind) return kind;
  if (batchOfEpisodeRun(id) !== undefined) return 'episode';
  return parentRunId ? 'fork' : 'run';
}

/** The batch column of a new run row: the batch of an episode's id, else null. */
export const batchIdOf = (id: string): string | null => batchOfEpisodeRun(id) ?? null;

/** The `batch` field of a listed row from its batch's status and size (null: no batch, or unknown). */
export function batchField(
  id: string,
  batch: { status: string; episodes: number } | undefined,
): RunListRow['batch'] {
  const ep = episodeOfRunId(id);
  return ep && batch
    ? { id: ep.batchId, episode: ep.episode, episodes: batch.episodes, status: batch.status }
    : null;
}

/** The answer of `GET /api/runs`: the rows, each with its `cursor` (pass it as `before` for the next page). */
export function listedRuns(rows: RunListRow[]): (RunListRow & { cursor: string })[] {
  return rows.map((r) => ({ ...r, cursor: encodeRunCursor(r.started_at, r.id) }));
}
