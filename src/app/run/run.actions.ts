// What the run toolbar and the timeline do: start / pause / resume / step / stop / reset a run of
// the active tab's graph, change the step delay, inspect a step, restore it, fork from it, and open
// a past run (`/?run=<id>`). Streamed state arrives through the live client; these functions only
// call REST and record the user's choices (and failures) in the run store.
import { liveClient } from '../live/connection.ts';
import { activeTab } from '../store/doc.slice.ts';
import { issuesOf } from '../store/derived.ts';
import { editorStore } from '../store/editor.store.ts';
import { formatGraphText, parseGraphInput } from '../store/graphIo.ts';
import { runApi } from './run.api.ts';
import { TIMELINE_TAB } from './timelineTab.ts';
import { breakpointsOf, loadBreakpoints } from '../debug/breakpoints.store.ts';
import { initialRunState, isActive, runStore, type RunState } from './run.store.ts';
import { parentHistory, type ParentHistory, type RunOrigin } from './forkHistory.ts';
import { askConfirm, followedRun, ownStart, pushNotice, setLineage } from './runNotices.ts';

const set = (patch: Partial<RunState>) => runStore.setState(patch);

/**
 * After a control call, show the status it implies — unless the live stream already said something
 * newer meanwhile (a Resume that runs straight into a breakpoint must stay "paused").
 */
function settle(status: RunState['status']): (seqBefore: number) => void {
  return (seqBefore) => {
    if (runStore.getState().statusSeq === seqBefore) set({ status });
  };
}
const statusSeq = () => runStore.getState().statusSeq;
const fail = (e: unknown) => set({ error: (e as Error).message });

/**
 * Starts following a run with a fresh timeline. `status` is the run's status as of its event
 * `asOfSeq`: the replayed history before it (a finished run's "running", its old pauses) fills the
 * timeline but never shows as the run's status — a stored run being loaded must not look live.
 * A fork's timeline starts with its parent's steps up to the fork point (`history`, forkHistory.ts).
 */
function followFresh(
  runId: string,
  tabId: string | null,
  status: RunState['status'],
  asOfSeq = 0,
  history: ParentHistory | null = null,
): void {
  const { stepDelayMs } = runStore.getState();
  runStore.setState({
    ...initialRunState(),
    runId,
    tabId,
    status,
    stepDelayMs,
    statusSeq: asOfSeq,
    ...(history ? historyView(history) : {}),
  });
  liveClient().follow(runId, 0);
  followedRun(runId);
  if (tabId) editorStore.getState().showRunInTab(tabId, runId);
}

/** A fork's timeline before its own log arrives: the parent's steps, shown at the fork point. */
function historyView(h: ParentHistory): Partial<RunState> {
  const last = h.snapshots[h.steps[h.steps.length - 1] ?? -1];
  return {
    steps: h.steps,
    snapshots: h.snapshots,
    ...(last ? { step: last.step, containers: last.containers, features: last.features ?? {} } : {}),
  };
}

/** The parent's steps a fork's timeline starts with; none when they cannot be read (said in the toolbar). */
async function historyOf(origin: Partial<RunOrigin>): Promise<ParentHistory | null> {
  try {
    return await parentHistory({
      parent_run_id: origin.parent_run_id ?? null,
      parent_step: origin.parent_step ?? null,
    });
  } catch (e) {
    set({ error: `the parent run's steps could not be read: ${(e as Error).message}` });
    return null;
  }
}

/** The root graph of the active tab, canonical JSON (what a save would write), or null. */
export function graphToRun(): { graph: unknown; tabId: string } | null {
  const tab = activeTab(editorStore.getState());
  if (!tab) return null;
  return { graph: JSON.parse(formatGraphText(tab.graph)) as unknown, tabId: tab.id };
}

/**
 * A start replaces the server's current run. When that is a live run this tab does not show as its
 * own (another graph's, another tab's, started elsewhere), ask first.
 */
async function mayReplaceLiveRun(tabId: string, graphName: string): Promise<boolean> {
  const live = await runApi.status().catch(() => null);
  if (!live?.execution_id || (live.status !== 'running' && live.status !== 'paused')) return true;
  const s = runStore.getState();
  if (live.execution_id === s.runId && s.tabId === tabId) return true;
  const info = await runApi.run(live.execution_id).catch(() => null);
  const other = info?.graph_name || 'another graph';
  return askConfirm(
    `Run ${live.execution_id} of ${other} is ${live.status} at step ${live.step}. Stop run of ${other} and start this one (${graphName || 'untitled'})?`,
  );
}

async function startRun(paused: boolean): Promise<boolean> {
  const g = graphToRun();
  if (!g) return false;
  const before = runStore.getState().status;
  const name = (g.graph as { name?: string }).name ?? '';
  if (!(await mayReplaceLiveRun(g.tabId, name))) {
    set({ status: before });
    return false;
  }
  set({ status: 'starting', error: null });
  try {
    await loadBreakpoints(g.tabId);
    const r = await ownStart(
      () =>
        runApi.start({
          loop_definition: g.graph,
          step_delay_ms: runStore.getState().stepDelayMs,
          paused,
          breakpoints: breakpointsOf(g.tabId),
        }),
      (r) => r.execution_id,
    );
    followFresh(r.execution_id, g.tabId, paused ? 'paused' : 'running');
    return true;
  } catch (e) {
    set({ status: null });
    fail(e);
    pointAtIssues();
    return false;
  }
}

/**
 * A refused start of a graph the editor already flags: say so in words and open the Issues panel
 * (each issue there selects its node), rather than only the server's long 400 text.
 */
function pointAtIssues(): void {
  const errors = issuesOf(editorStore.getState()).all.filter((i) => i.severity === 'error');
  if (errors.length === 0) return;
  const detail = runStore.getState().error;
  set({
    error: `cannot run: ${errors.length} error${errors.length === 1 ? '' : 's'} in the graph, see Issues${detail ? ` (${detail})` : ''}`,
  });
  editorStore.getState().setDrawerTab('issues');
}

/** The followed run belongs to the active tab (or to no tab in particular). */
export function runIsOfActiveTab(): boolean {
  const { tabId } = runStore.getState();
  return tabId === null || tabId === editorStore.getState().activeTabId;
}

/** Play: resume a paused run of this tab, otherwise start a new run of the active tab. */
export async function play(): Promise<void> {
  const s = runStore.getState();
  if (s.status === 'paused' && runIsOfActiveTab()) {
    set({ error: null, inspectedStep: null, inspected: null });
    const seq = statusSeq();
    await runApi.resume().then(() => settle('running')(seq), fail);
    return;
  }
  await startRun(false);
}

export async function pause(): Promise<void> {
  const seq = statusSeq();
  await runApi.pause().then(() => settle('paused')(seq), fail);
}

/** Step: one root step of a paused run; with no live run, start one paused and step it. */
export async function stepOnce(): Promise<void> {
  const s = runStore.getState();
  if (!(s.status === 'paused' && runIsOfActiveTab()) && !(await startRun(true))) return;
  set({ error: null });
  await runApi.step().then(async (r) => {
    const { runId } = runStore.getState();
    if (r.status !== 'paused' || runId === null) return;
    // Paused again, as of the run's last event: its older status events (the engine's 'running' as
    // a paused-started run's first step begins, still on its way) must not show over that.
    const info = await runApi.run(runId).catch(() => null);
    if (info && runStore.getState().statusSeq <= info.last_seq)
      set({ status: 'paused', statusSeq: info.last_seq });
  }, fail);
}

export async function stop(): Promise<void> {
  const seq = statusSeq();
  await runApi.stop().then(() => settle('stopped')(seq), fail);
}

/** Reset: stop a live run and forget it (values vanish from boxes and panels). */
export async function reset(): Promise<void> {
  if (isActive(runStore.getState().status)) await runApi.stop().catch(() => undefined);
  liveClient().unfollow();
  runStore.setState({ ...initialRunState(), stepDelayMs: runStore.getState().stepDelayMs });
}

export async function setStepDelay(ms: number): Promise<void> {
  set({ stepDelayMs: ms });
  if (isActive(runStore.getState().status)) await runApi.delay(ms).catch(fail);
}

/** Inspect a step: show its values everywhere at once, then upgrade previews to full values. */
export async function inspect(step: number | null): Promise<void> {
  set({ inspectedStep: step, inspected: null });
  const { runId } = runStore.getState();
  if (step === null || runId === null) return;
  try {
    const full = await runApi.state(runId, step);
    if (runStore.getState().inspectedStep === step)
      set({ inspected: { step, containers: full.containers, nodeStates: full.nodeStates } });
  } catch (e) {
    // The streamed preview stays on screen; say why the full values are missing.
    fail(e);
  }
}

/** Restore the run to a step; it is left paused there and Play resumes from it. */
export async function restore(step: number): Promise<void> {
  const s = runStore.getState();
  if (s.runId === null) return;
  set({ error: null });
  try {
    const live = await runApi.status();
    if (
      live.execution_id === s.runId &&
      (live.status === 'running' || live.status === 'paused' || live.status === 'done')
    ) {
      if (live.status === 'running') await runApi.pause();
      await runApi.restoreCurrent(step);
    } else {
      // A past run (stopped, interrupted, opened by link) becomes the current one, paused at `step`.
      await runApi.restoreRun(s.runId, step);
    }
    set({ status: 'paused' });
  } catch (e) {
    fail(e);
  }
}

/**
 * The graph a fork of the followed run runs: its tab's graph as edited now (canonical JSON), or
 * undefined (the tab is closed: the run's own graph).
 */
export function forkGraph(): unknown {
  const { tabId } = runStore.getState();
  const tab = editorStore.getState().tabs.find((t) => t.id === tabId);
  return tab ? (JSON.parse(formatGraphText(tab.graph)) as unknown) : undefined;
}

/**
 * Fork: a new run starting from that step's state with `graph` (forkGraph), paused, followed from
 * its first event. Its calls are answered from the parent's recording until the first that differs.
 */
export async function fork(step: number, graph?: unknown): Promise<void> {
  const s = runStore.getState();
  if (s.runId === null) return;
  try {
    const r = await ownStart(
      () => runApi.fork(s.runId!, step, s.stepDelayMs, graph),
      (r) => r.run_id,
    );
    // A fork's steps up to its fork point are its parent's: read as a reload would read them, so
    // the new timeline is the same now and after one.
    const history = await historyOf({ parent_run_id: s.runId, parent_step: step });
    followFresh(r.run_id, s.tabId, 'paused', 0, history);
  } catch (e) {
    fail(e);
  }
}

/** `/?run=<id>`: open the graph the run executed in a tab and replay its whole log into the timeline. */
export async function openRun(runId: string): Promise<boolean> {
  try {
    const [info, raw] = await Promise.all([runApi.run(runId), runApi.graph(runId)]);
    const parsed = parseGraphInput(raw);
    if (!parsed.ok)
      throw new Error(`the graph of run ${runId} does not parse: ${parsed.errors[0]?.message ?? 'invalid'}`);
    const tabId = editorStore.getState().openTab({
      graph: parsed.graph,
      title: info.graph_name || parsed.graph.name || 'run',
      runId,
      loadWarnings: parsed.warnings,
    });
    followFresh(runId, tabId, info.status as RunState['status'], info.last_seq, await historyOf(info));
    setLineage(runId, info);
    editorStore.getState().setDrawerTab(TIMELINE_TAB);
    return true;
  } catch (e) {
    fail(e);
    editorStore.getState().showToast(`could not open run ${runId}: ${(e as Error).message}`, 'error');
    return false;
  }
}

/** The tab editing a graph of this name (the active one first), if any. */
function tabOfGraph(graphName: string): string | undefined {
  const { tabs, activeTabId } = editorStore.getState();
  const mine = tabs.filter((t) => t.graph.name === graphName);
  return (mine.find((t) => t.id === activeTabId) ?? mine[0])?.id;
}

/**
 * Follow a run (live, or a stored one) in the tab editing its graph: its whole log replays into the
 * timeline, then it streams. Without such a tab it opens like `/?run=<id>`.
 */
export async function followRun(runId: string): Promise<boolean> {
  try {
    const info = await runApi.run(runId);
    const tabId = tabOfGraph(info.graph_name);
    if (!tabId) return openRun(runId);
    editorStore.getState().setActiveTab(tabId);
    followFresh(runId, tabId, info.status as RunState['status'], info.last_seq, await historyOf(info));
    setLineage(runId, info);
    return true;
  } catch (e) {
    fail(e);
    return false;
  }
}

/** The newest stored run of a graph (by name), for the timeline of a reopened editor. */
async function latestRunOf(graphName: string): Promise<{ id: string; status: string } | undefined> {
  return (await runApi.listOfGraph(graphName, 1))[0];
}

/**
 * Called once after boot: honours `?run=<id>`, else re-attaches to a run still live on the server,
 * else shows the open graph's latest run (read-only: Play starts a new one; Runs lists older ones).
 */
export async function openRunFromLocation(search: string = window.location.search): Promise<void> {
  const runId = new URLSearchParams(search).get('run');
  if (runId) {
    await openRun(runId);
    return;
  }
  try {
    const live = await runApi.status();
    if (
      live.execution_id &&
      (live.status === 'running' || live.status === 'paused') &&
      runStore.getState().runId === null
    ) {
      set({ stepDelayMs: live.step_delay_ms ?? runStore.getState().stepDelayMs });
      // Show its values in the tab editing that graph (by name); unknown → every tab. A run of a
      // graph no open tab edits is not attached silently: a notice offers to follow it.
      const info = await runApi.run(live.execution_id).catch(() => null);
      const tabs = editorStore.getState().tabs;
      const tab = info ? tabs.find((t) => t.graph.name === info.graph_name) : undefined;
      // The user may have started or opened a run while these answers were on their way.
      if (runStore.getState().runId !== null) return;
      if (tab || !info || tabs.length === 0) {
        const history = info ? await historyOf(info) : null;
        if (runStore.getState().runId !== null) return;
        followFresh(live.execution_id, tab?.id ?? null, live.status, info?.last_seq ?? 0, history);
        return;
      }
      pushNotice({
        id: `run:${live.execution_id}`,
        kind: 'started',
        text: `Run ${live.execution_id} of graph ${info.graph_name || 'untitled'} is ${live.status} (started from elsewhere)`,
        runId: live.execution_id,
        graphName: info.graph_name,
        action: 'follow',
      });
    }
    const tab = activeTab(editorStore.getState());
    if (!tab || runStore.getState().runId !== null) return;
    const latest = await latestRunOf(tab.graph.name);
    if (!latest) return;
    const info = await runApi.run(latest.id);
    const history = await historyOf(info);
    if (runStore.getState().runId !== null) return;
    followFresh(latest.id, tab.id, info.status as RunState['status'], info.last_seq, history);
    setLineage(latest.id, info);
  } catch {
    // No server status: nothing to re-attach to.
  }
}
