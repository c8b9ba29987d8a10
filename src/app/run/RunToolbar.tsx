// The run toolbar: Play/Resume, Pause, Step, Stop, Reset (toolbarModel.ts decides what is enabled),
// the step counter, the status, the step-delay control, and a "viewing step N" chip with a way back
// to live while a past step is inspected. Reads only primitives from the run store.
import { useState } from 'react';
import { ChevronsRight, Pause, Play, RotateCcw, Square, StepForward } from 'lucide-react';
import { useEditor } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import { inspect, pause, play, reset, setStepDelay, stepOnce, stop } from './run.actions.ts';
import { liveStep, useRun } from './run.store.ts';
import { statusView, toolbarModel } from './toolbarModel.ts';

export function RunToolbar() {
  const status = useRun((s) => s.status);
  const step = useRun(liveStep);
  // Paused inside a step at a breakpoint: its number, and the state is that step's so far.
  const completed = useRun((s) => s.step);
  const inStep = step !== completed;
  const delay = useRun((s) => s.stepDelayMs);
  const error = useRun((s) => s.error);
  const inspected = useRun((s) => s.inspectedStep);
  const runTab = useRun((s) => s.tabId);
  const activeTabId = useEditor((s) => s.activeTabId);
  const otherTab = runTab !== null && runTab !== activeTabId;
  const [busy, setBusy] = useState(false);
  const m = toolbarModel(status, busy, otherTab);
  const sv = statusView(status);
  // One request at a time: a double click must not start two runs.
  const act = (fn: () => Promise<void>) => () => {
    setBusy(true);
    void fn().finally(() => setBusy(false));
  };
  return (
    <div className="flex items-center gap-0.5" data-testid="run-controls">
      <Button
        variant="ghost"
        data-testid="run-play"
        title={m.playLabel === 'Resume' ? 'Resume the paused run' : 'Run the graph of this tab'}
        disabled={!m.play}
        onClick={act(play)}
        className="!text-emerald-400"
      >
        <Play size={13} /> {m.playLabel}
      </Button>
      <Button
        variant="ghost"
        data-testid="run-pause"
        title="Pause after the current step"
        disabled={!m.pause}
        onClick={act(pause)}
      >
        <Pause size={13} />
      </Button>
      <Button
        variant="ghost"
        data-testid="run-step"
        title="Advance exactly one step"
        disabled={!m.step}
        onClick={act(stepOnce)}
      >
        <StepForward size={13} />
      </Button>
      <Button
        variant="ghost"
        data-testid="run-stop"
        title="Stop the run"
        disabled={!m.stop}
        onClick={act(stop)}
      >
        <Square size={12} />
      </Button>
      <Button
        variant="ghost"
        data-testid="run-reset"
        title="Stop and clear live values"
        disabled={!m.reset}
        onClick={act(reset)}
      >
        <RotateCcw size={12} />
      </Button>
      <span
        className="ml-2 w-16 shrink-0 text-right font-mono text-[11px] text-zinc-300 tabular-nums"
        data-testid="run-step-counter"
        data-in-step={inStep ? 'true' : 'false'}
        title={
          inStep
            ? `paused inside step ${step} (${completed} completed): the values shown are right after the breakpoint's event`
            : 'current step'
        }
      >
        Step {step}
      </span>
      <span
        className={`ml-1.5 w-16 shrink-0 truncate text-[11px] ${sv.tone}`}
        data-testid="run-status"
        data-status={status ?? 'idle'}
        title={
          otherTab ? 'the run shown here belongs to another tab; Play starts one for this tab' : undefined
        }
      >
        {sv.text}
        {otherTab && <span className="text-zinc-500"> · other tab</span>}
      </span>
      <label
        className="flex shrink-0 items-center gap-1 text-[10px] text-zinc-500"
        title={`Delay between steps: ${delay} ms`}
      >
        <input
          type="range"
          min={0}
          max={2000}
          step={50}
          value={delay}
          data-testid="run-delay"
          className="h-1 w-16 accent-sky-500"
          onChange={(e) => void setStepDelay(Number(e.target.value))}
        />
        <span className="w-14 whitespace-nowrap tabular-nums max-xl:hidden">{delay} ms</span>
      </label>
      {inspected !== null && (
        <button
          type="button"
          data-testid="run-viewing"
          title="Values on the canvas show this step; click to return to live"
          className="ml-1 flex items-center gap-0.5 rounded bg-sky-900/60 px-1.5 text-[10px] text-sky-200 hover:bg-sky-800"
          onClick={() => void inspect(null)}
        >
          viewing step {inspected} <ChevronsRight size={11} /> live
        </button>
      )}
      {error && (
        <span
          className="ml-1 max-w-[220px] truncate text-[10px] text-red-400"
          title={error}
          data-testid="run-error"
        >
          {error}
        </span>
      )}
    </div>
  );
}
