// One run the server is driving: its engine, its status, and when its steps commit (events +
// checkpoint + counters in one transaction, then broadcast). Stamping and commit-then-publish are
// the run writer's (runs/runWriter.ts), shared with batch episodes and the CLI.
import type { Breakpoint, BreakpointHit } from '../../domain/debug/breakpoints.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { EngineEvent, EventEnvelope, RunEndStatus, RunStatus } from '../../domain/protocol/protocol.ts';
import type { Checkpoint, EngineRun } from '../../engine/run.api.ts';
import type { RunStore } from '../db/runStore.ts';
import { RunWriter } from './runWriter.ts';

/** Ends that get a `run_result` event. */
const RESULT_STATUSES: ReadonlySet<RunStatus> = new Set(['done', 'error', 'stopped', 'interrupted']);

export interface Publisher {
  publish(events: readonly EventEnvelope[]): void;
}

export class LiveRun {
  engine!: EngineRun;
  status: RunStatus;
  step: number;
  stepDelayMs: number;
  metrics: Record<string, unknown> = {};
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
  /** Stamps, stages (group commit at step_delay_ms 0), commits and publishes this run's events. */
  private readonly writer: RunWriter;
  /** Lifecycle events raised while a step is in flight; committed right after that step. */
  private deferred: Array<{ type: EngineEvent['type']; data: unknown }> = [];
  /** Step as of the last commit that reached the log (where a refused write leaves the run). */
  private committedStep: number;
  /** Why the log refused a write (disk full…) and whether that reason made it into the log since. */
  failure: { reason: string; recorded: boolean } | undefined;

  constructor(
    readonly id: string,
    readonly graph: GraphDef,
    readonly lineage: string,
    readonly freshEffects: boolean,
    private readonly store: RunStore,
    hub: Publisher,
    private readonly now: () => number,
    init: { status: RunStatus; step: number; seq: number; stepDelayMs: number },
  ) {
    this.status = init.status;
    this.step = init.step;
    this.stepDelayMs = init.stepDelayMs;
    this.writer = new RunWriter(id, now, init.seq, (events) => hub.publish(events));
    this.committedStep = init.step;
  }

  /** The engine's sink: stamp and buffer until the step commits. */
  readonly sink = (event: EngineEvent): void => {
    if (event.type === 'nav_complete')
      this.metrics = ((event.data as { metrics?: Record<string, unknown> }).metrics ?? {}) as Record<
        string,
        unknown
      >;
    this.stamp(event.type, event.data);
  };

  /** Seq of the last event stamped. */
  get seq(): number {
    return this.writer.seq;
  }

  private stamp(type: EngineEvent['type'], data: unknown): void {
    if (type === 'nav_status') this.lastNavStatus = (data as { status?: string } | null)?.status;
    this.writer.stamp(type, data);
  }

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
    this.stamp(type, data);
    this.commit(extra.checkpoint, extra);
  }

  /**
   * Paused inside a step (at a breakpoint): what the step did so far goes to the log and the viewers
   * now, with `extra` (the paused/running status), so the user sees the write that hit. The step's
   * checkpoint still comes with its end; a crash meanwhile leaves these events after the last checkpoint.
   */
  commitMidStep(extra: Array<{ type: EngineEvent['type']; data: unknown }>): void {
    for (const e of extra) this.stamp(e.type, e.data);
    this.commit(undefined, { status: this.status });
  }

  /** Keeps a finished step (its events + checkpoint) for the next commit. */
  stage(checkpoint: Checkpoint | undefined): void {
    this.writer.stage(checkpoint);
  }

  /**
   * Commits staged steps when enough have gathered or waited long enough (runWriter.ts: GROUP_STEPS,
   * GROUP_MS). A loop not under load commits the staged steps at once instead (runManager: a paced
   * loop never stages; a step that waits on I/O or a timer commits what is staged before it, see
   * `hasStaged`/`commitStaged`).
   */
  flushIfDue(): void {
    if (this.writer.groupDue) this.commit(undefined);
  }

  /** Finished steps wait for a group commit. */
  get hasStaged(): boolean {
    return this.writer.stagedSteps > 0;
  }

  /**
   * Commits the staged (finished) steps alone, while the next step may be in flight: its events
   * (already stamped, in `pending`) and lifecycle events raised meanwhile stay for its own commit.
   * Used when the loop turns out to be idle (the step in flight waits on I/O), so steps that are
   * done reach the log and the viewers without waiting for the group to fill.
   */
  commitStaged(): void {
    if (this.writer.stagedSteps === 0) return;
    const steps = this.writer.stagedStep ?? this.committedStep;
    // On failure nothing of it is in the log; the caller ends the run (fail() drops the rest).
    this.writer.commit(
      ({ earlier }) =>
        this.store.commit(this.id, { earlier, events: [], steps, status: this.status, plain: true }),
      undefined,
      true,
    );
    this.committedStep = steps;
  }

  /** Writes staged steps and buffered events (and a checkpoint) in one transaction, then publishes them. */
  commit(
    checkpoint: Checkpoint | undefined,
    extra: { status?: RunStatus; ended?: boolean; error?: string | null } = {},
  ): void {
    if (!this.busy && this.deferred.length > 0) {
      for (const d of this.deferred) this.stamp(d.type, d.data);
      this.deferred = [];
    }
    if (extra.ended) this.appendResult(extra.status ?? this.status, extra.error);
    const ended = extra.ended ? new Date(this.now()).toISOString() : extra.ended === false ? null : undefined;
    // A refused write throws with nothing of it in the log and its seqs given back (RunWriter).
    this.writer.commit(
      (b) =>
        this.store.commit(this.id, {
          ...b,
          steps: this.step,
          status: extra.status ?? this.status,
          // Staged steps mean the run is driven flat out: the cheapest durable form now, encoded later.
          plain: b.earlier.length > 0,
          ...(ended !== undefined ? { endedAt: ended } : {}),
          ...(extra.error !== undefined ? { error: extra.error } : {}),
        }),
      checkpoint,
    );
    this.committedStep = this.step;
    // An ended run is only read from now on: pack it (in the background, db/compaction.ts).
    if (extra.ended) this.store.compaction.runEnded(this.id);
  }

  /**
   * Ends the run as `error` after the log refused a write (disk full…): steps that were not
   * committed are dropped (the engine ran ahead of the log), and the reason is logged if the store
   * takes it now — if not, `recordFailure` retries later and a restart marks the run `interrupted`.
   */
  fail(reason: string): void {
    this.status = 'error';
    this.step = this.committedStep;
    this.writer.discard();
    this.deferred = [];
    this.failure = { reason, recorded: false };
    this.recordFailure();
  }

  /** Writes the pending failure (nav_status error + error_event) to the log; true once it is there. */
  recordFailure(): boolean {
    if (!this.failure || this.failure.recorded) return true;
    const { reason } = this.failure;
    const ts = new Date(this.now()).toISOString();
    this.stamp('nav_status', { status: 'error', step: this.step, error: reason });
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
    });
    try {
      this.commit(undefined, { status: 'error', ended: true, error: reason });
      this.failure.recorded = true;
      return true;
    } catch {
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
    if (!RESULT_STATUSES.has(status) || this.writer.lastType === 'run_result') return;
    const data = this.engine.result({
      status: status as RunEndStatus,
      ...(typeof error === 'string' ? { error } : {}),
    });
    this.stamp('run_result', data);
  }

  get active(): boolean {
    return this.status === 'running' || this.status === 'paused' || this.status === 'idle';
  }

  statusData(): { status: RunStatus; step: number } {
    return { status: this.status, step: this.step };
  }
}
