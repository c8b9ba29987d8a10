// One handler per live event type: plain functions `(message, store) => void` that fold a server
// event into the run store. No socket here, so each is tested by calling it with a message.
// Each parses its payload with the protocol's zod schema (the socket is a boundary); a payload that
// does not parse becomes a log line naming the event and field instead of a crash.
import type { z } from 'zod';
import {
  EVENT_DATA_SCHEMAS,
  RunStatusSchema,
  type EventEnvelope,
  type EventType,
} from '../../domain/protocol/protocol.ts';
import { viewerLine, viewerPicture } from '../run/viewerLine.ts';
import { viewerNumbers } from '../run/viewerNumbers.ts';
import {
  clearKey,
  LOG_LIMIT,
  routePortKey,
  withStep,
  type RouteTaken,
  type RunLogLine,
  type RunState,
  type RunStoreLike,
  type SlotClear,
  type StepEvents,
  type StepSnapshot,
  type ViewerLine,
} from '../run/run.store.ts';

type Data<T extends EventType> = z.output<(typeof EVENT_DATA_SCHEMAS)[T]>;
export type Handler = (message: EventEnvelope, store: RunStoreLike) => void;

function parsed<T extends EventType>(type: T, message: EventEnvelope, store: RunStoreLike): Data<T> | null {
  const r = EVENT_DATA_SCHEMAS[type].safeParse(message.data);
  if (r.success) return r.data as Data<T>;
  const issue = r.error.issues[0];
  const path = issue?.path.length ? `$.data.${issue.path.join('.')}` : '$.data';
  pushLog(store, {
    seq: message.seq,
    level: 'error',
    text: `bad ${type} event (seq ${message.seq}) at ${path}: ${issue?.message ?? 'invalid'}`,
  });
  return null;
}

// Copy-on-write once per batch: inside applyBatch, a collection copied by this batch is not yet
// visible to any subscriber, so later events of the same batch may add to it in place. Outside a
// batch (a handler called alone) every change copies. Without this, a long run costs O(steps) per
// nav_step (spreading the snapshot map), i.e. quadratic.
let owned: WeakSet<object> | null = null;

function own<T extends object>(obj: T, copy: (o: T) => T): T {
  if (owned?.has(obj)) return obj;
  const c = copy(obj);
  owned?.add(c);
  return c;
}

const copyArray = <T>(a: T[]): T[] => a.slice();
const copyRecord = <T extends object>(r: T): T => ({ ...r });

function pushLog(store: RunStoreLike, line: RunLogLine): void {
  const log = own(store.getState().log, copyArray);
  log.push(line);
  if (log.length > LOG_LIMIT + 100) log.splice(0, log.length - LOG_LIMIT);
  store.setState({ log });
}

/** How many steps back a step's events wait for its (backfilled) nav_step. */
const PENDING_HORIZON = 1000;

function addPending<K extends keyof StepEvents>(
  store: RunStoreLike,
  step: number,
  kind: K,
  item: NonNullable<StepEvents[K]>[number],
): void {
  const pending = own(store.getState().pending, copyRecord);
  const cur = pending[step];
  const next: StepEvents =
    cur && owned?.has(cur)
      ? cur
      : {
          clears: [...(cur?.clears ?? [])],
          writes: [...(cur?.writes ?? [])],
          errors: [...(cur?.errors ?? [])],
          ...(cur?.signals ? { signals: [...cur.signals] } : {}),
        };
  owned?.add(next);
  if (kind === 'signals') next.signals ??= [];
  (next[kind] as NonNullable<StepEvents[K]>[number][]).push(item);
  pending[step] = next;
  store.setState({ pending });
}

const onNavStatus: Handler = (m, store) => {
  const d = parsed('nav_status', m, store);
  if (!d) return;
  // History replayed after following a run: the status it had then is not the status it has now.
  if (m.seq > store.getState().statusSeq)
    store.setState({
      status: d.status,
      statusSeq: m.seq,
      step: d.step > 0 || d.status !== 'idle' ? d.step : store.getState().step,
      // Running again (or ended): the breakpoint it was paused at is behind it.
      ...(d.status !== 'paused' ? { breakpointHit: null } : {}),
    });
  pushLog(store, {
    seq: m.seq,
    level: d.status === 'error' ? 'error' : 'info',
    text: `run ${d.status} at step ${d.step}${d.error ? `: ${d.error}` : ''}`,
  });
};

const onNavStep: Handler = (m, store) => {
  const d = parsed('nav_step', m, store);
  if (!d) return;
  const s = store.getState();
  // The step a breakpoint paused inside is complete: the run has moved past the hit.
  const hit = s.breakpointHit;
  if (hit && m.seq > hit.seq && d.step >= hit.step) store.setState({ breakpointHit: null });
  // The step it was paused inside is complete: its own snapshot takes over.
  if (s.partial && d.step >= s.partial.step) store.setState({ partial: null });
  const mine = s.pending[d.step];
  const snap: StepSnapshot = {
    step: d.step,
    seq: m.seq,
    containers: d.containers,
    nodeStates: d.nodeStates,
    ...(Object.keys(d.features).length > 0 ? { features: d.features } : {}),
    clears: mine?.clears ?? [],
    writes: mine?.writes ?? [],
    errors: mine?.errors ?? [],
    ...(mine?.signals ? { signals: mine.signals } : {}),
  };
  const pending = own(s.pending, copyRecord);
  delete pending[d.step];
  // Events of long-gone steps whose nav_step never came back: let them go.
  for (const k of Object.keys(pending)) if (Number(k) < d.step - PENDING_HORIZON) delete pending[Number(k)];
  const snapshots = own(s.snapshots, copyRecord);
  snapshots[d.step] = snap;
  const last = s.steps[s.steps.length - 1];
  let steps: number[];
  if (last === undefined || d.step > last) {
    steps = own(s.steps, copyArray);
    steps.push(d.step);
  } else steps = withStep(s.steps, d.step);
  const patch: Partial<RunState> = {
    snapshots,
    steps,
    pending,
  };
  // A backfilled (older) nav_step fills the timeline but must not roll the live view back.
  if (m.seq >= s.liveSeq)
    Object.assign(patch, { containers: d.containers, features: d.features, step: d.step, liveSeq: m.seq });
  store.setState(patch);
};

const onNavComplete: Handler = (m, store) => {
  const d = parsed('nav_complete', m, store);
  if (!d) return;
  const replayed = m.seq <= store.getState().statusSeq;
  store.setState({
    ...(replayed ? {} : { status: 'done' as const, statusSeq: m.seq }),
    step: Math.max(d.step, store.getState().step),
  });
  pushLog(store, { seq: m.seq, level: 'info', text: `run complete at step ${d.step}` });
};

const onNodeStatus: Handler = (m, store) => {
  const d = parsed('node_status', m, store);
  if (!d) return;
  const { node_id, ...rest } = d;
  const nodeStatus = own(store.getState().nodeStatus, copyRecord);
  nodeStatus[node_id] = rest;
  store.setState({ nodeStatus });
};

const onSignal: Handler = (m, store) => {
  const d = parsed('signal', m, store);
  if (!d) return;
  const s = store.getState();
  // step_end names its step; other signals (episode_reset…) belong to the step in progress.
  const step =
    typeof (d.payload as { step?: unknown } | undefined)?.step === 'number'
      ? (d.payload as { step: number }).step
      : s.step + 1;
  // Signals other than the per-step pair are kept with their step (timeline labels, episodes).
  if (d.signal !== 'step_start' && d.signal !== 'step_end')
    addPending(store, step, 'signals', { signal: d.signal, scope: d.scope, seq: m.seq });
  if (d.cleared.length === 0) return;
  const clears = own(s.clears, copyRecord);
  const list: SlotClear[] = [];
  for (const c of d.cleared) {
    const rec: SlotClear = { ...c, signal: d.signal, step, seq: m.seq };
    clears[clearKey(c.container, c.slot)] = rec;
    list.push(rec);
  }
  store.setState({ clears });
  for (const c of list) addPending(store, step, 'clears', c);
};

const onStateWritten: Handler = (m, store) => {
  const d = parsed('state_written', m, store);
  if (!d) return;
  const { step: _step, grant_id: _grant, ...write } = d;
  void _step;
  void _grant;
  addPending(store, d.step, 'writes', write);
};

const onExecLog: Handler = (m, store) => {
  const d = parsed('exec_log', m, store);
  if (!d) return;
  pushLog(store, {
    seq: m.seq,
    level: d.error ? 'error' : 'info',
    text: `step ${d.step} · ${d.node_label || d.node_id} (${d.node_type}) ${d.duration_ms} ms${d.error ? ` — ${d.error}` : ''}`,
    exec: {
      step: d.step,
      node_id: d.node_id,
      label: d.node_label || d.node_id,
      node_type: d.node_type,
      duration_ms: d.duration_ms,
      error: d.error,
      ...(d.parent_node_id ? { parent_node_id: d.parent_node_id } : {}),
    },
  });
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

const onError: Handler = (m, store) => {
  const d = parsed('error_event', m, store);
  if (!d) return;
  const text = `${d.title}: ${d.message}`;
  const nodeId = str(d.scope.node_id);
  const service = str(d.scope.service) ?? str(d.details.service);
  const step = typeof d.scope.step === 'number' ? d.scope.step : undefined;
  pushLog(store, {
    seq: m.seq,
    level: d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warn' : 'info',
    text,
    ...(nodeId || service
      ? { event: { step, node_id: nodeId, service, code: d.code, title: d.title, message: d.message } }
      : {}),
  });
  // What a node itself reported (its ctx.report, or an event its node service pushed) shows on it.
  if (nodeId && d.source === 'node') {
    const reports = own(store.getState().nodeReports, copyRecord);
    const count = (reports[nodeId]?.count ?? 0) + 1;
    reports[nodeId] = { severity: d.severity, message: d.message, code: d.code, step, count };
    store.setState({ nodeReports: reports });
  }
  if (d.severity === 'warning' && step !== undefined) {
    const warnings = own(store.getState().stepWarnings, copyRecord);
    warnings[step] = [...(warnings[step] ?? []), text];
    store.setState({ stepWarnings: warnings });
  }
  if (d.severity === 'error' && m.seq > 0) {
    addPending(store, store.getState().step + 1, 'errors', text);
  }
  if (d.severity === 'error' && d.code.startsWith('ROUTE_')) onRouteFailure(m.seq, d, store);
};

/** A failed route decision: which node, port and edges, for the canvas and its notice. */
function onRouteFailure(seq: number, d: Data<'error_event'>, store: RunStoreLike): void {
  const det = d.details as { node_id?: unknown; port?: unknown; edges?: unknown };
  const str = (v: unknown, dflt: string) => (typeof v === 'string' ? v : dflt);
  store.setState({
    routeFailure: {
      seq,
      code: d.code,
      step: typeof d.scope.step === 'number' ? d.scope.step : store.getState().step + 1,
      node_id: str(det.node_id, str(d.scope.node_id, '')),
      port: str(det.port, 'default'),
      edges: Array.isArray(det.edges) ? det.edges.filter((x): x is string => typeof x === 'string') : [],
      message: d.message,
    },
  });
}

/** A breakpoint hit: the run pauses (its nav_status follows); the Log says which and who wrote. */
const onBreakpointHit: Handler = (m, store) => {
  const d = parsed('breakpoint_hit', m, store);
  if (!d) return;
  const { state, ...hit } = d;
  const s = store.getState();
  store.setState({
    breakpointHit: { ...hit, seq: m.seq },
    // Paused inside a step the run has not completed: the state there is the current one.
    ...(state && d.step > s.step ? { partial: partialStep(m.seq, state, s.pending[d.step]) } : {}),
  });
  const where = d.kind === 'node' ? '' : d.node_id ? `, written by ${d.node_id}` : '';
  pushLog(store, {
    seq: m.seq,
    level: 'warn',
    text: `breakpoint hit: ${d.description} (step ${d.step}${where})`,
  });
};

/** A step paused inside: the state the hit carried, with what the step did up to it. */
function partialStep(
  seq: number,
  state: NonNullable<Data<'breakpoint_hit'>['state']>,
  mine: StepEvents | undefined,
): StepSnapshot {
  return {
    step: state.step,
    seq,
    containers: state.containers,
    nodeStates: state.nodeStates,
    ...(Object.keys(state.features).length > 0 ? { features: state.features } : {}),
    clears: [...(mine?.clears ?? [])],
    writes: [...(mine?.writes ?? [])],
    errors: [...(mine?.errors ?? [])],
    ...(mine?.signals ? { signals: [...mine.signals] } : {}),
  };
}

/** Restore rewinds the run: the live view jumps to that step and the later steps are gone (they will be re-run). */
const onRestored: Handler = (m, store) => {
  const d = parsed('restored', m, store);
  if (!d) return;
  const s = store.getState();
  const snapshots: Record<number, StepSnapshot> = {};
  for (const st of s.steps) if (st <= d.restored_to && s.snapshots[st]) snapshots[st] = s.snapshots[st];
  if (!snapshots[d.restored_to])
    snapshots[d.restored_to] = {
      step: d.restored_to,
      seq: m.seq,
      containers: d.containers,
      nodeStates: d.nodeStates,
      ...(Object.keys(d.features).length > 0 ? { features: d.features } : {}),
      clears: [],
      writes: [],
      errors: [],
    };
  // Viewers go back to what they showed at the restored step (later lines will be re-run).
  const viewerHistory: Record<string, ViewerLine[]> = {};
  const viewer: Record<string, ViewerLine> = {};
  for (const [id, lines] of Object.entries(s.viewerHistory)) {
    const kept = lines.filter((l) => l.step <= d.restored_to);
    if (kept.length === 0) continue;
    viewerHistory[id] = kept;
    viewer[id] = kept[kept.length - 1]!;
  }
  // Routes after the restored step will be taken again (or not): only the kept steps' stay.
  const routes: Record<number, RouteTaken[]> = {};
  const lastRoute: Record<string, RouteTaken> = {};
  for (const [st, list] of Object.entries(s.routes)) {
    if (Number(st) > d.restored_to) continue;
    routes[Number(st)] = list;
    for (const r of list) {
      const key = routePortKey(r.node_id, r.port);
      if ((lastRoute[key]?.seq ?? -1) < r.seq) lastRoute[key] = r;
    }
  }
  store.setState({
    viewer,
    viewerHistory,
    routes,
    lastRoute,
    routeFailure: null,
    containers: d.containers,
    features: d.features,
    step: d.restored_to,
    liveSeq: m.seq,
    snapshots,
    steps: s.steps
      .filter((st) => st <= d.restored_to)
      .concat(s.steps.includes(d.restored_to) ? [] : [d.restored_to])
      .sort((a, b) => a - b),
    pending: {},
    partial: null,
    inspectedStep: null,
    inspected: null,
  });
  pushLog(store, { seq: m.seq, level: 'info', text: `restored to step ${d.restored_to}` });
};

const onEffect: Handler = (m, store) => {
  const d = parsed('effect', m, store);
  if (!d) return;
  const from = d.mode === 'reused' && d.from ? ` from run ${d.from.run_id}` : '';
  pushLog(store, {
    seq: m.seq,
    level: 'info',
    text: `step ${d.step} · ${d.node_id}: effect ${d.mode}${from}`,
    effect: { step: d.step, node_id: d.node_id, mode: d.mode, ...(d.from ? { from: d.from } : {}) },
  });
};

const onLlmUsage: Handler = (m, store) => {
  const d = parsed('llm_usage', m, store);
  if (d)
    pushLog(store, {
      seq: m.seq,
      level: 'info',
      text: `step ${d.step} · ${d.node_id}: llm ${JSON.stringify(d.usage)}`,
    });
};

/**
 * A route decision: kept by step (the timeline's step view) and as the latest of its port (the
 * canvas flashes the taken edge and dims the others until that port routes again); one Log line.
 */
const onRoute: Handler = (m, store) => {
  const d = parsed('route', m, store);
  if (!d) return;
  const s = store.getState();
  const rec: RouteTaken = { ...d, seq: m.seq };
  const routes = own(s.routes, copyRecord);
  const list = routes[d.step];
  const next = list && owned?.has(list) ? list : [...(list ?? [])];
  owned?.add(next);
  next.push(rec);
  routes[d.step] = next;
  const key = routePortKey(d.node_id, d.port);
  const patch: Partial<RunState> = { routes };
  // A backfilled older route fills its step but does not replace what the canvas shows.
  if ((s.lastRoute[key]?.seq ?? -1) < m.seq) {
    const lastRoute = own(s.lastRoute, copyRecord);
    lastRoute[key] = rec;
    patch.lastRoute = lastRoute;
  }
  store.setState(patch);
  const target = d.candidates.find((c) => c.edge_id === d.edge_id)?.target;
  pushLog(store, {
    seq: m.seq,
    level: 'info',
    text: `step ${d.step} · ${d.node_id} routed to ${target ?? d.edge_id} (edge ${d.edge_id}): ${d.reason}`,
  });
};

/** How many of a viewer's newest lines keep their picture (see onViewerData). */
export const PICTURE_HISTORY = 100;

/**
 * A viewer node's latest payload, kept as one short line (the node shows it; older steps never win),
 * and appended to that node's history for inspecting earlier steps.
 */
const onViewerData: Handler = (m, store) => {
  const d = parsed('viewer_data', m, store);
  if (!d) return;
  const picture = viewerPicture(d.fields);
  const numbers = viewerNumbers(d.fields);
  const line: ViewerLine = {
    step: d.step,
    text: viewerLine(d.fields),
    ...(picture !== undefined ? { picture } : {}),
    ...(numbers ? { numbers } : {}),
  };
  const s = store.getState();
  const history = s.viewerHistory[d.node_id];
  const lastStep = history?.[history.length - 1]?.step;
  // Pictures are kept for the newest PICTURE_HISTORY lines only (a long run would otherwise hold
  // every frame's PNG); older lines keep their text.
  if (history && picture !== undefined && history.length >= PICTURE_HISTORY) {
    const old = history[history.length - PICTURE_HISTORY];
    if (old?.picture !== undefined)
      history[history.length - PICTURE_HISTORY] = {
        step: old.step,
        text: old.text,
        ...(old.numbers ? { numbers: old.numbers } : {}),
      };
  }
  if (!history) {
    const viewerHistory = own(s.viewerHistory, copyRecord);
    viewerHistory[d.node_id] = [line];
    store.setState({ viewerHistory });
  } else if (lastStep === undefined || d.step > lastStep) {
    history.push(line); // append-only; see RunState.viewerHistory
  } else if (d.step === lastStep) {
    history[history.length - 1] = line;
  } else {
    // A backfilled older step: insert in order (rare), as a new array.
    const viewerHistory = own(s.viewerHistory, copyRecord);
    viewerHistory[d.node_id] = history
      .filter((l) => l.step !== d.step)
      .concat(line)
      .sort((a, b) => a.step - b.step);
    store.setState({ viewerHistory });
  }
  const prev = s.viewer[d.node_id];
  if (prev && prev.step > d.step) return;
  const viewer = own(s.viewer, copyRecord);
  viewer[d.node_id] = line;
  store.setState({ viewer });
};

/** The run's last event: its outputs, as one log line (status and state came with earlier events). */
const onRunResult: Handler = (m, store) => {
  const d = parsed('run_result', m, store);
  if (!d) return;
  const outputs = Object.keys(d.outputs).length > 0 ? ` · outputs ${JSON.stringify(d.outputs)}` : '';
  pushLog(store, {
    seq: m.seq,
    level: d.status === 'error' ? 'error' : 'info',
    text: `result: ${d.status} after ${d.steps} step${d.steps === 1 ? '' : 's'}${outputs.slice(0, 300)}`,
  });
};

// `gap` is handled by the live client itself.
const ignore: Handler = () => undefined;

export const HANDLERS: Record<EventType, Handler> = {
  nav_status: onNavStatus,
  nav_step: onNavStep,
  nav_complete: onNavComplete,
  node_status: onNodeStatus,
  signal: onSignal,
  state_written: onStateWritten,
  exec_log: onExecLog,
  viewer_data: onViewerData,
  error_event: onError,
  restored: onRestored,
  gap: ignore,
  effect: onEffect,
  llm_usage: onLlmUsage,
  run_result: onRunResult,
  breakpoint_hit: onBreakpointHit,
  route: onRoute,
};

/** A run's status as GET /api/runs/{id} reports it, as of its event `last_seq`. */
export interface RunStatusRow {
  status: string;
  last_seq: number;
}

/**
 * The status a run's row has, when no newer nav_status was applied: a server that restarted marks
 * the runs it found live `interrupted` in their rows only (their logs end where the crash cut them).
 */
export function applyRunStatus(row: RunStatusRow, store: RunStoreLike): void {
  const status = RunStatusSchema.safeParse(row.status);
  const s = store.getState();
  if (!status.success || row.last_seq < s.statusSeq || status.data === s.status) return;
  store.setState({
    status: status.data,
    statusSeq: row.last_seq,
    ...(status.data !== 'paused' ? { breakpointHit: null } : {}),
  });
  pushLog(store, {
    seq: row.last_seq,
    level: 'info',
    text: `run is ${status.data} (read again after reconnecting)`,
  });
}

/**
 * Applies a batch with ONE store update: handlers write into a buffering stand-in, and the result
 * is committed once (so a frame's worth of events costs one notification to subscribers).
 */
export function applyBatch(messages: readonly EventEnvelope[], store: RunStoreLike): void {
  if (messages.length === 0) return;
  owned = new WeakSet();
  let state = store.getState();
  let changed = false;
  const buffer: RunStoreLike = {
    getState: () => state,
    setState: (partial) => {
      const patch = typeof partial === 'function' ? partial(state) : partial;
      state = { ...state, ...patch };
      changed = true;
    },
  } as RunStoreLike;
  try {
    for (const m of messages) HANDLERS[m.type](m, buffer);
  } finally {
    owned = null;
  }
  if (changed) store.setState(state);
}
