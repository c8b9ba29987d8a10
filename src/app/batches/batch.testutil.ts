// Builders for the Batches view's tests: a progress report and an episode row with defaults.
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { BatchProgress } from '../../domain/batch/progress.ts';

export const progress = (p: Partial<BatchProgress> = {}): BatchProgress => ({
  completed: 0,
  failed: 0,
  running: 0,
  total: 8,
  episodes_per_s: 0,
  status: 'running',
  ...p,
});

export const episodeRow = (episode: number, extra: Partial<EpisodeRow> = {}): EpisodeRow => ({
  episode,
  seed: 100 + episode,
  run_id: `r${episode}`,
  status: 'done',
  steps: 10,
  outputs: {},
  metrics: {},
  success: true,
  ...extra,
});
