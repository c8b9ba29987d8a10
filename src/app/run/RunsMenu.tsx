// "Runs" menu in the Timeline header: the server's run history (GET /api/runs), newest first;
// picking one opens it like the `/?run=<id>` link does (its graph in a tab, its whole timeline).
// It also exports the shown run as a `.swrun` bundle and imports one (then opens it the same way).
import { useRef, useState, type ChangeEvent, type MouseEvent } from 'react';
import { Download, ListTree, Upload } from 'lucide-react';
import type { RunSummary } from '../../domain/protocol/protocol.rest.ts';
import { BUNDLE_EXTENSION } from '../../domain/protocol/runBundle.schema.ts';
import { downloadRunBundle, importRunBundle } from '../api/bundles.ts';
import { editorStore } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import { openRun } from './run.actions.ts';
import { runApi } from './run.api.ts';
import { useRun } from './run.store.ts';

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
    return openRun(id);
  };
  const shown = useRun((s) => s.runId);
  const fileInput = useRef<HTMLInputElement>(null);
  const toast = (message: string, kind: 'info' | 'error') => editorStore.getState().showToast(message, kind);
  const exportShown = () => {
    if (!shown) return;
    setRuns(null);
    downloadRunBundle(shown).then(
      (name) => toast(`exported run ${shown} as ${name}`, 'info'),
      (e: unknown) => toast((e as Error).message, 'error'),
    );
  };
  // A refused import changes nothing on the server, so nothing changes here either: only a toast.
  const importPicked = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.currentTarget.files?.[0];
    e.currentTarget.value = '';
    if (!file) return;
    try {
      const r = await importRunBundle(file);
      if (await pick(r.run_id))
        toast(
          `imported run ${r.run_id} (${r.steps} steps, read-only${r.kept_id ? '' : `; ${r.original_run_id} was taken here, so it got a new id`})`,
          'info',
        );
    } catch (err) {
      toast(`${file.name}: ${(err as Error).message}`, 'error');
    }
  };
  return (
    <div>
      <Button variant="ghost" data-testid="runs-menu" onClick={toggle} title="Open a past run">
        <ListTree size={11} /> Runs
      </Button>
      <input
        ref={fileInput}
        type="file"
        accept={`${BUNDLE_EXTENSION},application/gzip,application/octet-stream`}
        className="hidden"
        data-testid="runs-import-file"
        onChange={(e) => void importPicked(e)}
      />
      {open && (
        <div
          className="fixed z-50 max-h-72 w-96 overflow-y-auto rounded border border-zinc-700 bg-zinc-900 py-1 shadow-lg"
          style={anchor ?? undefined}
          data-testid="runs-list"
          onMouseLeave={() => setRuns(null)}
        >
          <div className="flex gap-1 border-b border-zinc-800 px-1 pb-1">
            <Button
              variant="ghost"
              data-testid="runs-export"
              disabled={!shown}
              onClick={exportShown}
              title={shown ? `Download run ${shown} as one ${BUNDLE_EXTENSION} file` : 'No run is shown'}
            >
              <Download size={11} /> Export run
            </Button>
            <Button
              variant="ghost"
              data-testid="runs-import"
              onClick={() => fileInput.current?.click()}
              title={`Open a ${BUNDLE_EXTENSION} file exported by any Statewire (imported runs are read-only)`}
            >
              <Upload size={11} /> Import run…
            </Button>
          </div>
          {error && <div className="px-2 text-red-400">{error}</div>}
          {runs?.length === 0 && <div className="px-2 text-zinc-500">No runs yet.</div>}
          {runs?.map((r) => (
            <button
              key={r.id}
              type="button"
              data-testid={`runs-item-${r.id}`}
              className="flex w-full gap-2 px-2 py-0.5 text-left hover:bg-zinc-800"
              title={r.parent_run_id ? `fork of ${r.parent_run_id} at step ${r.parent_step ?? '?'}` : r.id}
              onClick={() => void pick(r.id)}
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
