// The Runs menu's rows: a batch's episode runs (one run per episode, `<batch>_e<n>`) under one
// expandable row for their batch, every other run as it is. Pure, for tests. The server says which
// runs are episodes (`batch` on each row of GET /api/runs, looked up in its batches table), so the
// ids are never guessed at here.
import type { RunListItem } from './runHistory.api.ts';

export interface BatchGroup {
  id: string;
  graph_name: string;
  /** The batch's status (running, done, cancelled, error…), not its episodes'. */
  status: string;
  /** Episodes the batch has; `runs` holds those listed (fewer under a filter or the list's limit). */
  episodes: number;
  /** Its listed episode runs, by episode number. */
  runs: RunListItem[];
  /** The earliest start and, once every listed episode ended, the latest end. */
  started_at: string;
  ended_at: string | null;
  /** Steps of the listed episodes together. */
  steps: number;
}

export type RunsRow = { kind: 'run'; run: RunListItem } | { kind: 'batch'; group: BatchGroup };

/** Rows in the order of `runs` (newest first); a batch sits where its newest listed episode is. */
export function groupRuns(runs: readonly RunListItem[]): RunsRow[] {
  const rows: RunsRow[] = [];
  const groups = new Map<string, BatchGroup>();
  for (const run of runs) {
    const b = run.batch;
    if (!b) {
      rows.push({ kind: 'run', run });
      continue;
    }
    let g = groups.get(b.id);
    if (!g) {
      g = {
        id: b.id,
        graph_name: run.graph_name,
        status: b.status,
        episodes: b.episodes,
        runs: [],
        started_at: run.started_at,
        ended_at: run.ended_at,
        steps: 0,
      };
      groups.set(b.id, g);
      rows.push({ kind: 'batch', group: g });
    }
    g.runs.push(run);
    g.steps += run.steps;
    if (run.started_at < g.started_at) g.started_at = run.started_at;
  }
  for (const g of groups.values()) {
    g.runs.sort((a, b) => (a.batch?.episode ?? 0) - (b.batch?.episode ?? 0));
    const ends = g.runs.map((r) => r.ended_at);
    g.ended_at = ends.every((e): e is string => e !== null) ? ends.reduce((a, b) => (a > b ? a : b)) : null;
  }
  return rows;
}
