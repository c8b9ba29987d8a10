// The followed run's episodes, recomputed only when its timeline changes (steps, snapshots, pending).
import { useMemo } from 'react';
import { useRun } from '../run/run.store.ts';
import { EPISODE_SIGNAL, timelineEpisodes, type TimelineEpisodes } from './episodes.ts';

export interface TimelineEpisodesView extends TimelineEpisodes {
  /** The run has at least one episode_reset (else there is nothing to band or compare). */
  hasResets: boolean;
}

export function useTimelineEpisodes(): TimelineEpisodesView {
  const steps = useRun((s) => s.steps);
  const snapshots = useRun((s) => s.snapshots);
  const pending = useRun((s) => s.pending);
  return useMemo(() => {
    const t = timelineEpisodes({ steps, snapshots, pending });
    let hasResets = false;
    for (const list of t.signals.values())
      if (list.some((s) => s.signal === EPISODE_SIGNAL)) hasResets = true;
    return { ...t, hasResets };
  }, [steps, snapshots, pending]);
}
