// The executor (docs/reference-system.md §3.1–3.5): the step loop — FIFO firing, readiness, routing,
// per-scope budgets, after-loop band, runaway cap, error routing — and the root step boundary where
// nav_step is emitted and a checkpoint taken. What iterIn and iterOut do, and how a loop scope ends, is
// in loopPivots.ts (called from here, calling back through StepLoop); the live state's shape is in
// liveState.ts.
//
// Differences from the reference, on purpose:
// - the root boundary settles queued nodes *before* the snapshot, the snapshot is taken *before*
//   step_end (so step slots are visible) and the checkpoint after hand-off (so resume is exact);
// - step signals carry their scope and only clear containers of that scope;
// - an iterIn with no incoming edge is an entry node (a loop without init wires still starts);
// - a DAG run is one step and emits one nav_step;
// - an iterIn also outputs `iteration`, its own loop's count (`step` is the root count, as the reference);
// - conditional routing (routing.ts, docs/routing.md): features in the live state, exactly one
//   compatible edge per routed port, and a failed route ends the run with the step not committed.
import type { ClearedRef } from '../domain/protocol/protocol.ts';
import type { EdgeDef, NodeDef } from '../domain/graph/graph.schema.ts';
import type { RunContext } from './runContext.ts';
import { GRAPH_SCOPE } from './scopes.ts';
import { deepFreeze } from './freeze.ts';
import { makeContainerView } from './grants.ts';
import { aggregate, childId, FORBIDDEN_CHILD_TYPES, type FireList } from './dynamic.ts';
import type { HandlerResult, NodeContext, NodeReport } from './handler.types.ts';
import { makeEffect } from './effects.ts';
import { snapshotContainers } from './snapshot.ts';
import type { ContainerState } from './container.ts';
import type { RunResultData } from '../domain/protocol/protocol.ts';
import { buildRunResult, type RunEnd } from './runResult.ts';
import { hitOf, nodeHitOf, type BreakpointHit } from '../domain/debug/breakpoints.ts';
import type { StepOutcome } from './run.api.ts';
import { RouteError, Router, type Visit } from './routing.ts';
import { captureLive, thawLive } from './checkpoint.ts';
import type { LiveState } from './liveState.ts';
import { LoopPivots } from './loopPivots.ts';

const ACTION_NAMES = ['STOP', 'FORWARD', 'TURN_LEFT', 'TURN_RIGHT'];

export class Executor {
  live: LiveState;
  private stopRequested = false;
  /** Aborts the fires in flight when a stop is requested (NodeContext.signal). */
  private aborter = new AbortController();
  private boundaryReached = false;

  /** A data breakpoint hit by an event, waiting for the engine's next chance to pause. */
  private pendingHit: BreakpointHit | undefined;

  private readonly router: Router;
  private readonly pivots: LoopPivots;
  /** The state a failed route rolls back to: as the current root step began (routing graphs only). */
  private committed: { live: LiveState; states: Map<string, ContainerState> } | undefined;

  constructor(private readonly rc: RunContext) {
    this.live = rc.initialLive();
    this.router = new Router(rc.flat.features, [...rc.outEdges.values()].flat(), rc.grants, rc.containers);
    this.pivots = new LoopPivots(rc, {
      live: () => this.live,
      currentStep: () => this.currentStep(),
      isFinished: () => this.isFinished(),
      enqueue: (id) => this.enqueue(id),
      signal: (name, scope, payload) => this.signal(name, scope, payload),
      fire: (id) => this.fire(id),
      routeOutputs: (id, result) => void this.routeVisit(id, result, undefined),
      logFire: (node, step, error) => this.logFire(node, step, error),
      rootBoundary: (before, cleared) => this.rootBoundary(before, cleared),
    });
    const host = rc.options.breakpoints;
    if (host)
      rc.observer = (event) => {
        if (this.pendingHit || (event.type !== 'state_written' && event.type !== 'signal')) return;
        const bps = host.list();
        if (bps.length > 0) this.pendingHit = hitOf(bps, event, this.currentStep());
      };
  }

  /**
   * Before a node fires: a data breakpoint hit by earlier events, or a node breakpoint on this node,
   * pauses here (the host resolves when the user resumes or steps). True when a stop came meanwhile.
   */
  private async breakGate(nodeId: string): Promise<boolean> {
    const host = this.rc.options.breakpoints;
    if (!host) return false;
    // A data hit waits past loop pivots (they run no user code): before a root iterOut it is then
    // taken at the step boundary, where the pause is an ordinary, restorable one.
    const type = this.rc.nodes.get(nodeId)?.type;
    const pivot = type === 'iterIn' || type === 'iterOut';
    const nodeHit = nodeHitOf(host.list(), nodeId, this.currentStep());
    const hit = nodeHit ?? (pivot ? undefined : this.pendingHit);
    if (hit === this.pendingHit || (nodeHit && this.pendingHit)) this.pendingHit = undefined;
    if (!hit) return false;
    // Paused inside the step: the event carries the state here, so a viewer shows what the hit did
    // rather than the last completed step (protocol.ts, BreakpointHitEventSchema).
    this.rc.emit({ type: 'breakpoint_hit', data: { ...hit, state: this.stateInStep(hit.step) } });
    await host.pause(hit);
    return this.stopRequested;
  }

  /** The state as it is now, inside step `step`: containers, node-local state and features. */
  private stateInStep(step: number) {
    return {
      step,
      containers: snapshotContainers(this.rc.containers),
      nodeStates: { ...this.live.nodeStates },
      features: this.router.normalize(this.live.features),
    };
  }

  /** A hit left by a step's last events: reported, and handed to the host to pause between steps. */
  private takeHit(): BreakpointHit | undefined {
    const hit = this.pendingHit;
    this.pendingHit = undefined;
    if (hit) this.rc.emit({ type: 'breakpoint_hit', data: hit });
    return hit;
  }

  /** The run has ended (read through a method: a fire may end it while a caller holds a narrowed phase). */
  private isFinished(): boolean {
    return this.live.phase === 'finished';
  }

  requestStop(): void {
    this.stopRequested = true;
    this.aborter.abort(new Error('the run was stopped'));
  }

  /** After a restore the run may continue, even if a stop had been requested before. */
  clearStop(): void {
    this.stopRequested = false;
    if (this.aborter.signal.aborted) this.aborter = new AbortController();
  }

  /** Runs until one root step completes or the run finishes. */
  async stepOnce(): Promise<StepOutcome> {
    const L = this.live;
    if (L.phase === 'finished') return { done: true };
    if (L.phase === 'init') this.start();
    L.status = 'running';
    this.boundaryReached = false;
    if (this.router.active)
      this.committed = {
        live: captureLive(L),
        states: new Map([...this.rc.containers].map(([id, c]) => [id, c.state])),
      };
    for (;;) {
      if (this.stopRequested) {
        this.finish('stopped');
        return { done: true };
      }
      const id = L.queue.shift();
      if (id === undefined) {
        await this.drained();
        return { done: true };
      }
      if (L.firings >= this.rc.maxFirings) {
        L.errors.push({ node_id: '', message: `runaway cap reached: ${this.rc.maxFirings} firings` });
        await this.drained();
        return { done: true };
      }
      await this.fire(id);
      if (this.isFinished()) return { done: true }; // a failed route ended the run
      if (this.boundaryReached && !L.rootTerminated) {
        const breakpoint = this.takeHit();
        return breakpoint ? { done: false, breakpoint } : { done: false };
      }
    }
  }

  private start(): void {
    const L = this.live;
    L.phase = 'loop';
    L.status = 'running';
    this.rc.emit({ type: 'nav_status', data: { status: 'running', step: 0 } });
    this.signal('run_start', GRAPH_SCOPE, { graph_name: this.rc.flat.name });
    // Every executable node starts idle, so a viewer knows the whole cast before anything fires.
    for (const n of this.rc.nodes.values()) {
      if (n.type === 'note') continue;
      this.rc.emit({ type: 'node_status', data: { node_id: n.id, status: 'idle', step: 0 } });
    }
    for (const id of this.rc.entries) this.enqueue(id);
  }

  private currentStep(): number {
    const settling = this.pivots.settlingStep;
    if (settling !== undefined) return settling;
    return this.live.phase === 'after' || this.live.rootTerminated ? this.live.step : this.live.step + 1;
  }

  private enqueue(id: string): void {
    if (this.live.queue.includes(id)) return;
    this.live.queue.push(id);
    this.rc.emit({ type: 'node_status', data: { node_id: id, status: 'queued', step: this.currentStep() } });
  }

  signal(name: string, scope: string, payload?: unknown): ClearedRef[] {
    const cleared: ClearedRef[] = [];
    for (const c of this.rc.containers.values()) cleared.push(...c.onSignal(name, scope));
    this.rc.emit({
      type: 'signal',
      data: { signal: name, scope, ...(payload !== undefined ? { payload } : {}), cleared },
    });
    return cleared;
  }

  /** A node's own report (a service's pushed event): an error_event that does not fail the node. */
  private reportForNode(nodeId: string, e: NodeReport): void {
    const L = this.live;
    L.errorCount += 1;
    this.rc.emit({
      type: 'error_event',
      data: {
        id: `${this.rc.runId}-err-${L.errorCount}`,
        ts: new Date(this.rc.now()).toISOString(),
        severity: e.severity,
        source: 'node',
        code: e.code ?? 'NODE_REPORT',
        title: `Node '${nodeId}' reports`,
        message: e.message,
        scope: { node_id: nodeId, step: this.currentStep() },
        details: e.details ?? {},
        hint: '',
      },
    });
  }

  private recordError(
    nodeId: string,
    message: string,
    code: string,
    details: Record<string, unknown> = {},
  ): void {
    const L = this.live;
    L.errorCount += 1;
    const node = this.rc.nodes.get(nodeId);
    const where = this.rc.flat.compositePath.get(nodeId);
    this.rc.emit({
      type: 'error_event',
      data: {
        id: `${this.rc.runId}-err-${L.errorCount}`,
        ts: new Date(this.rc.now()).toISOString(),
        severity: 'error',
        source: nodeId ? 'node' : 'graph',
        code,
        title: nodeId ? `Node '${nodeId}' failed` : 'Run failed',
        message: nodeId ? `node '${nodeId}' (type ${node?.type ?? '?'}) failed: ${message}` : message,
        scope: { node_id: nodeId, step: this.currentStep(), ...(where ? { composite: where } : {}) },
        details,
        hint: '',
      },
    });
  }

  // ---- firing ----

  private async fire(id: string): Promise<void> {
    const rc = this.rc;
    const L = this.live;
    const node = rc.nodes.get(id);
    if (!node || L.phase === 'finished') return;
    const scope = rc.scopes.scopeOf.get(id) ?? GRAPH_SCOPE;
    const pivot = node.type === 'iterIn' || node.type === 'iterOut';
    // After root termination only the graph-scope after-loop band may fire.
    if (L.rootTerminated && (scope !== GRAPH_SCOPE || pivot)) {
      delete L.pending[id];
      return;
    }
    // Guard 1: a terminated inner scope drops inputs until re-entry (iterIn/graphIn exempt).
    if (
      scope !== GRAPH_SCOPE &&
      L.scopes[scope]?.terminated &&
      node.type !== 'iterIn' &&
      node.type !== 'graphIn'
    ) {
      delete L.pending[id];
      return;
    }
    if (await this.breakGate(id)) {
      L.queue.unshift(id); // stopped at the breakpoint: the node did not fire
      return;
    }
    L.firings += 1;
    if (node.type === 'iterIn') return this.pivots.fireIterIn(node);
    if (node.type === 'iterOut') return this.pivots.fireIterOut(node);
    await this.fireHandler(node, scope);
  }

  private async fireHandler(node: NodeDef, scope: string): Promise<void> {
    const rc = this.rc;
    const L = this.live;
    const inputs = L.pending[node.id] ?? {};
    delete L.pending[node.id];
    const step = this.currentStep();
    rc.emit({ type: 'node_status', data: { node_id: node.id, status: 'running', step } });
    const t0 = rc.now();
    let outputs: Record<string, unknown>;
    let error: string | null = null;
    const declaresError = rc.outputPorts(node).some((p) => p.name === 'error');
    const visit = this.beginVisit(node.id);
    const signal = this.aborter.signal;
    try {
      const registered = rc.registry.get(node.type);
      if (!registered) throw new Error(`no handler for node type '${node.type}'`);
      const res = (await registered.handler.fire(
        inputs,
        this.context(node, scope, inputs, L.nodeStates[node.id], visit, signal),
      )) as HandlerResult | undefined;
      if (signal.aborted) throw signal.reason;
      if (typeof res !== 'object' || res === null) {
        throw new Error(`handler returned ${String(res)}; expected {outputs, state?}`);
      }
      outputs = typeof res.outputs === 'object' && res.outputs !== null ? res.outputs : {};
      if (res.state !== undefined) L.nodeStates[node.id] = deepFreeze(res.state);
      if (res.fireList)
        outputs = { ...outputs, ...(await this.fireChildren(node, scope, res.fireList, visit)) };
      if (typeof outputs.error === 'string' && outputs.error && !declaresError) {
        error = outputs.error;
        L.errors.push({ node_id: node.id, message: error });
        this.recordError(node.id, error, 'NODE_RESULT_ERROR');
      }
    } catch (e) {
      if (signal.aborted) return this.unfire(node.id, inputs, step);
      error = e instanceof Error ? e.message : String(e);
      outputs = { error };
      if (!declaresError) L.errors.push({ node_id: node.id, message: error });
      this.recordError(node.id, error, 'NODE_EXEC_FAIL');
    }
    const ms = rc.now() - t0;
    if (node.type === 'graphOut') {
      const port =
        typeof node.config.portName === 'string' && node.config.portName ? node.config.portName : 'output';
      L.harvest = { ...L.harvest, [port]: deepFreeze(inputs.value ?? null) };
      // Inner-scope graphOuts latch their value until the scope terminates.
      if (scope !== GRAPH_SCOPE && (rc.outEdges.get(node.id)?.length ?? 0) > 0) {
        L.latches = { ...L.latches, [node.id]: deepFreeze(outputs.value) };
        outputs = {};
      }
    }
    const routeError = this.routeVisit(node.id, deepFreeze(outputs), visit, error !== null);
    this.logFire(node, step, error ?? routeError, ms);
  }

  /**
   * A fire the run's stop cut short: its late answer (or the abort's error) is dropped and the node
   * is back where it was before it fired — queued with its inputs — so the stopped run's log shows
   * no error that never happened and no output nobody waited for.
   */
  private unfire(id: string, inputs: Record<string, unknown>, step: number): void {
    const L = this.live;
    L.pending[id] = inputs;
    L.queue.unshift(id);
    L.firings -= 1;
    this.rc.emit({ type: 'node_status', data: { node_id: id, status: 'queued', step } });
  }

  /** What a visit starts from: the features (and, for slot conditions, container states) before it. */
  private beginVisit(nodeId: string): Visit {
    const visit: Visit = { before: this.live.features, proposals: {} };
    if (this.router.readsSlots(nodeId))
      visit.states = new Map([...this.rc.containers].map(([id, c]) => [id, c.state]));
    return visit;
  }

  /**
   * Routes a finished visit: plain ports as before; each routed port along its one compatible edge
   * (routing.ts), committing the successor features and emitting `route` events. A failed visit
   * delivers along no routed edge. Returns the error text when the route failed (the run has ended).
   */
  private routeVisit(
    nodeId: string,
    result: Readonly<Record<string, unknown>>,
    visit: Visit | undefined,
    failed = false,
  ): string | null {
    const r = this.router;
    const proposed = visit !== undefined && Object.keys(visit.proposals).length > 0;
    if (!r.routes(nodeId) && !proposed) {
      this.route(nodeId, result);
      return null;
    }
    if (failed) {
      this.route(nodeId, result, r.routedEdges(nodeId));
      return null;
    }
    try {
      const d = r.decide(nodeId, visit ?? this.beginVisit(nodeId), this.currentStep());
      this.live.features = deepFreeze(d.after);
      for (const data of d.events) this.rc.emit({ type: 'route', data });
      this.route(nodeId, result, d.skip);
      return null;
    } catch (e) {
      if (!(e instanceof RouteError)) throw e;
      this.failRoute(nodeId, e);
      return e.message;
    }
  }

  /**
   * A failed route: a node error naming node, edges and feature values, then the run ends in error
   * with the step's candidate state discarded — live state and containers go back to how the step
   * began, so the last checkpoint and snapshot stay the previous step's (the commit rule of docs/architecture.md "Run state and durability";
   * events already emitted, e.g. state_written, stay in the log).
   */
  private failRoute(nodeId: string, e: RouteError): void {
    const L = this.live;
    this.recordError(nodeId, e.message, e.code, { ...e.details });
    const errors = [...L.errors, { node_id: nodeId, message: e.message }];
    const errorCount = L.errorCount;
    if (this.committed) {
      Object.assign(L, thawLive(this.committed.live));
      for (const [id, c] of this.rc.containers) {
        const st = this.committed.states.get(id);
        if (st) c.restore(st);
      }
    }
    L.errors = errors;
    L.errorCount = errorCount;
    L.queue = [];
    this.finish('error');
  }

  /** Fires a spawner's children in order; a child error stops the sequence and fails the spawner. */
  private async fireChildren(
    spawner: NodeDef,
    scope: string,
    list: FireList,
    visit: Visit,
  ): Promise<Record<string, unknown>> {
    const rc = this.rc;
    const results: Record<string, unknown>[] = [];
    for (const [i, spec] of list.specs.entries()) {
      const id = childId(spawner.id, i);
      if (FORBIDDEN_CHILD_TYPES.has(spec.node_type))
        throw new Error(`fire-list child ${id}: type '${spec.node_type}' cannot be spawned`);
      const reg = rc.registry.get(spec.node_type);
      if (!reg) throw new Error(`fire-list child ${id}: unknown node type '${spec.node_type}'`);
      const child: NodeDef = {
        id,
        type: spec.node_type,
        label: spec.label ?? id,
        position: { x: 0, y: 0 },
        config: spec.config ?? {},
      };
      const inputs = deepFreeze({ ...(spec.inputs ?? {}) });
      const state = reg.handler.initState
        ? deepFreeze(reg.handler.initState({ id, config: child.config }))
        : undefined;
      const t0 = rc.now();
      let error: string | null = null;
      const signal = this.aborter.signal;
      try {
        const res = await reg.handler.fire(inputs, this.context(child, scope, inputs, state, visit, signal));
        if (signal.aborted) throw signal.reason;
        if (res.fireList) throw new Error('nested fire-lists are not allowed');
        if (typeof res.outputs.error === 'string' && res.outputs.error) throw new Error(res.outputs.error);
        const keep = spec.capture_outputs;
        results.push(
          keep
            ? Object.fromEntries(Object.entries(res.outputs).filter(([k]) => keep.includes(k)))
            : res.outputs,
        );
      } catch (e) {
        if (signal.aborted) throw e; // the run was stopped: the spawner's fire is undone
        error = e instanceof Error ? e.message : String(e);
      }
      const ms = rc.now() - t0;
      rc.emit({
        type: 'exec_log',
        data: {
          step: this.currentStep(),
          node_id: id,
          node_type: child.type,
          node_label: child.label,
          duration_ms: ms,
          queue_wait_ms: 0,
          compute_ms: ms,
          error,
          has_inner_log: false,
          parent_node_id: spawner.id,
          dynamic_index: i,
        },
      });
      if (error !== null) throw new Error(`child ${id} (${child.type}) failed: ${error}`);
    }
    return aggregate(results, list.aggregator);
  }

  private context(
    node: NodeDef,
    scope: string,
    inputs: Readonly<Record<string, unknown>>,
    state: unknown,
    visit: Visit,
    signal: AbortSignal,
  ): NodeContext {
    const rc = this.rc;
    const L = this.live;
    const step = this.currentStep();
    const view = makeContainerView(node.id, rc.grants.forNode(node.id), rc.containers, (w) => {
      const grantId = rc.grants.grantIdFor(node.id, w.container);
      rc.emit({
        type: 'state_written',
        data: { node_id: node.id, ...(grantId !== undefined ? { grant_id: grantId } : {}), ...w, step },
      });
    });
    return {
      node: { id: node.id, type: node.type, label: node.label, config: node.config },
      step,
      scopeStep: scope ? (L.scopes[scope]?.counter ?? 0) : L.step,
      scopeId: scope,
      containers: view.containers,
      graph_state: view.graph_state,
      container: view.container,
      state,
      emitSignal: (name, payload) => void this.signal(name, scope, payload),
      // A dynamic child proposes for its spawner's visit (it routes nothing itself).
      proposeFeature: this.router.proposer(node.id, visit.proposals),
      emitViewer: (fields) => rc.emit({ type: 'viewer_data', data: { node_id: node.id, step, fields } }),
      reportUsage: (usage) => rc.emit({ type: 'llm_usage', data: { node_id: node.id, step, usage } }),
      log: (message) => rc.log(node.id, message),
      runId: rc.runId,
      report: (e) => this.reportForNode(node.id, e),
      effect: makeEffect(rc, step, node.id, scope ? (L.scopes[scope]?.counter ?? 0) : undefined),
      llm: rc.llm,
      now: rc.now,
      signal,
    };
  }

  /** Routes a result along the node's outgoing edges in declaration order (docs/reference-system.md §3.2). */
  private route(source: string, result: Readonly<Record<string, unknown>>, skip?: ReadonlySet<string>): void {
    const rc = this.rc;
    for (const e of rc.outEdges.get(source) ?? []) {
      if (skip?.has(e.id)) continue; // a routed port's edge that was not taken
      const handle = e.sourceHandle || 'default';
      if (handle !== 'default' && !Object.hasOwn(result, handle)) continue;
      const value = handle === 'default' ? result : result[handle];
      if (value === undefined) continue;
      this.deliver(e, value);
    }
  }

  private deliver(e: EdgeDef, value: unknown): void {
    const rc = this.rc;
    const L = this.live;
    const target = rc.nodes.get(e.target);
    if (!target || target.type === 'note') return;
    const handle = e.targetHandle || e.sourceHandle || 'value';
    if (target.type === 'iterIn') return this.pivots.deliver(target, handle, value);
    const pend = { ...(L.pending[target.id] ?? {}) };
    if (rc.isListPort(target, handle)) {
      const cur = pend[handle];
      pend[handle] = [...(Array.isArray(cur) ? cur : []), ...(Array.isArray(value) ? value : [value])];
    } else pend[handle] = value;
    L.pending[target.id] = pend;
    if (this.ready(target, pend)) this.enqueue(target.id);
  }

  private ready(node: NodeDef, pend: Record<string, unknown>): boolean {
    const required = this.rc.requiredInputs(node);
    const present = Object.keys(pend);
    if (node.type === 'iterOut' && !present.some((k) => k !== 'stop')) return false;
    if (required.length > 0) return required.every((r) => Object.hasOwn(pend, r));
    return present.length > 0;
  }

  /** The exec_log and final node_status of one fire; `ms` is absent for pivots (no handler runs). */
  private logFire(node: NodeDef, step: number, error: string | null, ms?: number): void {
    const rc = this.rc;
    const duration = ms ?? 0;
    rc.emit({
      type: 'exec_log',
      data: {
        step,
        node_id: node.id,
        node_type: node.type,
        node_label: node.label,
        duration_ms: duration,
        queue_wait_ms: 0,
        compute_ms: duration,
        error,
        has_inner_log: false,
      },
    });
    rc.emit({
      type: 'node_status',
      data: {
        node_id: node.id,
        status: error ? 'error' : 'done',
        step,
        ...(ms !== undefined ? { duration_ms: ms } : {}),
        ...(error ? { error } : {}),
      },
    });
  }

  private rootBoundary(before: ReadonlyMap<string, ContainerState>, cleared: ClearedRef[]): void {
    const rc = this.rc;
    const L = this.live;
    const h = L.harvest;
    const data: Record<string, unknown> = {
      step: L.step,
      containers: snapshotContainers(rc.containers, before),
      nodeStates: { ...L.nodeStates },
      features: this.router.normalize(L.features),
      cleared,
      outputs: h,
      done: L.rootTerminated || Boolean(h.done),
    };
    if (h.action !== undefined && h.action !== null) {
      data.action = h.action;
      data.action_name = typeof h.action === 'number' ? (ACTION_NAMES[h.action] ?? '') : String(h.action);
    }
    const pose = (h.pose ?? h.state) as Record<string, unknown> | undefined;
    if (pose && typeof pose === 'object') {
      data.position = pose.position ?? [];
      data.orientation = pose.orientation ?? [];
    }
    if (h.metrics) data.metrics = h.metrics;
    if (h.response) data.response = h.response;
    rc.emit({ type: 'nav_step', data: data as never });
    rc.onCheckpoint(L.step);
    this.boundaryReached = true;
  }

  // ---- the end ----

  /** The queue is empty (or the cap hit): fallback final side, after-loop band, DAG boundary, finish. */
  private async drained(): Promise<void> {
    const rc = this.rc;
    const L = this.live;
    if (!L.rootTerminated) {
      this.pivots.endOpenRoots();
      L.rootTerminated = true;
      L.queue = L.queue.filter((q) => (rc.scopes.scopeOf.get(q) ?? GRAPH_SCOPE) === GRAPH_SCOPE);
      if (L.queue.length > 0 && L.firings < rc.maxFirings) {
        L.phase = 'after';
        while (L.queue.length > 0 && L.firings < rc.maxFirings && !this.stopRequested)
          await this.fire(L.queue.shift()!);
      }
    }
    if (this.isFinished()) return; // a failed route in the after-loop band ended the run
    if (L.step === 0) {
      // A DAG (or a loop that never ran) is one step, and still gets its snapshot.
      L.step = 1;
      const before = new Map<string, ContainerState>([...rc.containers].map(([id, c]) => [id, c.state]));
      const cleared = this.signal('step_end', GRAPH_SCOPE, { step: 1, scope_id: GRAPH_SCOPE });
      this.rootBoundary(before, cleared);
    }
    this.takeHit(); // the run's last events may still hit one: say so (there is nothing left to pause)
    this.finish(L.errors.length > 0 ? 'error' : 'done');
  }

  /** What finish() saw: container states before `run_end` clears them, and the error summary. */
  private ended: { states: Map<string, ContainerState>; error?: string } | undefined;

  /** The `run_result` payload; `end` overrides what the run itself says (a host's stop or limit). */
  result(end: RunEnd = {}): RunResultData {
    const L = this.live;
    const ended = L.phase === 'finished' ? this.ended : undefined;
    const own = L.status === 'done' || L.status === 'error' || L.status === 'stopped' ? L.status : 'stopped';
    const error = end.error ?? ended?.error;
    return buildRunResult(this.rc, L, ended?.states ?? new Map(), {
      ...end,
      status: end.status ?? own,
      ...(error !== undefined ? { error } : {}),
    });
  }

  private finish(status: 'done' | 'error' | 'stopped'): void {
    const rc = this.rc;
    const L = this.live;
    if (L.phase === 'finished') return;
    L.phase = 'finished';
    L.status = status;
    this.ended = { states: new Map([...rc.containers].map(([id, c]) => [id, c.state])) };
    if (status === 'error') {
      const summary = L.errors
        .map((e) => (e.node_id ? `node '${e.node_id}': ${e.message}` : e.message))
        .join('; ');
      this.ended.error = summary;
      if (L.errors.some((e) => e.node_id))
        this.recordError('', `run ended with node errors: ${summary}`, 'NODE_ERRORS');
      else this.recordError('', summary, 'GRAPH_CRASH');
      this.signal('run_end', GRAPH_SCOPE, { step: L.step, error: summary });
      rc.emit({ type: 'nav_status', data: { status: 'error', step: L.step, error: summary } });
    } else if (status === 'done') {
      this.signal('run_end', GRAPH_SCOPE, { step: L.step, terminated: true });
      const m = L.harvest.metrics;
      rc.emit({
        type: 'nav_complete',
        data: {
          step: L.step,
          metrics: m && typeof m === 'object' ? (m as Record<string, unknown>) : {},
          terminated: true,
        },
      });
    } else {
      rc.emit({ type: 'nav_status', data: { status: 'stopped', step: L.step } });
    }
  }
}
