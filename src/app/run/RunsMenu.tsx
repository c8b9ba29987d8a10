// "Runs" menu in the Timeline header: the server's run history (GET /api/runs), newest first, live
// (refreshed on the server's run notices and every 2 s while open), filtered by graph name and
// status; each row: graph, kind (fork/branch), status, steps, started, duration, and Follow (a live
// run: in the tab editing its graph), Delete (with its log; not the live run). Picking one opens it
// like the `/?run=<id>` link does (its graph in a tab, its whole timeline).
// It also exports the shown run as a `.swrun` bundle and imports one (then opens it the same way).
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type MouseEvent } from 'react';
import { Download, ListTree, Trash2, Upload } from 'lucide-react';
import { BUNDLE_EXTENSION } from '../../domain/protocol/runBundle.schema.ts';
import { downloadRunBundle, importRunBundle } from '../api/bundles.ts';
import { editorStore } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import { useDismiss } from '../ui/useDismiss.ts';
import { TOOL_LABEL } from './toolLabel.ts';
import { followRun, openRun } from './run.actions.ts';
import { runHistoryApi, type RunListItem } from './runHistory.api.ts';
import { askConfirm } from './runNotices.ts';
import { useRun } from './run.store.ts';
import { onServerNotices } from './serverNotices.ts';

const SHOWN = 50;
const REFRESH_MS = 2000;
const STATUSES = ['running', 'paused', 'done', 'stopped', 'error', 'interrupted'] as const;
const LIVE = new Set(['running', 'paused', 'idle']);

/** `1:05` / `42s` / `1h 3m` between two ISO times (now for a live run). */
export function duration(startedAt: string, endedAt: string | null, now = Date.now()): string {
  const ms = Math.max(0, (endedAt ? Date.parse(endedAt) : now) - Date.parse(startedAt));
  const sec = Math.round(ms / 1000);
  if (sec < 60) return `${sec}s`;
  if (sec < 3600) return `${Math.floor(sec / 60)}m ${String(sec % 60).padStart(2, '0')}s`;
  return `${Math.floor(sec / 3600)}h ${Math.floor((sec % 3600) / 60)}m`;
}

function matches(r: RunListItem, graph: string, status: string): boolean {
  return (
    (graph === '' || r.graph_name.toLowerCase().includes(graph.toLowerCase())) &&
    (status === '' || r.status === status)
  );
}

export function RunsMenu() {
  const [runs, setRuns] = useState<RunListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [graphFilter, setGraphFilter] = useState('');
  const [statusFilter, setStatusFilter] = useState('');
  /** While a confirm is up the pointer is over the dialog: the list must not close. */
  const confirming = useRef(false);
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
    load();
  };
  const load = useCallback(() => {
    runHistoryApi.list().then(
      (list) => setRuns([...list].sort((a, b) => b.started_at.localeCompare(a.started_at))),
      (e: unknown) => setError((e as Error).message),
    );
  }, []);
  useEffect(() => {
    if (!open) return;
    // Re-fetch when the server says a run started, branched or was deleted (or after a reconnect).
    const off = onServerNotices(['run_started', 'run_branched', 'run_deleted', 'connect'], load);
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      off();
      clearInterval(timer);
    };
  }, [open, load]);
  const close = useCallback(() => {
    if (confirming.current) return;
    setRuns(null);
    setError(null);
  }, []);
  const menu = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  useDismiss(open, close, menu, trigger);
  const follow = (id: string) => {
    setRuns(null);
    void followRun(id);
  };
  const remove = async (r: RunListItem) => {
    confirming.current = true;
    const ok = await askConfirm(
      `Delete run ${r.id} of ${r.graph_name || 'untitled'} (${r.steps} steps, ${r.status}) and its log?`,
    );
    confirming.current = false;
    if (!ok) return;
    try {
      await runHistoryApi.remove(r.id);
      toast(`deleted run ${r.id}`, 'info');
    } catch (e) {
      toast((e as Error).message, 'error');
    }
    load();
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
  const visible = runs?.filter((r) => matches(r, graphFilter, statusFilter)).slice(0, SHOWN);
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
    <div className="shrink-0">
      <Button
        ref={trigger}
        variant="ghost"
        className="shrink-0"
        data-testid="runs-menu"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={toggle}
        title="Open a past run"
      >
        <ListTree size={11} /> <span className={TOOL_LABEL}>Runs</span>
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
          ref={menu}
          role="menu"
          className="fixed z-50 max-h-96 w-[560px] max-w-[calc(100vw-16px)] overflow-y-auto rounded border border-zinc-700 bg-zinc-900 py-1 shadow-lg"
          style={anchor ?? undefined}
          data-testid="runs-list"
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
            <input
              className="ml-auto w-32 rounded border border-zinc-700 bg-zinc-950 px-1 text-[11px] text-zinc-200"
              placeholder="filter graph…"
              data-testid="runs-filter-graph"
              value={graphFilter}
              onChange={(e) => setGraphFilter(e.target.value)}
            />
            <select
              className="rounded border border-zinc-700 bg-zinc-950 text-[11px] text-zinc-200"
              data-testid="runs-filter-status"
              value={statusFilter}
              onChange={(e) => setStatusFilter(e.target.value)}
            >
              <option value="">any status</option>
              {STATUSES.map((st) => (
                <option key={st} value={st}>
                  {st}
                </option>
              ))}
            </select>
          </div>
          {error && <div className="px-2 text-red-400">{error}</div>}
          {runs?.length === 0 && <div className="px-2 text-zinc-500">No runs yet.</div>}
          {runs && runs.length > 0 && visible?.length === 0 && (
            <div className="px-2 text-zinc-500">No run matches the filter.</div>
          )}
          {visible && visible.length > 0 && (
            <div className="flex gap-2 px-2 text-[10px] text-zinc-600 uppercase">
              <span className="flex-1">graph</span>
              <span className="w-16">status</span>
              <span className="w-14 text-right">steps</span>
              <span className="w-14">started</span>
              <span className="w-14">duration</span>
              <span className="w-20" />
            </div>
          )}
          {visible?.map((r) => {
            const live = LIVE.has(r.status);
            const kind = r.kind ?? (r.parent_run_id ? 'fork' : 'run');
            return (
              <div
                key={r.id}
                data-testid={`runs-item-${r.id}`}
                data-status={r.status}
                data-kind={kind}
                className="flex w-full cursor-pointer items-center gap-2 px-2 py-0.5 text-left hover:bg-zinc-800"
                title={
                  r.parent_run_id
                    ? `${kind === 'branch' ? 'branch (steps a restore abandoned)' : 'fork'} of ${r.parent_run_id} at step ${r.parent_step ?? '?'} · ${r.id}`
                    : r.id
                }
                onClick={() => void pick(r.id)}
              >
                <span className="flex min-w-0 flex-1 items-center gap-1">
                  <span className="truncate text-zinc-200">{r.graph_name || r.id}</span>
                  {kind !== 'run' && (
                    <span
                      className={`text-[10px] ${kind === 'branch' ? 'text-amber-300' : 'text-violet-300'}`}
                      data-testid="runs-item-kind"
                    >
                      {kind} @{r.parent_step ?? '?'}
                    </span>
                  )}
                </span>
                <span className={`w-16 shrink-0 ${live ? 'text-emerald-400' : 'text-zinc-500'}`}>
                  {r.status}
                </span>
                <span
                  className="w-14 shrink-0 text-right text-zinc-400 tabular-nums"
                  data-testid="runs-item-steps"
                >
                  {r.steps}
                </span>
                <span className="w-14 shrink-0 text-[10px] text-zinc-500 tabular-nums">
                  {new Date(r.started_at).toLocaleTimeString([], { hour12: false })}
                </span>
                <span className="w-14 shrink-0 text-[10px] text-zinc-500 tabular-nums">
                  {duration(r.started_at, live ? null : r.ended_at)}
                </span>
                <span className="flex w-20 shrink-0 justify-end gap-1">
                  {live && (
                    <button
                      type="button"
                      data-testid={`runs-follow-${r.id}`}
                      className="rounded bg-emerald-900/60 px-1 text-[10px] text-emerald-200 hover:bg-emerald-800"
                      title="Follow this live run in the tab editing its graph"
                      onClick={(e) => {
                        e.stopPropagation();
                        follow(r.id);
                      }}
                    >
                      Follow
                    </button>
                  )}
                  <button
                    type="button"
                    data-testid={`runs-delete-${r.id}`}
                    disabled={live}
                    className="text-zinc-500 hover:text-red-400 disabled:opacity-30"
                    title={live ? 'Stop the run before deleting it' : 'Delete this run and its log'}
                    onClick={(e) => {
                      e.stopPropagation();
                      void remove(r);
                    }}
                  >
                    <Trash2 size={11} />
                  </button>
                </span>
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
