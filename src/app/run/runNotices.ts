// Notices about runs this editor did not start: a run of an open graph started elsewhere (another
// tab, the REST API, `statewire run --server`), the followed run replaced by one started elsewhere,
// steps a restore kept as a branch; and the one confirm the run toolbar asks before replacing
// someone else's live run. Fed by the server's `run_started` / `run_branched` notices (socket.io,
// outside any run's log); the editor's own starts are recognised by their ids.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { editorStore } from '../store/editor.store.ts';
import { runApi } from './run.api.ts';
import { runStore } from './run.store.ts';

export interface RunNotice {
  /** One notice per subject (a second notice about the same run replaces the first). */
  id: string;
  kind: 'replaced' | 'started' | 'branched';
  text: string;
  runId: string;
  graphName: string;
  /** What the primary button does: follow a live run, or open a stored one. */
  action: 'follow' | 'open';
}

interface NoticesState {
  notices: RunNotice[];
  confirm: { text: string; resolve: (ok: boolean) => void } | null;
}

export const noticesStore = createStore<NoticesState>()(() => ({ notices: [], confirm: null }));
export const useNotices = <T>(pick: (s: NoticesState) => T): T => useStore(noticesStore, pick);

export function pushNotice(n: RunNotice): void {
  const rest = noticesStore.getState().notices.filter((x) => x.id !== n.id);
  noticesStore.setState({ notices: [...rest, n].slice(-4) });
}

export function dismissNotice(id: string): void {
  noticesStore.setState({ notices: noticesStore.getState().notices.filter((n) => n.id !== id) });
}

/** The run is followed now (by whatever way: a notice, Runs, a link, a boot): offers to follow it are done. */
export function followedRun(runId: string): void {
  const { notices } = noticesStore.getState();
  const left = notices.filter((n) => !(n.action === 'follow' && n.runId === runId));
  if (left.length !== notices.length) noticesStore.setState({ notices: left });
}

/** An in-app confirm dialog (RunNotices renders it); resolves with the user's answer. */
export function askConfirm(text: string): Promise<boolean> {
  noticesStore.getState().confirm?.resolve(false);
  return new Promise((resolve) => {
    noticesStore.setState({
      confirm: {
        text,
        resolve: (ok) => {
          noticesStore.setState({ confirm: null });
          resolve(ok);
        },
      },
    });
  });
}

// ---- the shown run's branches (for the timeline's branch list; no fetch of its own) ----

export interface BranchRef {
  run_id: string;
  of_run: string;
  at_step: number;
  from_step: number;
  to_step: number;
}
export interface Lineage {
  runId: string | null;
  branches: BranchRef[];
  branchOf: BranchRef | null;
}
export const lineageStore = createStore<Lineage>()(() => ({ runId: null, branches: [], branchOf: null }));
export const useLineage = <T>(pick: (s: Lineage) => T): T => useStore(lineageStore, pick);

/** Records what GET /api/runs/{id} said about a run's branches (run.actions calls it when it opens one). */
export function setLineage(runId: string, info: unknown): void {
  const i = info as { branches?: BranchRef[]; branch_of?: BranchRef | null };
  lineageStore.setState({ runId, branches: i.branches ?? [], branchOf: i.branch_of ?? null });
}

// ---- which runs are this editor's own ----

const own = new Set<string>();
let starting = 0;
let deferred: unknown[] = [];

/** Wraps one of this editor's own starts: notices that arrive meanwhile wait for its id. */
export async function ownStart<T>(start: () => Promise<T>, idOf: (r: T) => string): Promise<T> {
  starting++;
  try {
    const r = await start();
    own.add(idOf(r));
    return r;
  } finally {
    starting--;
    if (starting === 0) {
      const waiting = deferred;
      deferred = [];
      for (const d of waiting) onRunStarted(d);
    }
  }
}

interface StartedNotice {
  run_id: string;
  graph_name: string;
  status: string;
  replaced: { run_id: string; graph_name: string; step: number } | null;
}

/** `run_started` from the server: say so when it concerns what this editor shows. */
export function onRunStarted(raw: unknown): void {
  const n = raw as StartedNotice;
  if (typeof n?.run_id !== 'string') return;
  if (starting > 0) {
    deferred.push(raw);
    return;
  }
  // A notice offering to follow the run this one replaced is stale now.
  if (n.replaced) dismissNotice(`run:${n.replaced.run_id}`);
  const shown = runStore.getState().runId;
  if (own.has(n.run_id) || n.run_id === shown) return;
  const graph = n.graph_name || 'untitled';
  if (n.replaced && n.replaced.run_id === shown) {
    pushNotice({
      id: `run:${n.run_id}`,
      kind: 'replaced',
      text: `Run ${n.replaced.run_id} was stopped: a new run ${n.run_id} of graph ${graph} started from elsewhere`,
      runId: n.run_id,
      graphName: n.graph_name,
      action: 'follow',
    });
    return;
  }
  if (editorStore.getState().tabs.some((t) => t.graph.name === n.graph_name))
    pushNotice({
      id: `run:${n.run_id}`,
      kind: 'started',
      text: `Run ${n.run_id} of graph ${graph} (open here) started from elsewhere`,
      runId: n.run_id,
      graphName: n.graph_name,
      action: 'follow',
    });
}

/** `run_branched`: steps of the shown run were kept as a branch by a restore. */
export function onRunBranched(raw: unknown): void {
  const b = raw as { run_id?: unknown; of_run?: unknown; from_step?: unknown; to_step?: unknown };
  if (typeof b?.run_id !== 'string' || b.of_run !== runStore.getState().runId) return;
  const ref = raw as BranchRef;
  const lineage = lineageStore.getState();
  lineageStore.setState(
    lineage.runId === ref.of_run
      ? { branches: [ref, ...lineage.branches.filter((x) => x.run_id !== ref.run_id)] }
      : { runId: ref.of_run, branches: [ref], branchOf: null },
  );
  pushNotice({
    id: `branch:${b.run_id}`,
    kind: 'branched',
    text: `Steps ${String(b.from_step)}–${String(b.to_step)} of run ${String(b.of_run)} are kept as branch ${b.run_id}`,
    runId: b.run_id,
    graphName: '',
    action: 'open',
  });
}

let connects = 0;
/**
 * After a reconnect: a `run_started` sent while this editor was offline is not replayed, so compare
 * the server's current run with the shown one and raise the notice it would have raised.
 */
export async function checkAfterReconnect(): Promise<void> {
  connects++;
  if (connects === 1) return; // the first connect: boot (openRunFromLocation) looks for itself
  const shown = runStore.getState().runId;
  const live = await runApi.status().catch(() => null);
  if (!live?.execution_id || live.execution_id === shown) return;
  if (live.status !== 'running' && live.status !== 'paused') return;
  const [info, old] = await Promise.all([
    runApi.run(live.execution_id).catch(() => null),
    shown ? runApi.run(shown).catch(() => null) : Promise.resolve(null),
  ]);
  if (!info) return;
  onRunStarted({
    run_id: info.id,
    graph_name: info.graph_name,
    status: live.status,
    replaced:
      old?.status === 'stopped' ? { run_id: old.id, graph_name: old.graph_name, step: old.steps } : null,
  } satisfies StartedNotice);
}
