// Run ids of batch episodes: `<batch id>_e<episode>`, fixed by batch and episode so a retried job
// finds (and resumes) its run, and so a run id tells which batch it belongs to.

export const episodeRunId = (batchId: string, episode: number): string => `${batchId}_e${episode}`;

/** The batch of an episode run id (`batch_x_e3` → `batch_x`); undefined for any other run id. */
export function batchOfEpisodeRun(runId: string): string | undefined {
  const m = /^(batch_.+)_e\d+$/.exec(runId);
  return m?.[1];
}
