// The timeline's Restore button, saying what will happen: restoring step N of a run that went on to
// step M keeps steps N+1..M as a branch run (the server copies them before re-running; Runs lists it);
// beside it, the shown run's branches (RunBranches.tsx).
import { History } from 'lucide-react';
import { Button } from '../ui/Button.tsx';
import { restore } from './run.actions.ts';
import { RunBranches } from './RunBranches.tsx';
import { useRun } from './run.store.ts';
import { TOOL_LABEL } from './toolLabel.ts';

/** The button's words for restoring `step` when the timeline's last step is `last`. */
export function restoreLabel(step: number | null, last: number | undefined): string {
  if (step === null) return 'Restore';
  if (last === undefined || last <= step) return `Restore to step ${step}`;
  const kept = last === step + 1 ? `step ${last} is` : `steps ${step + 1}–${last} are`;
  return `Restore to step ${step}: ${kept} kept as branch`;
}

export function RestoreButton({ selected, target }: { selected: number | null; target: number }) {
  const last = useRun((s) => s.steps[s.steps.length - 1]);
  const label = restoreLabel(selected, last);
  // "Restore to step N" and ": steps … are kept as branch": the second part goes first when the
  // timeline's toolbar is narrow, then the words altogether (the tooltip keeps them).
  const cut = label.indexOf(': ');
  const head = cut < 0 ? label : label.slice(0, cut);
  const tail = cut < 0 ? '' : label.slice(cut);
  return (
    <>
      <Button
        className="shrink-0"
        data-testid="timeline-restore"
        disabled={selected === null}
        onClick={() => void restore(target)}
        title={`${label}. The run is rewound there, paused; Play resumes from it. The later steps stay reachable as a branch run in Runs.`}
      >
        <History size={11} />{' '}
        <span className={TOOL_LABEL}>
          {head}
          {tail && <span className="@max-[72rem]:hidden">{tail}</span>}
        </span>
      </Button>
      <RunBranches />
    </>
  );
}
