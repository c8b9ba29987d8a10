// The Timeline's "Compare…": opens the Compare view with B = the shown step and A = the step before
// it (a fork's parent is one click away in the view: "vs parent run").
import { GitCompare } from 'lucide-react';
import { Button } from '../ui/Button.tsx';
import { runStore } from '../run/run.store.ts';
import { showCompare } from './CompareView.tsx';
import { TOOL_LABEL } from '../run/toolLabel.ts';

export function CompareButton({ runId, step }: { runId: string; step: number }) {
  return (
    <Button
      className="shrink-0"
      data-testid="timeline-compare"
      onClick={() => {
        const steps = runStore.getState().steps;
        const at = steps.indexOf(step);
        const before = at > 0 ? steps[at - 1]! : Math.max(0, step - 1);
        showCompare({ runId, step: before }, { runId, step });
      }}
      title="Compare this step with another step, or with the parent run (forks)"
    >
      <GitCompare size={11} /> <span className={TOOL_LABEL}>Compare…</span>
    </Button>
  );
}
