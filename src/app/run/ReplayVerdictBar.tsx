// The verdict of Runs → Replay and verify on the timeline (replayVerdict.ts): while the server
// replays, a line saying so; then "12 steps identical", or the first difference's message with a
// button to inspect that step (its tick carries a mark too). Shown only for the run it is about.
import { X } from 'lucide-react';
import { inspect } from './run.actions.ts';
import { useRun } from './run.store.ts';
import { clearReplay, useReplay } from './replayVerdict.ts';

export function ReplayVerdictBar() {
  const shown = useRun((s) => s.runId);
  const state = useReplay((s) => s);
  if (state.runId === null || state.runId !== shown) return null;
  const diff = state.verdict?.difference ?? null;
  const tone = state.running
    ? 'text-zinc-400'
    : state.error || diff
      ? 'text-red-300 bg-red-950/40'
      : 'text-emerald-300 bg-emerald-950/40';
  const text = state.running
    ? `Replaying run ${state.runId} from its recorded calls…`
    : state.error
      ? `Replay failed: ${state.error}`
      : diff
        ? `Replay differs at step ${diff.step}: ${state.verdict!.message}`
        : `Replay verified: ${state.verdict!.message} (${state.verdict!.calls.answered} calls answered from the recording)`;
  return (
    <div
      className={`flex items-center gap-2 border-b border-zinc-800 px-2 py-0.5 ${tone}`}
      data-testid="replay-verdict"
      data-state={state.running ? 'running' : state.error ? 'error' : diff ? 'differs' : 'identical'}
      data-step={diff?.step ?? ''}
    >
      <span className="min-w-0 flex-1 truncate" title={text} data-testid="replay-verdict-message">
        {text}
      </span>
      {diff && (
        <button
          type="button"
          className="shrink-0 rounded bg-red-900/60 px-1 text-[10px] text-red-100 hover:bg-red-800"
          data-testid="replay-verdict-goto"
          onClick={() => void inspect(diff.step)}
          title={`Inspect step ${diff.step}, where the replay parted from the recording`}
        >
          step {diff.step}
        </button>
      )}
      {!state.running && (
        <button
          type="button"
          className="shrink-0 text-zinc-500 hover:text-zinc-200"
          data-testid="replay-verdict-close"
          onClick={clearReplay}
          title="Hide the replay verdict"
        >
          <X size={11} />
        </button>
      )}
    </div>
  );
}
