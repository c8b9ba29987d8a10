// Run state, kept in its own vanilla zustand store apart from the editor document, so a streaming
// run re-renders only the components that select a piece of it (a slot's value line, the step
// counter) and never the graph document. The live/ handlers are the only writers of streamed data;
// run.actions.ts writes the user's choices (inspect a step, reset).
import type { BreakpointHit } from '../../domain/debug/breakpoints.ts';
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type {
  ContainerSnapshot,
  FeatureValues,
  RouteData,
  RunStatus,
} from '../../domain/protocol/protocol.ts';

export type RunStatusView = RunStatus | 'starting';

export interface SlotClear {
  container: string;
  slot: string;
  key?: string;
  signal: string;
  step: number;
  /** seq of the signal event; keys the "cleared by" flash so each clear flashes once. */
  seq: number;
}

export interface SlotWrite {
  node_id: string;
  container: string;
  slot: string;
  key?: string;
  reducer: string;
  before: unknown;
  after: unknown;
}

/** A signal other than step_start/step_end (episode_reset, episode_done, run_start…) seen in a step. */
export interface StepSignal {
  signal: string;
  scope: string;
  /** seq of the signal event (src/app/episodes/episodes.ts re-attributes by it when nav_steps were dropped). */
  seq: number;
}

/** What the timeline keeps per step (previews, as streamed; full values come from REST on inspect). */
export interface StepSnapshot {
  step: number;
  seq: number;
  containers: Record<string, ContainerSnapshot>;
  nodeStates: Record<string, unknown>;
  /** Routing features at the end of the step (absent when the graph declares none). */
  features?: FeatureValues;
  clears: SlotClear[];
  writes: SlotWrite[];
  errors: string[];
  signals?: StepSignal[];
}

export interface StepEvents {
  clears: SlotClear[];
  writes: SlotWrite[];
  errors: string[];
  signals?: StepSignal[];
}

export interface NodeRunStatus {
  status: 'idle' | 'queued' | 'running' | 'done' | 'error';
  step: number;
  duration_ms?: number;
  error?: string;
}

export interface RunLogLine {
  seq: number;
  level: 'info' | 'warn' | 'error';
  text: string;
  /** Set for exec_log lines (one node fire), so the Log panel can show columns and find the node. */
  exec?: {
    step: number;
    node_id: string;
    label: string;
    node_type: string;
    duration_ms: number;
    error: string | null;
    parent_node_id?: string;
  };
  /**
   * Set for error_event lines that name a node or a service (a node's report, an event a node
   * service pushed), so the Log panel shows the step, the node (a link) and who sent it.
   */
  event?: { step?: number; node_id?: string; service?: string; code: string; title: string; message: string };
  /**
   * Set for `effect` lines (a recorded LLM or service call): `reused` ones — a fork's call answered
   * from its parent's recording (docs/replay.md "Re-run without paying twice") — carry a badge.
   */
  effect?: { step: number; node_id: string; mode: string; from?: { run_id: string; key: string } };
}

/** The last event a node reported during the run (ctx.report, or pushed by its node service). */
export interface NodeReport {
  severity: 'error' | 'warning' | 'info' | 'debug';
  message: string;
  code: string;
  step?: number;
  /** How many events the node reported so far in this run. */
  count: number;
}

/** The latest viewer_data of a viewer node, as one short line for the node on the canvas. */
export interface ViewerLine {
  step: number;
  text: string;
  /** An array summary with a picture (Image Viewer), drawn in the node by NdArrayView. */
  picture?: unknown;
  /** Numeric fields of the payload (`reward`, `metrics.reward`…), for plotting over steps. */
  numbers?: Record<string, number>;
}

/** A `route` event (the edge a routing node's visit took from one of its ports, and why) and its seq. */
export type RouteTaken = RouteData & { seq: number };

/** A failed route decision (error_event ROUTE_*): the run ended and the step was not committed. */
export interface RouteFailure {
  seq: number;
  code: string;
  step: number;
  node_id: string;
  port: string;
  /** The edges the message names (the compatible ones when ambiguous, the candidates when none is). */
  edges: string[];
  message: string;
}

/** Full values of one step, fetched from GET /api/runs/{id}/state?step=N. */
export interface InspectedState {
  step: number;
  containers: Record<string, ContainerSnapshot>;
  nodeStates: Record<string, unknown>;
}

export interface RunState {
  runId: string | null;
  /** Editor tab whose graph this run executes (live values show only there); null = any tab. */
  tabId: string | null;
  status: RunStatusView | null;
  step: number;
  /** seq of the nav_step/restored that set `containers` (an older backfilled one must not win). */
  liveSeq: number;
  containers: Record<string, ContainerSnapshot>;
  /** Routing feature values, live (set with `containers`); `{}` when the graph declares none. */
  features: FeatureValues;
  /** Snapshots by step, ascending `steps` index for the timeline. */
  snapshots: Record<number, StepSnapshot>;
  steps: number[];
  nodeStatus: Record<string, NodeRunStatus>;
  /** The last reported event per node id (error_event with a node scope from the node itself). */
  nodeReports: Record<string, NodeReport>;
  /**
   * Warnings about a step, by that step (one a node reported; a node service's state not saved with
   * the step, or not put back on restore/fork): the timeline marks the tick, so time travel that could
   * not include a service is never silent.
   */
  stepWarnings: Record<number, string[]>;
  /** Latest viewer_data per viewer node id, already shortened to a line. */
  viewer: Record<string, ViewerLine>;
  /**
   * Every viewer line per viewer node, ascending by step (one per step), so inspecting an older
   * step shows what the viewer showed then. Append-only during a run (pushed in place: entries at
   * or before any step never change, which is all a reader selects); restore rebuilds it.
   */
  viewerHistory: Record<string, ViewerLine[]>;
  /** Latest clear per `container/slot`. */
  clears: Record<string, SlotClear>;
  /**
   * Writes, clears and errors by the step they belong to, waiting for that step's nav_step (all of
   * a step's events precede it). Keyed by step, not arrival order, so that when the server drops
   * intermediate nav_steps (backpressure) a backfilled one still gets its own attribution.
   */
  pending: Record<number, StepEvents>;
  log: RunLogLine[];
  inspectedStep: number | null;
  inspected: InspectedState | null;
  stepDelayMs: number;
  /** Last control/transport failure, shown in the toolbar. */
  error: string | null;
  /** The breakpoint the run is paused at (cleared when it runs again): highlights its slot and node. */
  breakpointHit: (BreakpointHit & { seq: number }) | null;
  /**
   * A step a breakpoint paused the run inside: its state there (the hit's write included, carried by
   * the breakpoint_hit event) and what the step did so far. Kept until that step's nav_step, a
   * restore, or the next hit inside it; while the run is live it is what the views show as the
   * current step (`shownPartial`, `liveStep`, `viewContainers`). Not in `steps`/`snapshots`: no
   * checkpoint exists for it, and a run that ends without finishing the step never had it.
   */
  partial: StepSnapshot | null;
  /** seq of the last nav_status applied: a control call's answer never overrides a newer one. */
  statusSeq: number;
  /** Routes taken, by step (the timeline's step view; the canvas while a step is inspected). */
  routes: Record<number, RouteTaken[]>;
  /** The latest route per routing port (key: routePortKey): the canvas marks, live. */
  lastRoute: Record<string, RouteTaken>;
  /** The route decision that ended the run, if one did (cleared by restore and by a new run). */
  routeFailure: RouteFailure | null;
}

export const LOG_LIMIT = 500;

export function initialRunState(): RunState {
  return {
    runId: null,
    tabId: null,
    status: null,
    step: 0,
    liveSeq: 0,
    containers: {},
    features: {},
    snapshots: {},
    steps: [],
    nodeStatus: {},
    nodeReports: {},
    stepWarnings: {},
    viewer: {},
    viewerHistory: {},
    clears: {},
    pending: {},
    log: [],
    inspectedStep: null,
    inspected: null,
    stepDelayMs: 200,
    error: null,
    breakpointHit: null,
    partial: null,
    statusSeq: 0,
    routes: {},
    lastRoute: {},
    routeFailure: null,
  };
}

export function createRunStore() {
  return createStore<RunState>()(() => initialRunState());
}

export const runStore = createRunStore();
export type RunStore = typeof runStore;
/** What a handler needs: read and patch. A batch passes a buffering stand-in with the same shape. */
export type RunStoreLike = Pick<RunStore, 'getState' | 'setState'>;

export function useRun<T>(selector: (s: RunState) => T): T {
  return useStore(runStore, selector);
}

/** The key of a routing port in `lastRoute`: node and source handle ("" is the default handle). */
export const routePortKey = (node: string, port: string): string => `${node}\u0000${port || 'default'}`;

export const clearKey = (container: string, slot: string) => `${container}/${slot}`;

/** The step the live run is paused inside at a breakpoint (or resumed from, until it completes), if any. */
export function shownPartial(s: RunState): StepSnapshot | null {
  return s.partial !== null && isActive(s.status) ? s.partial : null;
}

/** The run's current step as every view shows it: the one it is paused inside, else the last completed. */
export function liveStep(s: RunState): number {
  return shownPartial(s)?.step ?? s.step;
}

/** Containers the UI should show: the inspected step's (full values if fetched) or the live ones. */
export function viewContainers(s: RunState): Record<string, ContainerSnapshot> {
  if (s.inspectedStep === null) return shownPartial(s)?.containers ?? s.containers;
  if (s.inspected?.step === s.inspectedStep) return s.inspected.containers;
  return s.snapshots[s.inspectedStep]?.containers ?? s.containers;
}

/** Feature values the UI should show: the inspected step's, or the live ones. */
export function viewFeatures(s: RunState): FeatureValues {
  if (s.inspectedStep === null) return shownPartial(s)?.features ?? s.features;
  return s.snapshots[s.inspectedStep]?.features ?? s.features;
}

/** Inserts a step into an ascending list without duplicates (steps mostly arrive in order). */
export function withStep(steps: number[], step: number): number[] {
  const last = steps[steps.length - 1];
  if (last === undefined || step > last) return [...steps, step];
  if (steps.includes(step)) return steps;
  return [...steps, step].sort((a, b) => a - b);
}

export function isActive(status: RunStatusView | null): boolean {
  return status === 'running' || status === 'paused' || status === 'starting';
}

/** The viewer line a node shows: the inspected step's (latest at or before it) or the live one. */
export function viewerLineOf(s: RunState, nodeId: string): ViewerLine | undefined {
  if (s.inspectedStep === null) return s.viewer[nodeId];
  const history = s.viewerHistory[nodeId];
  if (!history) return undefined;
  // Binary search for the last entry with step <= inspectedStep.
  let lo = 0;
  let hi = history.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (history[mid]!.step <= s.inspectedStep) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? history[lo - 1] : undefined;
}
