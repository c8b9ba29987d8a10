// Batch evaluation: one graph run once per episode, each episode a run of its own. Shared by the
// CLI (`statewire batch`), the REST API (`/api/batches`), workers and the editor's Batches view.

export type EpisodeStatus = 'done' | 'error' | 'stopped' | 'interrupted';

/** One episode's result row (the `--json` output's `episodes[]`, one CSV line). */
export interface EpisodeRow {
  episode: number;
  seed: number;
  run_id: string;
  status: EpisodeStatus;
  steps: number;
  /** Top-level graphOut values by portName. */
  outputs: Record<string, unknown>;
  /** Numeric metrics of the episode (see metrics.ts for where they come from). */
  metrics: Record<string, number>;
  /** Whether the episode counts as a success (aggregate success rate). */
  success: boolean;
  error?: string | null;
  /** Which worker ran it (`embedded-2`, `worker-<host>-<pid>`), for the table and the bench. */
  worker?: string;
  /** Attempts it took (1 unless retried / recovered after a worker died). */
  attempts?: number;
  duration_ms?: number;
}

export interface MetricAggregate {
  mean: number;
  min: number;
  max: number;
  std: number;
  n: number;
}

export interface BatchAggregate {
  episodes: number;
  completed: number;
  failed: number;
  success_rate: number;
  mean_steps: number;
  metrics: Record<string, MetricAggregate>;
}

export type BatchStatus = 'queued' | 'running' | 'done' | 'error' | 'cancelled';

/** A batch as stored (the graph is stored once; episodes reference runs). */
export interface BatchRecord {
  id: string;
  graph_name: string;
  graph: unknown;
  /** Content hash of the graph's canonical save form (with the `--set` overrides); null before versions were kept. */
  graph_version: string | null;
  episodes: number;
  workers: number;
  seed: number;
  /** `--set path=value` overrides, as given. */
  sets: string[];
  mode: 'embedded' | 'distributed';
  status: BatchStatus;
  created_at: string;
  ended_at: string | null;
  error: string | null;
}
