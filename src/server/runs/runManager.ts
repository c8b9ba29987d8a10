// The run manager: one engine per run, and the control verbs of /api/navigate and /api/runs
// (start, pause, resume, step, stop, restore, fork, adopt-for-restore after a crash). The current run
// is the one /api/navigate talks about; starting another stops it cleanly (or queues behind it).
// Steps are driven by an async loop: stepOnce → commit (events + checkpoint, one transaction) →
// publish → delay. Control verbs never interleave with a half-done step: lifecycle events raised
// while a step is in flight are committed right after it (LiveRun.emit).
// One file (~780 lines) on purpose: every verb reads and replaces the same current run under one
// lock, and the step loop's exit paths (pause/stop/restore/fork) must be read together.
import { randomBytes } from 'node:crypto';
import type { Breakpoint, BreakpointHit } from '../../domain/debug/breakpoints.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { RunStatus } from '../../domain/protocol/protocol.ts';
import type { Checkpoint, EngineRun, RunOptions } from '../../engine/run.api.ts';
import type { RunStore } from '../db/runStore.ts';
import { SqliteEffectStore } from '../db/effectStore.ts';
import type { ReuseUntilDivergence } from '../../engine/effectReuse.ts';
import { forkReuse } from './forkReuse.ts';
import { ApiError, badRequest, conflict, notFound } from '../errors/errors.ts';
import { isDiskFull } from '../errors/storageErrors.ts';
import { decodeGraph, describeErrors } from '../workspace/graphCodec.ts';
import { containerDifferences } from './containerDiff.ts';
import { LiveRun, type Publisher } from './liveRun.ts';
import { reduceState, type RunStateView } from './stateAt.ts';
import { graphVersion } from './graphVersion.ts';
import type { RunServiceState, ServiceStateWarning } from '../ports/serviceState.ts';
import type { ForkPlanner } from '../ports/forkPlan.ts';

export type EngineFactory = (
  graph: GraphDef,
  options: RunOptions,
  sink: (e: Parameters<LiveRun['sink']>[0]) => void,
) => EngineRun;

export interface StartRequest {
  graph: GraphDef;
  runId?: string;
  stepDelayMs: number;
  paused: boolean;
  freshEffects: boolean;
  breakpoints?: Breakpoint[];
}

/** Server notices outside any run's log (LiveHub.notice: every connected client gets them). */
export interface RunNotifier {
  notice?(type: string, data: unknown): void;
}

/** `run_started`: a run became the current one; `replaced` is the live run it stopped, if any. */
export interface RunStartedNotice {
  run_id: string;
  graph_name: string;
  status: RunStatus;
  parent_run_id: string | null;
  replaced: { run_id: string; graph_name: string; step: number } | null;
}

const newRunId = (prefix = 'exec') => `${prefix}_${Date.now()}_${randomBytes(5).toString('hex').slice(0, 7)}`;
/** How long a graceful shutdown may spend finishing the background compaction. */
const SHUTDOWN_COMPACTION_MS = 5000;
const FINISHED: ReadonlySet<RunStatus> = new Set(['done', 'error', 'stopped', 'interrupted']);

export class RunManager {
  private current: LiveRun | undefined;
  private readonly queue: Array<{ run: LiveRun; paused: boolean }> = [];
  private closing = false;
  /** Verbs that replace the current run run one at a time (two concurrent starts must not both win). */
  private lock: Promise<unknown> = Promise.resolve();
  /**
   * Node services' side of time travel (services/serviceSnapshots.ts, set by the server): each step
   * stores their snapshots, restore/fork/adopt put them back. Unset: runs hold no service state.
   */
  serviceState?: RunServiceState;
  /**
   * Finds, before a fork starts, the first step whose calls differ from its parent's recording
   * (replay/forkPreview.ts, set by the server). Unset or failing: the fork reuses until its first
   * call that differs, as it meets it.
   */
  forkPlanner?: ForkPlanner;
  /**
   * A fork reusing its parent's answers up to step `step - 1` gets the parent's service state after
   * that step put back before it runs `step` live (reused steps never reached the services).
   */
  private readonly liveFrom = new Map<string, { parent: string; step: number }>();

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.lock.then(fn, fn);
    this.lock = next.catch(() => undefined);
    return next;
  }

  constructor(
    private readonly store: RunStore,
    private readonly hub: Publisher & RunNotifier,
    private readonly createEngine: EngineFactory,
    private readonly engineExtras: Partial<RunOptions> = {},
    /** Throws (400) when a graph must not run; used for a fork's modified graph. */
    private readonly checkRunnable: (graph: GraphDef) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    store.markInterrupted(new Date(now()).toISOString());
    // Finish packing what an earlier process left (a crash, a shutdown out of time), in the idle
    // time between steps: never while a run is driven flat out (step_delay_ms 0).
    store.compaction.yieldWhile(() => this.current?.looping === true && this.current.stepDelayMs === 0);
    store.compaction.resume();
  }

  get currentRun(): LiveRun | undefined {
    return this.current;
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Builds the engine (BuildError → 400 naming where). */
  private build(
    run: LiveRun,
    graph: GraphDef,
    fromCheckpoint?: Checkpoint,
    reuseFrom?: ReuseUntilDivergence,
  ): EngineRun {
    try {
      return this.createEngine(
        graph,
        {
          ...this.engineExtras,
          runId: run.id,
          now: this.now,
          retention: 4,
          lineage: run.lineage,
          freshEffects: run.freshEffects,
          effects: new SqliteEffectStore(this.store.db, run.id, this.store.blobs, undefined, reuseFrom),
          breakpoints: {
            list: () => run.breakpoints,
            pause: (hit) => this.pauseAtBreakpoint(run, hit),
          },
          ...(fromCheckpoint ? { fromCheckpoint } : {}),
        },
        run.sink,
      );
    } catch (err) {
      const where = (err as { where?: Record<string, string> }).where;
      throw new ApiError(
        400,
        'invalid-graph',
        `Invalid graph: ${(err as Error).message}`,
        undefined,
        where ? { where } : undefined,
      );
    }
  }

  // ---- start / queue ----

  start(req: StartRequest, queue: boolean): Promise<{ runId: string; queued: boolean }> {
    return this.exclusive(() => this.startNow(req, queue));
  }

  private async startNow(req: StartRequest, queue: boolean): Promise<{ runId: string; queued: boolean }> {
    const id = req.runId ?? newRunId();
    if (this.store.getRun(id)) throw conflict(`run id ${JSON.stringify(id)} is already used`, 'run-exists');
    const run = new LiveRun(id, req.graph, id, req.freshEffects, this.store, this.hub, this.now, {
      status: 'idle',
      step: 0,
      seq: 0,
      stepDelayMs: req.stepDelayMs,
    });
    run.breakpoints = req.breakpoints ?? [];
    run.engine = this.build(run, req.graph);
    this.store.createRun({
      id,
      graphName: req.graph.name,
      graph: req.graph,
      status: 'idle',
      startedAt: this.iso(),
      parentRunId: null,
      parentStep: null,
      lineage: id,
      freshEffects: req.freshEffects,
      stepDelayMs: req.stepDelayMs,
      graphVersion: graphVersion(req.graph),
    });
    const wantPaused = req.paused;
    if (queue && this.current?.active) {
      this.queue.push({ run, paused: wantPaused });
      run.emit('nav_status', { status: 'idle', step: 0 });
      return { runId: id, queued: true };
    }
    const replaced = this.liveSummary();
    await this.stopCurrent();
    this.activate(run, wantPaused);
    this.announce(run, replaced);
    return { runId: id, queued: false };
  }

  private activate(run: LiveRun, paused: boolean): void {
    this.current = run;
    try {
      if (paused) {
        run.status = 'paused';
        run.emit('nav_status', { status: 'paused', step: run.step }, { status: 'paused', ended: false });
      } else {
        run.status = 'running';
        this.store.commit(run.id, { events: [], status: 'running', endedAt: null });
        this.drive(run);
      }
    } catch (err) {
      // Never leave a current run that claims to run but has no loop (disk full between the
      // run's row and its first status): it ends as error, and the caller gets the 507.
      this.storageFailed(run, err);
      throw err;
    }
  }

  private startNextQueued(): void {
    if (this.closing || this.current?.active) return;
    const next = this.queue.shift();
    if (!next) return;
    try {
      this.activate(next.run, next.paused);
      this.announce(next.run, null);
    } catch {
      // activate() already ended that run as error (disk full…); nobody awaits a queued start
    }
  }

  /** The live run (running/paused) as a notice names it, or null. */
  private liveSummary(): RunStartedNotice['replaced'] {
    const cur = this.current;
    return cur?.active ? { run_id: cur.id, graph_name: cur.graph.name, step: cur.step } : null;
  }

  /** Tells every client a run became current (editors offer to follow it; see src/app/run/runNotices.ts). */
  private announce(run: LiveRun, replaced: RunStartedNotice['replaced'], parent: string | null = null): void {
    const notice: RunStartedNotice = {
      run_id: run.id,
      graph_name: run.graph.name,
      status: run.status,
      parent_run_id: parent,
      replaced: replaced && replaced.run_id !== run.id ? replaced : null,
    };
    this.hub.notice?.('run_started', notice);
  }

  // ---- the loop ----

  private drive(run: LiveRun): void {
    if (run.looping) return;
    run.looping = true;
    run.loop = (async () => {
      try {
        while (run.status === 'running' && !this.closing) {
          await this.advance(run, run.stepDelayMs === 0);
          if (run.status !== 'running') break;
          try {
            run.flushIfDue();
          } catch (err) {
            // The log refused the group commit (disk full…): the run ends here, as for a step's own
            // commit. Thrown on, it rejected this loop's promise, which nothing awaits: the server died.
            this.storageFailed(run, err);
            break;
          }
          await this.delay(run);
        }
        // Whatever stopped the loop, nothing staged may stay unwritten.
        this.commitStaged(run);
      } finally {
        run.looping = false;
      }
      this.afterLoop(run);
    })();
  }

  private delay(run: LiveRun): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        if (timer) clearTimeout(timer);
        run.wake = undefined;
        resolve();
      };
      // At 0 ms still yield to the event loop (setImmediate: I/O first, without setTimeout's 1 ms
      // clamp), so HTTP requests and socket writes interleave with a fast run.
      let timer: NodeJS.Timeout | undefined;
      if (run.stepDelayMs > 0) timer = setTimeout(done, run.stepDelayMs);
      else setImmediate(done);
      run.wake = done;
    });
  }

  private commitStaged(run: LiveRun): void {
    if (run.failure) return; // the log already refused this run; its end is recorded (or retried)
    try {
      run.commit(undefined);
    } catch (err) {
      this.storageFailed(run, err);
    }
  }

  /** The log refused a write (disk full…): stop driving rather than run ahead of the log. */
  private storageFailed(run: LiveRun, err: unknown): void {
    const code = (err as { code?: unknown }).code;
    const why = isDiskFull(err)
      ? `the disk is full (${String(code)})`
      : `the run database failed (${typeof code === 'string' ? code : (err as Error).message})`;
    run.fail(`${why}: the run log could not be written; it ends at step ${run.committedSteps}`);
    console.error(`statewire: run ${run.id} stopped: ${run.failure?.reason ?? why}`);
    this.retryFailureRecord(run);
  }

  /**
   * The store refused even the small "stopped: disk full" record: retry every second while this
   * run is still the current one, so its row says `error` as soon as space is freed (a restore or
   * another run ends the retries; a restart marks the row `interrupted`, shutdown tries once more).
   */
  private retryFailureRecord(run: LiveRun): void {
    if (run.failure?.recorded !== false) return;
    const timer = setTimeout(() => {
      if (this.closing || this.current !== run || run.failure?.recorded !== false) return;
      if (!run.recordFailure()) this.retryFailureRecord(run);
    }, 1000);
    timer.unref();
  }

  /**
   * One root step: stepOnce, then commit its events and checkpoint together — or, with `group`,
   * stage them for a shared transaction (the drive loop flushes; publish still follows commit).
   */
  private advance(run: LiveRun, group = false): Promise<void> {
    const step = this.advanceNow(run, group);
    run.inFlight = step.catch(() => undefined);
    return step;
  }

  private async advanceNow(run: LiveRun, group: boolean): Promise<void> {
    run.busy = true;
    let finalStatus: RunStatus | undefined;
    let error: string | undefined;
    let hit: BreakpointHit | undefined;
    try {
      const live = this.liveFrom.get(run.id);
      if (live && run.engine.step + 1 >= live.step) {
        this.liveFrom.delete(run.id);
        const from = { runId: live.parent, step: live.step - 1 };
        this.warnAbout(run, (await this.serviceState?.putBack(from, run.id)) ?? []);
      }
      const stepping = run.engine.stepOnce();
      if (group && run.hasStaged) this.commitIfIdle(run, stepping);
      const { done, breakpoint } = await stepping;
      if (run.failure) {
        // The log refused the staged steps' commit while this step ran: the run has ended (error).
        run.busy = false;
        return;
      }
      run.step = run.engine.step;
      if (done) {
        const s = run.engine.status;
        finalStatus = s === 'error' || s === 'stopped' ? s : 'done';
      } else hit = breakpoint;
    } catch (err) {
      finalStatus = 'error';
      error = (err as Error).message;
    }
    // Still busy: no other Step may start while the services are asked for their snapshots.
    const serviceWarnings = await this.captureServices(run, finalStatus !== undefined);
    run.busy = false;
    const cp = run.engine.checkpoint(run.step);
    if (finalStatus) run.status = finalStatus;
    // A breakpoint hit by the step's last events: pause here, between steps (an ordinary pause).
    if (hit && run.status === 'running') {
      run.status = 'paused';
      run.sink({ type: 'nav_status', data: { status: 'paused', step: run.step } });
    }
    this.warnAbout(run, serviceWarnings);
    if (error !== undefined) {
      run.sink({ type: 'nav_status', data: { status: 'error', step: run.step, error } });
      run.sink({
        type: 'error_event',
        data: {
          id: `srv_${run.id}_${run.seq + 1}`,
          ts: this.iso(),
          severity: 'error',
          source: 'graph',
          code: 'engine-failure',
          title: 'Run failed',
          message: error,
          scope: { run_id: run.id },
          details: {},
          hint: '',
        },
      });
    }
    try {
      if (group && !finalStatus && error === undefined && run.status === 'running') run.stage(cp);
      else
        run.commit(cp, {
          status: run.status,
          ...(finalStatus ? { ended: true } : {}),
          ...(error !== undefined ? { error } : {}),
        });
    } catch (err) {
      this.storageFailed(run, err);
    }
  }

  /** The services' snapshots after the step (nothing to await for a run that called none). */
  private async captureServices(run: LiveRun, ended: boolean): Promise<ServiceStateWarning[]> {
    const capturing = this.serviceState?.capture(run.id, run.step, ended);
    if (!capturing) return [];
    try {
      return await capturing;
    } catch (err) {
      // The database refused the record: the run goes on, its log says restores cannot include it.
      return [
        {
          service: 'node services',
          step: run.step,
          code: 'service-snapshot-failed',
          message: `the node services' snapshots after step ${run.step} could not be stored: ${(err as Error).message}`,
        },
      ];
    }
  }

  /** Warnings about services' state (not put back, not saved): in the run's log, on their step. */
  private warnAbout(run: LiveRun, warnings: readonly ServiceStateWarning[]): void {
    for (const w of warnings)
      run.sink({
        type: 'error_event',
        data: {
          id: `srv_${run.id}_${run.seq + 1}`,
          ts: this.iso(),
          severity: 'warning',
          source: 'graph',
          code: w.code,
          title:
            w.code === 'service-snapshot-failed' ? 'Service state not saved' : 'Service state not restored',
          message: w.message,
          scope: { run_id: run.id, step: w.step, service: w.service },
          details: { service: w.service },
          hint:
            w.code === 'service-snapshot-unsupported'
              ? 'Services written with the Python SDK support snapshots; see docs/node-services-protocol.md "Snapshots".'
              : '',
        },
      });
  }

  /**
   * Adaptive group commit. Under load a step's microtasks run to its end within the event-loop turn
   * it started in; a step still in flight one turn later waits on I/O or a timer (an LLM call, a node
   * service, a breakpoint), so the loop is idle: the finished steps staged for the group are
   * committed and published now instead of waiting for that step (and for the group to fill).
   */
  private commitIfIdle(run: LiveRun, stepping: Promise<unknown>): void {
    let settled = false;
    void stepping.then(
      () => (settled = true),
      () => (settled = true),
    );
    setImmediate(() => {
      // Not running any more (pause/stop): the loop's exit commits what is staged, with the new status.
      if (settled || run.failure || !run.hasStaged || run.status !== 'running') return;
      try {
        run.commitStaged();
      } catch (err) {
        this.storageFailed(run, err);
      }
    });
  }

  /** The engine stopped inside a step at a breakpoint: show it paused; resume/step/stop let it go on. */
  private pauseAtBreakpoint(run: LiveRun, hit: BreakpointHit): Promise<void> {
    return new Promise<void>((release) => {
      run.breakAt = { hit, release };
      for (const w of run.breakWaiters.splice(0)) w();
      run.status = 'paused';
      run.wake?.();
      try {
        run.commitMidStep([{ type: 'nav_status', data: { status: 'paused', step: run.step } }]);
      } catch (err) {
        run.breakAt = undefined;
        release();
        this.storageFailed(run, err);
      }
    });
  }

  /** Resolves when the run next pauses at a breakpoint inside a step. */
  private nextBreak(run: LiveRun): Promise<void> {
    return new Promise((resolve) => run.breakWaiters.push(resolve));
  }

  /** Lets a run paused inside a step go on; `then` is its status for the rest of the step. */
  private releaseBreak(run: LiveRun, then: 'running' | 'paused'): void {
    const at = run.breakAt;
    if (!at) return;
    run.breakAt = undefined;
    run.status = then;
    if (then === 'running')
      run.commitMidStep([{ type: 'nav_status', data: { status: 'running', step: run.step } }]);
    at.release();
  }

  /** Breakpoints of the current run (replaced as a whole; the engine reads them as events happen). */
  setBreakpoints(list: Breakpoint[]): { ok: true; count: number } {
    const run = this.need();
    run.breakpoints = list;
    return { ok: true, count: list.length };
  }

  private afterLoop(run: LiveRun): void {
    if (FINISHED.has(run.status)) this.startNextQueued();
  }

  // ---- control verbs on the current run ----

  private need(): LiveRun {
    if (!this.current) throw notFound('no run (start one with POST /api/navigate/run)', 'no-run');
    return this.current;
  }

  pause(): void {
    const run = this.current;
    if (!run || run.status !== 'running') return; // no-op otherwise, as the reference
    run.status = 'paused';
    run.wake?.();
    run.emit('nav_status', { status: 'paused', step: run.step }, { status: 'paused' });
  }

  resume(): { ok: true; status: RunStatus } {
    const run = this.need();
    if (run.status === 'running') return { ok: true, status: run.status };
    if (run.status !== 'paused') throw conflict(`cannot resume a run that is ${run.status}`, 'not-paused');
    if (run.breakAt) {
      // The drive loop (or a Step) is still inside the step; it carries on from the breakpoint.
      this.releaseBreak(run, 'running');
      if (!run.looping) void run.inFlight?.then(() => run.status === 'running' && this.drive(run));
      return { ok: true, status: run.status };
    }
    run.status = 'running';
    run.emit('nav_status', { status: 'running', step: run.step }, { status: 'running' });
    this.drive(run);
    return { ok: true, status: run.status };
  }

  async step(): Promise<{ ok: true; step: number; status: RunStatus }> {
    const run = this.need();
    if (run.status === 'running') throw conflict('the run is running; pause it before stepping', 'running');
    if (run.status !== 'paused') throw conflict(`cannot step a run that is ${run.status}`, 'not-paused');
    if (run.breakAt) {
      // Paused inside a step: Step finishes that step (or runs to the next breakpoint in it).
      const inFlight = run.inFlight;
      this.releaseBreak(run, 'paused');
      await Promise.race([inFlight, this.nextBreak(run)]);
      const status = run.status as RunStatus;
      if (FINISHED.has(status)) this.startNextQueued();
      return { ok: true, step: run.step, status };
    }
    if (run.busy || run.looping) throw conflict('a step is already in progress', 'busy');
    await this.advance(run);
    // advance() may have changed the status (done/error); re-read it past TS's narrowing.
    const status = run.status as RunStatus;
    if (FINISHED.has(status)) this.startNextQueued();
    return { ok: true, step: run.step, status };
  }

  stop(): Promise<void> {
    return this.exclusive(async () => {
      await this.stopCurrent();
      this.startNextQueued();
    });
  }

  private async stopCurrent(finalStatus: RunStatus = 'stopped'): Promise<void> {
    const run = this.current;
    if (!run || !run.active) return;
    const wasBusy = run.busy || run.looping;
    run.engine.stop();
    run.status = finalStatus;
    run.wake?.();
    this.releaseBreak(run, 'paused'); // the engine sees the stop as it leaves the breakpoint
    run.status = finalStatus;
    if (wasBusy) await run.loop?.catch(() => undefined);
    await run.inFlight; // a Step that was paused at a breakpoint
    // The engine reports `stopped` itself when a step was in flight; otherwise we say so.
    run.status = finalStatus;
    if (run.lastNavStatus === finalStatus) run.commit(undefined, { status: finalStatus, ended: true });
    else
      run.emit('nav_status', { status: finalStatus, step: run.step }, { status: finalStatus, ended: true });
  }

  status(): {
    status: RunStatus | 'idle';
    step: number;
    metrics: Record<string, unknown>;
    execution_id: string | null;
    step_delay_ms: number | null;
    /** Why the current run stopped when the log refused a write (disk full…). */
    error?: string;
    /** The breakpoint the run is paused at, inside a step. */
    breakpoint?: BreakpointHit;
  } {
    const run = this.current;
    if (!run) return { status: 'idle', step: 0, metrics: {}, execution_id: null, step_delay_ms: null };
    return {
      status: run.status,
      step: run.step,
      metrics: run.metrics,
      execution_id: run.id,
      step_delay_ms: run.stepDelayMs,
      ...(run.failure ? { error: run.failure.reason } : {}),
      ...(run.breakAt ? { breakpoint: run.breakAt.hit } : {}),
    };
  }

  setStepDelay(ms: number): void {
    this.need().stepDelayMs = ms;
  }

  checkpointSteps(): number[] {
    return this.current ? this.store.checkpointSteps(this.current.id) : [];
  }

  /** Restore the current run to a stored step: a fresh engine from that checkpoint, left paused. */
  restore(step: number): Promise<number> {
    return this.exclusive(() => this.restoreNow(step));
  }

  private async restoreNow(step: number): Promise<number> {
    const run = this.need();
    this.liveFrom.delete(run.id); // a restored fork re-runs from its own recording
    if (run.status === 'running') throw badRequest('not-paused', 'Must pause or complete before restoring');
    if (run.breakAt)
      throw conflict(
        `paused inside step ${run.step + 1} at a breakpoint: Step (finishes that step) or Resume before restoring`,
        'at-breakpoint',
      );
    if (run.busy || run.looping) await run.loop?.catch(() => undefined);
    await run.inFlight; // a Step (not the loop) may still be asking its services for snapshots
    const cp = this.store.checkpoint(run.id, step);
    if (!cp) throw notFound(`No checkpoint at step ${step}`, 'no-checkpoint');
    run.engine = this.build(run, run.graph, { step: cp.step, state: cp.state });
    this.keepTail(
      run.id,
      run.graph,
      { lineage: run.lineage, fresh_effects: run.freshEffects, step_delay_ms: run.stepDelayMs },
      cp,
    );
    const warnings = (await this.serviceState?.putBack({ runId: run.id, step }, run.id)) ?? [];
    run.step = step;
    run.status = 'paused';
    run.failure = undefined; // restored: an earlier storage failure no longer describes this run
    run.sink({ type: 'nav_status', data: { status: 'paused', step } });
    this.warnAbout(run, warnings);
    run.commit({ step: cp.step, state: cp.state }, { status: 'paused', ended: false, error: null });
    return step;
  }

  // ---- history: adopt an old (e.g. interrupted) run, fork ----

  /** Makes a stored run current again, restored (paused) to `step`. */
  adopt(runId: string, step: number): Promise<number> {
    return this.exclusive(() => this.adoptNow(runId, step));
  }

  private async adoptNow(runId: string, step: number): Promise<number> {
    if (this.current?.id === runId) return this.restoreNow(step);
    this.liveFrom.delete(runId);
    const row = this.store.getRun(runId);
    if (!row) throw notFound(`no run ${JSON.stringify(runId)}`);
    const cp = this.store.checkpoint(runId, step);
    if (!cp) throw notFound(`No checkpoint at step ${step}`, 'no-checkpoint');
    const graph = this.graphOfRun(runId);
    const replaced = this.liveSummary();
    await this.stopCurrent();
    this.keepTail(runId, graph, row, cp);
    const run = new LiveRun(runId, graph, row.lineage, row.fresh_effects, this.store, this.hub, this.now, {
      status: 'paused',
      step,
      seq: row.last_seq,
      stepDelayMs: row.step_delay_ms,
    });
    run.engine = this.build(run, graph, { step: cp.step, state: cp.state });
    this.current = run;
    const warnings = (await this.serviceState?.putBack({ runId, step }, runId)) ?? [];
    run.sink({ type: 'nav_status', data: { status: 'paused', step } });
    this.warnAbout(run, warnings);
    run.commit({ step: cp.step, state: cp.state }, { status: 'paused', ended: false, error: null });
    this.announce(run, replaced);
    return step;
  }

  fork(
    runId: string,
    opts: { step: number; graph?: unknown; freshEffects: boolean; stepDelayMs: number; paused: boolean },
  ): Promise<{ runId: string; parent: string; step: number }> {
    return this.exclusive(() => this.forkNow(runId, opts));
  }

  private async forkNow(
    runId: string,
    opts: { step: number; graph?: unknown; freshEffects: boolean; stepDelayMs: number; paused: boolean },
  ): Promise<{ runId: string; parent: string; step: number }> {
    const row = this.store.getRun(runId);
    if (!row) throw notFound(`no run ${JSON.stringify(runId)}`);
    const cp = this.store.checkpoint(runId, opts.step);
    if (!cp) throw notFound(`No checkpoint at step ${opts.step} of run ${runId}`, 'no-checkpoint');
    const parentGraph = this.graphOfRun(runId);
    let graph = parentGraph;
    if (opts.graph !== undefined) {
      const r = decodeGraph(opts.graph);
      if (!r.ok)
        throw new ApiError(
          400,
          'invalid-graph',
          `invalid graph: ${describeErrors(r.errors)}`,
          r.errors[0]?.path.replace(/^\$/, '$.graph'),
        );
      graph = r.graph;
      this.checkRunnable(graph);
      const diffs = containerDifferences(parentGraph, graph);
      if (diffs.length > 0)
        throw conflict(
          `the graph's containers differ from the checkpoint's: ${diffs.join('; ')}`,
          'containers-differ',
          { differences: diffs },
        );
    }
    const id = newRunId('fork');
    // A fork is a lineage of its own: its calls are recorded under its keys, never over its parent's.
    // Its first run reuses the parent's answers until the first call that differs (forkReuse.ts).
    const run = new LiveRun(id, graph, id, opts.freshEffects, this.store, this.hub, this.now, {
      status: 'paused',
      step: opts.step,
      seq: 0,
      stepDelayMs: opts.stepDelayMs,
    });
    const reuse = opts.freshEffects ? undefined : await this.planReuse(runId, opts, id);
    // Build first (so a bad graph fails before anything is written), buffering the `restored` event.
    run.engine = this.build(run, graph, { step: cp.step, state: cp.state }, reuse);
    this.store.createRun({
      id,
      graphName: graph.name,
      graph,
      status: 'paused',
      startedAt: this.iso(),
      parentRunId: runId,
      parentStep: opts.step,
      lineage: id,
      freshEffects: opts.freshEffects,
      stepDelayMs: opts.stepDelayMs,
      graphVersion: graphVersion(graph),
    });
    const replaced = this.liveSummary();
    await this.stopCurrent();
    // The fork's services start where the parent's were at that step (as the fork's own run id).
    this.warnAbout(run, (await this.serviceState?.putBack({ runId, step: opts.step }, id)) ?? []);
    this.current = run;
    run.commit({ step: cp.step, state: cp.state }, { status: 'paused' });
    if (opts.paused) run.emit('nav_status', { status: 'paused', step: run.step });
    else {
      run.status = 'running';
      run.emit('nav_status', { status: 'running', step: run.step }, { status: 'running' });
      this.drive(run);
    }
    this.announce(run, replaced, runId);
    return { runId: id, parent: runId, step: opts.step };
  }

  /**
   * A fork's reuse of its parent's recording (docs/replay.md "Re-run without paying twice"): the
   * planner's first differing step N, when it answers, bounds it — steps before N are reused, N runs
   * live as a whole after the parent's service state after N − 1 is put back (advanceNow). With no
   * call differing, N is the step after the recording's last call.
   */
  private async planReuse(
    parentId: string,
    opts: { step: number; graph?: unknown },
    id: string,
  ): Promise<ReuseUntilDivergence> {
    let liveFrom: number | undefined;
    if (this.forkPlanner) {
      try {
        const plan = await this.forkPlanner(parentId, opts.step, opts.graph);
        liveFrom = plan.liveFromStep ?? opts.step + 1;
      } catch {
        liveFrom = undefined; // no plan (a plugin that does not load): the call-by-call rule alone
      }
    }
    if (liveFrom !== undefined && liveFrom - 1 > opts.step)
      this.liveFrom.set(id, { parent: parentId, step: liveFrom });
    return forkReuse(this.store, parentId, opts.step, id, undefined, liveFrom);
  }

  /**
   * Restore never loses history: the steps after the restored one (as this run's log has them now)
   * become a new run, a branch of this one at `cp.step`, before the run re-runs them — recorded as a
   * plan over this run's rows and copied only when first read (RunStore.keepTailAsBranch), so a
   * restore does not pay for the length of the tail. Nothing is kept when nothing comes after the
   * step. See src/server/README.md "Restore keeps a branch".
   */
  private keepTail(
    runId: string,
    graph: GraphDef,
    row: { lineage: string; fresh_effects: boolean; step_delay_ms: number },
    cp: { step: number; seq: number },
  ): void {
    const id = newRunId('branch');
    const n = this.store.keepTailAsBranch(
      runId,
      cp.seq,
      {
        id,
        graphName: graph.name,
        graph,
        status: 'stopped',
        startedAt: this.iso(),
        parentRunId: runId,
        parentStep: cp.step,
        lineage: row.lineage,
        freshEffects: row.fresh_effects,
        stepDelayMs: row.step_delay_ms,
        // The branch holds steps its run took: the same graph, the same version.
        graphVersion: this.store.getRun(runId)?.graph_version ?? null,
      },
      cp.step,
      this.iso(),
    );
    if (n > 0) {
      this.serviceState?.keepTail(runId, id, cp.step);
      this.hub.notice?.('run_branched', this.store.branchRecord(id));
    }
  }

  /** `DELETE /api/runs/{id}`: a run and its log; never the live current run or a queued one (409). */
  deleteRun(runId: string): Promise<{ events: number; checkpoints: number }> {
    return this.exclusive(async () => {
      if (!this.store.getRun(runId)) throw notFound(`no run ${JSON.stringify(runId)}`);
      if ((this.current?.id === runId && this.current.active) || this.queue.some((q) => q.run.id === runId))
        throw conflict(
          `run ${runId} is live (${this.current?.status ?? 'queued'}); stop it before deleting it`,
          'run-live',
        );
      if (this.current?.id === runId) this.current = undefined;
      const out = this.store.deleteRun(runId);
      this.serviceState?.forget(runId);
      this.hub.notice?.('run_deleted', { run_id: runId });
      return out;
    });
  }

  graphOfRun(runId: string): GraphDef {
    if (this.current?.id === runId) return this.current.graph;
    const raw = this.store.graphOf(runId);
    if (raw === undefined) throw notFound(`no run ${JSON.stringify(runId)}`);
    return raw as GraphDef;
  }

  stateAt(runId: string, step: number): RunStateView {
    // A fork's history up to its fork point is its parent's (and so on up the chain). The chain is
    // walked with a guard: a database can hold a loop (an import before they were refused).
    let id = runId;
    const chain: string[] = [];
    for (;;) {
      const row = this.store.getRun(id);
      if (!row) throw notFound(`no run ${JSON.stringify(id)}`);
      chain.push(id);
      const parent = row.parent_run_id;
      if (!parent || row.parent_step === null || step > row.parent_step || !this.store.getRun(parent)) break;
      if (chain.includes(parent))
        throw conflict(
          `run ${runId}'s parent chain loops (${[...chain, parent].join(' → ')}): its steps up to a fork point cannot be found`,
          'parent-cycle',
        );
      id = parent;
    }
    const row = this.store.getRun(id)!;
    const { base, after } = this.store.stateEvents(id, step);
    // The step the current run is paused inside at a breakpoint: no snapshot yet, but its events so
    // far are committed (commitMidStep), so the fold below gives the state the pause shows.
    const pausedInside = this.current?.id === id && this.current.breakAt?.hit.step === step;
    if (step > this.store.maxStep(id) && !pausedInside)
      throw notFound(`run ${id} has no committed step ${step} (last: ${row.steps})`, 'no-state');
    if (!base && after.length === 0)
      throw notFound(`run ${id} has no committed state at step ${step}`, 'no-state');
    return reduceState(base, after, step, this.graphOfRun(id).containers);
  }

  /** Graceful shutdown: finish the in-flight step, mark live runs interrupted (restorable later). */
  async shutdown(): Promise<void> {
    this.closing = true;
    await this.exclusive(async () => {
      for (const { run } of this.queue.splice(0))
        run.emit('nav_status', { status: 'interrupted', step: 0 }, { status: 'interrupted', ended: true });
      await this.stopCurrent('interrupted');
      // A run that failed on a full disk: one more try to log why, now that space may be back.
      this.current?.recordFailure();
      // Leave the file compact when that is quick; what is left resumes at the next start.
      this.store.compaction.drain(SHUTDOWN_COMPACTION_MS);
    });
  }
}
