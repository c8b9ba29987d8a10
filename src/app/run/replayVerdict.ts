// Runs → Replay and verify: asks the server to replay the shown run from its recorded calls
// (`POST /api/runs/{id}/replay`, src/server/replay/replay.ts) and keeps the verdict for the
// timeline, which shows it above the ticks and marks the step where the replay parted from the
// recording. One verdict at a time, for one run: showing another run hides it.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { ReplayVerdictSchema, type ReplayVerdict } from '../../domain/protocol/replay.schema.ts';
import { request } from '../api/client.ts';

export interface ReplayState {
  runId: string | null;
  /** true while the server replays. */
  running: boolean;
  verdict: ReplayVerdict | null;
  /** Why the replay could not run at all (unknown run, a replay already running…). */
  error: string | null;
}

export const replayStore = createStore<ReplayState>()(() => ({
  runId: null,
  running: false,
  verdict: null,
  error: null,
}));

export function useReplay<T>(selector: (s: ReplayState) => T): T {
  return useStore(replayStore, selector);
}

export const clearReplay = () =>
  replayStore.setState({ runId: null, running: false, verdict: null, error: null });

/** Replays and verifies `runId`; the verdict (or the failure) lands in the store. */
export async function replayAndVerify(runId: string): Promise<ReplayVerdict | null> {
  replayStore.setState({ runId, running: true, verdict: null, error: null });
  try {
    const body = await request<unknown>('POST', `/api/runs/${encodeURIComponent(runId)}/replay`, {
      verify: true,
    });
    const verdict = ReplayVerdictSchema.parse(body);
    if (replayStore.getState().runId === runId) replayStore.setState({ running: false, verdict });
    return verdict;
  } catch (e) {
    if (replayStore.getState().runId === runId)
      replayStore.setState({ running: false, error: (e as Error).message });
    return null;
  }
}

/** The step the shown run's verdict marks on the timeline (null: none). */
export function differingStep(s: ReplayState, shownRun: string | null): number | null {
  return s.runId === shownRun && s.verdict?.difference ? s.verdict.difference.step : null;
}
