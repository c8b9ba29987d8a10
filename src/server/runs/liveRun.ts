// One run the server is driving: its engine, its event stamping (runId/seq/ts), and the commit of a
// step (events + checkpoint + counters in one transaction, then broadcast). Commit-then-publish is
// the order that makes replay exact: a client can never see an event the log does not have.
import type { Breakpoint, BreakpointHit } from '../../domain/debug/breakpoints.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { EngineEvent, EventEnvelope, RunEndStatus, RunStatus } from '../../domain/protocol/protocol.ts';
import type { Checkpoint, EngineRun } from '../../engine/run.api.ts';
import type { RunStore, StepPart } from '../db/runStore.ts';

/** Ends that get a `run_result` event. */
const RESULT_STATUSES: ReadonlySet<RunStatus> = new Set(['done', 'error', 'stopped', 'interrupted']);

/**
 * Group commit under load (step_delay_ms 0, steps back to back): at most this many finished steps,
 * or this long, wait for one transaction. When the loop is not under load the staged steps commit
 * at once instead (runManager: a paced loop never stages; a step that waits on I/O or a timer
 * commits what is staged before it, see `hasStaged`/`commitStaged`).
 */
const GROUP_STEPS = 16;
const GROUP_MS = 15;

export interface Publisher {
  publish(events: readonly EventEnvelope[]): void;
}

export class LiveRun {
  engine!: EngineRun;
  status: RunStatus;
  step: number;
  seq: number;
  stepDelayMs: number;
  metrics: Record<string, unknown> = {};
  /** Type of the last event stamped (a run_result is not repeated). */
  private lastType: EngineEvent['type'] | undefined;
  /** Status of the last nav_status stamped (to avoid saying `stopped` twice). */
  lastNavStatus: string | undefined;
  /** A step is in flight (stepOnce not yet resolved + committed). */
  busy = false;
  looping = false;
  /** Resolves the inter-step delay early (pause/stop/shutdown). */
  wake?: () => void;
  /** Data and node breakpoints in force (the engine reads them as events happen). */
  breakpoints: Breakpoint[] = [];
  /** Paused inside a step at a breakpoint: the hit, and what lets the engine go on. */
  breakAt: { hit: BreakpointHit; release: () => void } | undefined;
  /** Who waits for the next breakpoint pause (a Step from a breakpoint runs to the next one at most). */
  breakWaiters: Array<() => void> = [];
  /** The step in flight (resolves when it is complete and committed or staged). */
  inFlight?: Promise<void>;
  loop?: Promise<void>;
  private pending: EventEnvelope[] = [];
  /** Finished steps not yet committed (group commit at step_delay_ms 0); never published before commit. */
  private staged: StepPart[] = [];
  private stagedAt = 0;
  /** Lifecycle events raised while a step is in flight; committed right after that step. */
  private deferred: Array<{ type: EngineEvent['type']; data: unknown }> = [];
  /** seq and step as of the last commit that reached the log: a refused commit rolls back to them. */
  private committedSeq: number;
  private committedStep: number;
  /** Why the log refused a write (disk full…) and whether that reason made it into the log since. */
  failure: { reason: string; recorded: boolean } | undefined;

  constructor(
    readonly id: string,
    readonly graph: GraphDef,
    readonly lineage: string,
    readonly freshEffects: boolean,
    private readonly store: RunStore,
    private readonly hub: Publisher,
    private readonly now: () => number,
    init: { status: RunStatus; step: number; seq: number; stepDelayMs: number },
  ) {
    this.status = init.status;
    this.step = init.step;
    this.seq = init.seq;
    this.stepDelayMs = init.stepDelayMs;
    this.committedSeq = init.seq;
    this.committedStep = init.step;
  }

  /** The engine's sink: stamp and buffer until the step commits. */
  readonly sink = (event: EngineEvent): void => {
    if (event.type === 'nav_complete')
      this.metrics = ((event.data as { metrics?: Record<string, unknown> }).metrics ?? {}) as Record<
        string,
        unknown
      >;
    this.pending.push(this.stamp(event.type, event.data));
  };

  private stamp(type: EngineEvent['type'], data: unknown): EventEnvelope {
    this.seq += 1;
    this.lastType = type;
    if (type === 'nav_status') this.lastNavStatus = (data as { status?: string } | null)?.status;
    return { type, runId: this.id, seq: this.seq, ts: this.isoNow(), data };
  }

  /** `ts` has ms resolution and a step emits dozens of events per ms: format each ms once. */
  private isoNow(): string {
    const ms = this.now();
    if (ms !== this.tsMs) {
      this.tsMs = ms;
      this.tsText = new Date(ms).toISOString();
    }
    return this.tsText;
  }
  private tsMs = NaN;
  private tsText = '';

  /** A server-raised event (nav_status, restored…): now if idle, else right after the in-flight step. */
  emit(
    type: EngineEvent['type'],
    data: unknown,
    extra: { status?: RunStatus; ended?: boolean; error?: string | null; checkpoint?: Checkpoint } = {},
  ): void {
    if (this.busy) {
      this.deferred.push({ type, data });
      return;
    }
    this.pending.push(this.stamp(type, data));
    this.commit(extra.checkpoint, extra);
  }

  /**
   * Paused inside a step (at a breakpoint): what the step did so far goes to the log and the viewers
   * now, with `extra` (the paused/running status), so the user sees the write that hit. The step's
   * checkpoint still comes with its end; a crash meanwhile leaves these events after the last checkpoint.
   */
  commitMidStep(extra: Array<{ type: EngineEvent['type']; data: unknown }>): void {
    for (const e of extra) this.pending.push(this.stamp(e.type, e.data));
    this.commit(undefined, { status: this.status });
  }

  /** Keeps a finished step (its events + checkpoint) for the next commit. */
  stage(checkpoint: Checkpoint | undefined): void {
    if (this.staged.length === 0) this.stagedAt = this.now();
    this.staged.push({ events: this.pending, checkpoint });
    this.pending = [];
  }

  /** Commits staged steps when enough have gathered (or waited long enough). */
  flushIfDue(): void {
    if (
      this.staged.length >= GROUP_STEPS ||
      (this.staged.length > 0 && this.now() - this.stagedAt >= GROUP_MS)
    )
      this.commit(undefined);
  }

  /** Finished steps wait for a group commit. */
  get hasStaged(): boolean {
    return this.staged.length > 0;
  }

  /**
   * Commits the staged (finished) steps alone, while the next step may be in flight: its events
   * (already stamped, in `pending`) and lifecycle events raised meanwhile stay for its own commit.
   * Used when the loop turns out to be idle (the step in flight waits on I/O), so steps that are
   * done reach the log and the viewers without waiting for the group to fill.
   */
  commitStaged(): void {
    if (this.staged.length === 0) return;
    const earlier = this.staged;
    const last = earlier[earlier.length - 1]!;
    const lastSeq = last.events[last.events.length - 1]?.seq ?? this.committedSeq;
    const steps = last.checkpoint?.step ?? this.committedStep;
    this.staged = [];
    // On failure nothing of it is in the log; the caller ends the run (fail() drops the rest).
    this.store.commit(this.id, { earlier, events: [], steps, status: this.status, plain: true });
    this.committedSeq = lastSeq;
    this.committedStep = steps;
    this.publishCommitted(earlier.flatMap((p) => p.events));
  }

  /** Writes staged steps and buffered events (and a checkpoint) in one transaction, then publishes them. */
  commit(
    checkpoint: Checkpoint | undefined,
    extra: { status?: RunStatus; ended?: boolean; error?: string | null } = {},
  ): void {
    if (!this.busy && this.deferred.length > 0) {
      for (const d of this.deferred) this.pending.push(this.stamp(d.type, d.data));
      this.deferred = [];
    }
    if (extra.ended) this.appendResult(extra.status ?? this.status, extra.error);
    const earlier = this.staged;
    this.staged = [];
    const events = this.pending;
    this.pending = [];
    const ended = extra.ended ? new Date(this.now()).toISOString() : extra.ended === false ? null : undefined;
    try {
      this.store.commit(this.id, {
        earlier,
        events,
        checkpoint,
        steps: this.step,
        status: extra.status ?? this.status,
        // Staged steps mean the run is driven flat out: the cheapest durable form now, encoded later.
        plain: earlier.length > 0,
        ...(ended !== undefined ? { endedAt: ended } : {}),
        ...(extra.error !== undefined ? { error: extra.error } : {}),
      });
    } catch (err) {
      // Nothing of this batch is in the log (one transaction) and nobody saw it: give its seqs back,
      // so the next event continues the log without a gap.
      this.seq = this.committedSeq;
      throw err;
    }
    this.committedSeq = this.seq;
    this.committedStep = this.step;
    // An ended run is only read from now on: pack it (in the background, db/compaction.ts).
    if (extra.ended) this.store.compaction.runEnded(this.id);
    this.publishCommitted(earlier.length === 0 ? events : [...earlier.flatMap((p) => p.events), ...events]);
  }

  private publishCommitted(events: readonly EventEnvelope[]): void {
    try {
      this.hub.publish(events);
    } catch (err) {
      // Committed is what counts; a broadcast failure must not look like a failed step.
      console.error(`statewire: broadcast of ${this.id} failed: ${(err as Error).message}`);
    }
  }

  /**
   * Ends the run as `error` after the log refused a write (disk full…): steps that were not
   * committed are dropped (the engine ran ahead of the log), and the reason is logged if the store
   * takes it now — if not, `recordFailure` retries later and a restart marks the run `interrupted`.
   */
  fail(reason: string): void {
    this.status = 'error';
    this.step = this.committedStep;
    this.staged = [];
    this.pending = [];
    this.deferred = [];
    this.failure = { reason, recorded: false };
    this.recordFailure();
  }

  /** Writes the pending failure (nav_status error + error_event) to the log; true once it is there. */
  recordFailure(): boolean {
    if (!this.failure || this.failure.recorded) return true;
    const { reason } = this.failure;
    const ts = new Date(this.now()).toISOString();
    this.pending.push(this.stamp('nav_status', { status: 'error', step: this.step, error: reason }));
    this.pending.push(
      this.stamp('error_event', {
        id: `srv_${this.id}_${this.seq + 1}`,
        ts,
        severity: 'error',
        source: 'graph',
        code: 'storage-failed',
        title: 'Run stopped: the run log could not be written',
        message: reason,
        scope: { run_id: this.id },
        details: { last_committed_step: this.step },
        hint: 'Free some disk space; every committed step can still be inspected, restored and forked.',
      }),
    );
    try {
      this.commit(undefined, { status: 'error', ended: true, error: reason });
      this.failure.recorded = true;
      return true;
    } catch {
      this.pending = [];
      return false;
    }
  }

  /** The last step the log has (what a restart or restore can come back to). */
  get committedSteps(): number {
    return this.committedStep;
  }

  /**
   * A finished run's log ends with one `run_result` (outputs + final container values). Not twice in
   * a row: a stop that lands after the engine's own `stopped` end re-commits with `ended` again.
   */
  private appendResult(status: RunStatus, error: string | null | undefined): void {
    if (!RESULT_STATUSES.has(status) || this.lastType === 'run_result') return;
    const data = this.engine.result({
      status: status as RunEndStatus,
      ...(typeof error === 'string' ? { error } : {}),
    });
    this.pending.push(this.stamp('run_result', data));
  }

  get active(): boolean {
    return this.status === 'running' || this.status === 'paused' || this.status === 'idle';
  }

  statusData(): { status: RunStatus; step: number } {
    return { status: this.status, step: this.step };
  }
}
