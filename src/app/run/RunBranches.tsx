// Beside the timeline's Restore button: the shown run's branches (steps earlier restores kept) and,
// for a branch, the run it came from — each opens on the timeline. What it shows comes from
// runNotices.ts' lineage (set when a run is opened, and by `run_branched`); it fetches nothing itself.
import { GitBranch } from 'lucide-react';
import { openRun } from './run.actions.ts';
import { useRun } from './run.store.ts';
import { useLineage } from './runNotices.ts';
import { useMenu } from '../ui/useDismiss.ts';

export function RunBranches() {
  const runId = useRun((s) => s.runId);
  const { open, close, toggle, menu, trigger } = useMenu();
  const shown = useLineage((l) => l.runId === runId && runId !== null);
  const branches = useLineage((l) => l.branches);
  const parent = useLineage((l) => l.branchOf);
  if (!shown || (branches.length === 0 && !parent)) return null;
  return (
    <div className="relative">
      <button
        ref={trigger}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="timeline-branches"
        className="flex shrink-0 items-center gap-0.5 rounded px-1 text-[10px] whitespace-nowrap text-amber-300 hover:bg-zinc-800"
        title={
          parent
            ? `This run is a branch of ${parent.of_run}: the steps a restore to step ${parent.at_step} left behind`
            : 'Steps earlier restores of this run kept as branch runs'
        }
        onClick={toggle}
      >
        <GitBranch size={11} />
        {parent
          ? `branch @${parent.at_step}`
          : `${branches.length} branch${branches.length === 1 ? '' : 'es'}`}
      </button>
      {open && (
        <div
          className="absolute right-0 bottom-full z-50 mb-1 w-80 rounded border border-zinc-700 bg-zinc-900 py-1 shadow-lg"
          ref={menu}
          role="menu"
          data-testid="timeline-branches-list"
        >
          {parent && (
            <button
              type="button"
              className="block w-full px-2 py-0.5 text-left text-[11px] text-zinc-200 hover:bg-zinc-800"
              onClick={() => {
                close();
                void openRun(parent.of_run);
              }}
            >
              Open the original run {parent.of_run}
            </button>
          )}
          {branches.map((b) => (
            <button
              key={b.run_id}
              type="button"
              data-testid={`timeline-branch-${b.run_id}`}
              className="block w-full truncate px-2 py-0.5 text-left text-[11px] text-zinc-200 hover:bg-zinc-800"
              title={b.run_id}
              onClick={() => {
                close();
                void openRun(b.run_id);
              }}
            >
              steps {b.from_step}–{b.to_step} (restored at {b.at_step}) · {b.run_id}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
