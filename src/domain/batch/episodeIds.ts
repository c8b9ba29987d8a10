// Run ids of batch episodes: `<batch id>_e<episode>`, fixed by batch and episode so a retried job
// finds (and resumes) its run, and so a run id tells which batch it belongs to.

export const episodeRunId = (batchId: string, episode: number): string => `${batchId}_e${episode}`;

/**
 * The batch and episode an episode run id names (the inverse of episodeRunId), or null. A run id
 * of that shape is an episode only if its batch exists: callers look the batch up.
 */
export function episodeOfRunId(runId: string): { batchId: string; episode: number } | null {
  const m = /^(.+)_e([1-9]\d*)$/.exec(runId);
  return m ? { batchId: m[1]!, episode: Number(m[2]) } : null;
}

/** The batch of an episode run id (`batch_x_e3` → `batch_x`); undefined for any other run id. */
export function batchOfEpisodeRun(runId: string): string | undefined {
  const m = /^(batch_.+)_e\d+$/.exec(runId);
  return m?.[1];
}
