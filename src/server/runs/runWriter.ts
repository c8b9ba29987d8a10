// The one writer of a run's log, shared by interactive runs (runs/liveRun.ts), batch episodes
// (batch/episodeRun.ts) and `statewire run` (cli/run.ts). It stamps every event into its envelope
// {type, runId, seq, ts, data} with seq consecutive, keeps them until their step commits, commits
// a step's events together with that step's checkpoint, and publishes what committed — never before:
// a viewer can never see an event the log does not have, and a log always ends at a checkpoint.
//
// Finished steps may be staged and committed several to a transaction (group commit): each step
// keeps its own checkpoint, a step never spans two commits, and nothing staged is published before
// its commit. The store is the caller's: synchronous (the embedded RunStore), asynchronous (a
// RunLog over IPC or PostgreSQL), or none (the CLI prints what it publishes).
import type { EngineEvent, EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { Checkpoint } from '../../engine/run.api.ts';
import type { StepPart } from '../db/runStore.ts';

export type Publish = (events: readonly EventEnvelope[]) => void;

/**
 * Group commit of a run driven flat out (steps back to back): at most this many finished steps, or
 * this long, wait for one transaction. Shared by interactive runs (liveRun.ts) and batch episodes
 * (batch/episodeRun.ts); a paced run commits every step at once.
 */
export const GROUP_STEPS = 16;
export const GROUP_MS = 15;

/** What one commit writes: the staged steps, then the events of the step at hand and its checkpoint. */
export interface WriterBatch {
  earlier: StepPart[];
  events: EventEnvelope[];
  checkpoint?: Checkpoint;
}

export class RunWriter {
  /** Seq of the last event stamped. */
  seq: number;
  /** Type of the last event stamped. */
  lastType: EngineEvent['type'] | undefined;
  /** Seq of the last event the log holds (a refused synchronous commit comes back to it). */
  private committed: number;
  private pending: EventEnvelope[] = [];
  private staged: StepPart[] = [];
  private stagedAt = 0;
  /** The asynchronous commit sent last, not yet known to be in the log. */
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    readonly runId: string,
    private readonly now: () => number,
    /** The run's last seq in the log (0 for a new run). */
    seq: number,
    private readonly publishTo?: Publish,
  ) {
    this.seq = seq;
    this.committed = seq;
  }

  /** Stamps an event and keeps it for the next commit. */
  stamp(type: EngineEvent['type'], data: unknown): EventEnvelope {
    this.seq += 1;
    this.lastType = type;
    const e: EventEnvelope = { type, runId: this.runId, seq: this.seq, ts: this.iso(), data };
    this.pending.push(e);
    return e;
  }

  /** `ts` has ms resolution and a step emits dozens of events per ms: format each ms once. */
  iso(): string {
    const ms = this.now();
    if (ms !== this.tsMs) {
      this.tsMs = ms;
      this.tsText = new Date(ms).toISOString();
    }
    return this.tsText;
  }
  private tsMs = NaN;
  private tsText = '';

  /** Keeps a finished step (its events + checkpoint) for the next commit. */
  stage(checkpoint: Checkpoint | undefined): void {
    if (this.staged.length === 0) this.stagedAt = this.now();
    this.staged.push({ events: this.pending, ...(checkpoint ? { checkpoint } : {}) });
    this.pending = [];
  }

  /** Finished steps waiting for a commit. */
  get stagedSteps(): number {
    return this.staged.length;
  }

  /** Enough finished steps are staged, or the oldest waited long enough: time for a group commit. */
  get groupDue(): boolean {
    const n = this.staged.length;
    return n >= GROUP_STEPS || (n > 0 && this.now() - this.stagedAt >= GROUP_MS);
  }

  /** The last staged step's checkpoint step, if any (what a commit of the staged steps reaches). */
  get stagedStep(): number | undefined {
    return this.staged[this.staged.length - 1]?.checkpoint?.step;
  }

  /**
   * Forgets everything not committed (the log refused a write and the run ends there): its seqs are
   * given back, so what is written next continues the log without a gap.
   */
  discard(): void {
    this.staged = [];
    this.pending = [];
    this.seq = this.committed;
  }

  /**
   * Commits synchronously: `write` gets the staged steps and the pending events (+ `checkpoint`) and
   * writes them in one transaction (or throws, having written nothing); then they are published.
   * Without `write` (no log: the CLI) they are published at once. With `stagedOnly` the pending
   * events — a step still in flight — stay for that step's own commit.
   */
  commit(
    write?: (batch: WriterBatch) => void,
    checkpoint?: Checkpoint,
    stagedOnly = false,
  ): readonly EventEnvelope[] {
    const batch = this.take(checkpoint, stagedOnly);
    const last = this.lastSeqOf(batch);
    try {
      write?.(batch);
    } catch (err) {
      // Nothing of this batch is in the log (one transaction) and nobody saw it: give its seqs back
      // (a step in flight keeps stamping after them, so only when nothing is pending beyond them).
      if (!stagedOnly || this.pending.length === 0) this.seq = this.committed;
      throw err;
    }
    this.committed = last;
    return this.publish(batch);
  }

  /**
   * Commits asynchronously, after the previous asynchronous commit only: unless `wait`, the caller
   * goes on (the next step runs while this one is written, over IPC or the network), and commits
   * still reach the log one at a time, in order. A refused commit fails the next call.
   */
  async commitAsync(
    write: (batch: WriterBatch) => Promise<void>,
    checkpoint?: Checkpoint,
    wait = true,
  ): Promise<void> {
    const batch = this.take(checkpoint, false);
    const last = this.lastSeqOf(batch);
    await this.inFlight;
    const written = write(batch).then(() => {
      this.committed = last;
      this.publish(batch);
    });
    written.catch(() => undefined); // awaited by the next call; no unhandled rejection meanwhile
    this.inFlight = written;
    if (wait) await written;
  }

  private take(checkpoint: Checkpoint | undefined, stagedOnly: boolean): WriterBatch {
    const earlier = this.staged;
    this.staged = [];
    if (stagedOnly) return { earlier, events: [] };
    const events = this.pending;
    this.pending = [];
    return { earlier, events, ...(checkpoint ? { checkpoint } : {}) };
  }

  private lastSeqOf(b: WriterBatch): number {
    for (const part of [b, ...[...b.earlier].reverse()]) {
      const last = part.events[part.events.length - 1];
      if (last) return last.seq;
    }
    return this.committed;
  }

  private publish(b: WriterBatch): readonly EventEnvelope[] {
    const events = b.earlier.length === 0 ? b.events : [...b.earlier.flatMap((p) => p.events), ...b.events];
    if (events.length === 0 || !this.publishTo) return events;
    try {
      this.publishTo(events);
    } catch (err) {
      // Committed is what counts; a viewer's trouble must not look like a failed step.
      console.error(`statewire: broadcast of ${this.runId} failed: ${(err as Error).message}`);
    }
    return events;
  }
}
