// "Runs" menu in the Timeline header: the server's run history (GET /api/runs), newest first, live
// (refreshed on the server's run notices and every 2 s while open), filtered by graph name and
// status; each row: graph, kind (fork/branch), status, steps, started, duration, graph version, and
// diff (its graph version against the open tab's graph), Follow (a live run: in the tab editing its
// graph), Delete (with its log; not the live run). A batch's episode runs are one row for the batch,
// opened to list them (rows: RunsMenuRows.tsx, grouping: runGroups.ts). The run on screen is marked,
// and its batch opens and scrolls into view when the menu opens: that run is always one glance away.
// Picking one opens it like the `/?run=<id>` link does (its graph in a tab, its whole timeline).
// It also exports the shown run as a `.swrun` bundle and imports one (then opens it the same way),
// and replays the shown run from its recorded calls, verifying every step (the verdict shows on the
// timeline: ReplayVerdictBar.tsx).
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type MouseEvent } from 'react';
import { Download, ListTree, RotateCcw, Upload } from 'lucide-react';
import { BUNDLE_EXTENSION } from '../../domain/protocol/runBundle.schema.ts';
import { downloadRunBundle, importRunBundle } from '../api/bundles.ts';
import { editorStore } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import { useDismiss } from '../ui/useDismiss.ts';
import { TOOL_LABEL } from './toolLabel.ts';
import { showGraphDiff } from '../compare/GraphDiffView.tsx';
import { followRun, openRun } from './run.actions.ts';
import { runHistoryApi, type RunListItem } from './runHistory.api.ts';
import { askConfirm } from './runNotices.ts';
import { runStore, useRun } from './run.store.ts';
import { onServerNotices } from './serverNotices.ts';
import { groupRuns } from './runGroups.ts';
import { replayAndVerify } from './replayVerdict.ts';
import { BatchRows, RunRow, type RunActions } from './RunsMenuRows.tsx';

export { duration } from './RunsMenuRows.tsx';

/** Rows shown (a batch, however many episodes, is one). */
const SHOWN = 50;
const REFRESH_MS = 2000;
const STATUSES = ['running', 'paused', 'done', 'stopped', 'error', 'interrupted'] as const;

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
  /** Batches opened to show their episodes (closed by default). */
  const [openBatches, setOpenBatches] = useState<ReadonlySet<string>>(new Set());
  const toggleBatch = (id: string) =>
    setOpenBatches((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  /** Set while the menu opens: its first list reveals the shown run (opens its batch, scrolls to it). */
  const reveal = useRef(false);
  /** While a confirm is up the pointer is over the dialog: the list must not close. */
  const confirming = useRef(false);
  // The drawer scrolls (overflow clips absolute children), so the list is placed `fixed` above the button.
  const [anchor, setAnchor] = useState<{ right: number; bottom: number } | null>(null);
  const open = runs !== null || error !== null;
  /**
   * Bumped whenever the menu closes. A list fetched before that (the first one, a refresh every
   * REFRESH_MS, one a run notice asked for) may arrive after it: it must not open the menu again.
   */
  const generation = useRef(0);
  const shut = useCallback(() => {
    generation.current += 1;
    setRuns(null);
    setError(null);
  }, []);
  const toggle = (e: MouseEvent<HTMLButtonElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    setAnchor({ right: window.innerWidth - r.right, bottom: window.innerHeight - r.top + 4 });
    if (open) {
      shut();
      return;
    }
    reveal.current = true;
    load();
  };
  const load = useCallback(() => {
    const asked = generation.current;
    runHistoryApi.list().then(
      (list) => {
        if (asked !== generation.current) return; // closed meanwhile
        if (reveal.current) {
          const batchId = list.find((r) => r.id === runStore.getState().runId)?.batch?.id;
          if (batchId) setOpenBatches((prev) => new Set(prev).add(batchId));
        }
        setRuns([...list].sort((a, b) => b.started_at.localeCompare(a.started_at)));
      },
      (e: unknown) => {
        if (asked === generation.current) setError((e as Error).message);
      },
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
    shut();
  }, [shut]);
  const menu = useRef<HTMLDivElement>(null);
  // Once the first list is on screen (its batch opened above), bring the shown run's row into view.
  useEffect(() => {
    if (!reveal.current || runs === null) return;
    reveal.current = false;
    // The list's own scroll only (scrollIntoView would also scroll the drawer under the fixed list).
    const list = menu.current;
    const row = list?.querySelector('[aria-current="true"]');
    if (!list || !row) return;
    const r = row.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    if (r.bottom > box.bottom) list.scrollTop += r.bottom - box.bottom;
    else if (r.top < box.top) list.scrollTop -= box.top - r.top;
  }, [runs]);
  const trigger = useRef<HTMLButtonElement>(null);
  useDismiss(open, close, menu, trigger);
  const follow = (id: string) => {
    shut();
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
    shut();
    const url = new URL(window.location.href);
    url.searchParams.set('run', id);
    window.history.replaceState(null, '', url);
    return openRun(id);
  };
  const shown = useRun((s) => s.runId);
  const fileInput = useRef<HTMLInputElement>(null);
  const toast = (message: string, kind: 'info' | 'error') => editorStore.getState().showToast(message, kind);
  const visible =
    runs && groupRuns(runs.filter((r) => matches(r, graphFilter, statusFilter))).slice(0, SHOWN);
  const actions: RunActions = {
    pick: (id) => void pick(id),
    follow,
    remove: (r) => void remove(r),
    diff: (id) => {
      shut();
      showGraphDiff(`run:${id}`);
    },
  };
  const exportShown = () => {
    if (!shown) return;
    shut();
    downloadRunBundle(shown).then(
      (name) => toast(`exported run ${shown} as ${name}`, 'info'),
      (e: unknown) => toast((e as Error).message, 'error'),
    );
  };
  const replayShown = () => {
    if (!shown) return;
    shut();
    void replayAndVerify(shown);
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
          className="fixed z-50 max-h-96 w-[660px] max-w-[calc(100vw-16px)] overflow-y-auto rounded border border-zinc-700 bg-zinc-900 py-1 shadow-lg"
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
              data-testid="runs-replay"
              disabled={!shown}
              onClick={replayShown}
              title={
                shown
                  ? `Replay run ${shown} from its recorded LLM and service calls (nothing is called) and compare every step with the recorded one`
                  : 'No run is shown'
              }
            >
              <RotateCcw size={11} /> Replay and verify
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
              <span className="w-16">version</span>
              <span className="w-24" />
            </div>
          )}
          {visible?.map((row) =>
            row.kind === 'run' ? (
              <RunRow key={row.run.id} r={row.run} actions={actions} shown={shown} />
            ) : (
              <BatchRows
                key={`batch:${row.group.id}`}
                group={row.group}
                open={openBatches.has(row.group.id)}
                toggle={() => toggleBatch(row.group.id)}
                actions={actions}
                shown={shown}
              />
            ),
          )}
        </div>
      )}
    </div>
  );
}
