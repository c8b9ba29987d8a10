// "Runs" menu in the Timeline header: the server's run history (GET /api/runs), newest first;
// picking one opens it like the `/?run=<id>` link does (its graph in a tab, its whole timeline).
import { useState, type MouseEvent } from 'react';
import { ListTree } from 'lucide-react';
import type { RunSummary } from '../../domain/protocol/protocol.rest.ts';
import { Button } from '../ui/Button.tsx';
import { openRun } from './run.actions.ts';
import { runApi } from './run.api.ts';

const SHOWN = 25;

export function RunsMenu() {
  const [runs, setRuns] = useState<RunSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The drawer scrolls (overflow clips absolute children), so the list is placed `fixed` above the button.
  const [anchor, setAnchor] = useState<{ right: number; bottom: number } | null>(null);
  const open = runs !== null || error !== null;
  const toggle = (e: MouseEvent<HTMLButtonElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    setAnchor({ right: window.innerWidth - r.right, bottom: window.innerHeight - r.top + 4 });
    if (open) {
      setRuns(null);
      setError(null);
      return;
    }
    runApi.list().then(
      (list) => setRuns([...list].sort((a, b) => b.started_at.localeCompare(a.started_at)).slice(0, SHOWN)),
      (e: unknown) => setError((e as Error).message),
    );
  };
  const pick = (id: string) => {
    setRuns(null);
    const url = new URL(window.location.href);
    url.searchParams.set('run', id);
    window.history.replaceState(null, '', url);
    void openRun(id);
  };
  return (
    <div>
      <Button variant="ghost" data-testid="runs-menu" onClick={toggle} title="Open a past run">
        <ListTree size={11} /> Runs
      </Button>
      {open && (
        <div
          className="fixed z-50 max-h-72 w-96 overflow-y-auto rounded border border-zinc-700 bg-zinc-900 py-1 shadow-lg"
          style={anchor ?? undefined}
          data-testid="runs-list"
          onMouseLeave={() => setRuns(null)}
        >
          {error && <div className="px-2 text-red-400">{error}</div>}
          {runs?.length === 0 && <div className="px-2 text-zinc-500">No runs yet.</div>}
          {runs?.map((r) => (
            <button
              key={r.id}
              type="button"
              data-testid={`runs-item-${r.id}`}
              className="flex w-full gap-2 px-2 py-0.5 text-left hover:bg-zinc-800"
              title={r.parent_run_id ? `fork of ${r.parent_run_id} at step ${r.parent_step ?? '?'}` : r.id}
              onClick={() => pick(r.id)}
            >
              <span className="truncate text-zinc-200">{r.graph_name || r.id}</span>
              {r.parent_run_id && <span className="text-[10px] text-violet-300">fork</span>}
              <span className="ml-auto shrink-0 text-zinc-400">{r.steps} steps</span>
              <span className="w-16 shrink-0 text-zinc-500">{r.status}</span>
              <span className="shrink-0 text-[10px] text-zinc-600">{r.started_at.slice(11, 19)}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
