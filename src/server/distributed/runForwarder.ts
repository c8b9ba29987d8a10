// Every run of this instance reaches PostgreSQL, the record every instance shares (distributed
// mode). The instance's SQLite store stays its synchronous working store: an interactive run, a
// `run --server`, a fork, a branch or an imported bundle commits there first (commit-before-
// broadcast is the local commit, as in embedded mode), and this forwarder then copies what
// PostgreSQL lacks, run by run, through the RunLog port (PgRunLog.createRun/commit) — the same run
// id, the same envelopes with the same seqs, the same checkpoints, and the row's status, steps,
// end and error.
//
// Why a copier that reads SQLite rather than a queue of the commits themselves: the local log is
// the source, so nothing can be dropped or reordered between the two stores, and catching up after
// any outage — PostgreSQL down for an hour, this process killed — is the same code as forwarding
// one step: ask PostgreSQL for the run's last seq, send what follows from SQLite, in seq order.
//  - One lane per run at a time (never two writers of one run's PostgreSQL log), a few lanes for
//    different runs at once; a run written again while its lane is busy is forwarded again after.
//  - A failure (PostgreSQL down, a lost connection) retries that run with backoff, 250 ms doubling
//    to 5 s, for as long as the process runs; nothing is given up.
//  - At start (`start`), every local run is compared with its PostgreSQL row and the differing ones
//    are forwarded: what a stopped instance or a PostgreSQL outage left behind is caught up.
//  - After each commit to PostgreSQL the forwarded envelopes are published to Redis for viewers on
//    other instances (viewerRelay.ts), as workers publish episodes: never before PostgreSQL has them.
// Lag: a paced step reaches PostgreSQL one PostgreSQL commit after its local commit; a run driven
// flat out writes faster than PostgreSQL takes it, and is forwarded in bigger commits (pages of up
// to 500 events) that catch up after it ends (docs/scaling-out.md, "One store", for measurements).
import type { EventEnvelope, RunStatus } from '../../domain/protocol/protocol.ts';
import type { Checkpoint } from '../../engine/run.api.ts';
import type { PgRunLog } from '../db/pgRunLog.ts';
import type { CommitBatch, RunStore, StepPart, StoredRun } from '../db/runStore.ts';

/** Events per PostgreSQL commit while catching up. */
const PAGE = 500;
const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 5000;
/** Rows compared per PostgreSQL query at start. */
const SWEEP_CHUNK = 1000;
const ACTIVE = new Set(['running', 'paused', 'idle']);

export interface RunForwarderOptions {
  /** Called with each forwarded page once PostgreSQL has it (live viewers on other instances). */
  publish?: (events: EventEnvelope[]) => void;
  /** The run ended (its row is final in PostgreSQL): the publisher may forget it. */
  ended?: (runId: string) => void;
  /** Runs not to forward (copies this instance took FROM PostgreSQL: remoteCopies.ts). */
  skip?: (runId: string) => boolean;
  /** Runs forwarded at once (default 4). */
  lanes?: number;
  /** Where failures are told (default stderr), once per outage of a run. */
  warn?: (message: string) => void;
}

/** The row fields a commit carries to PostgreSQL. */
const rowFields = (r: StoredRun): Pick<CommitBatch, 'steps' | 'status' | 'endedAt' | 'error'> => ({
  steps: r.steps,
  status: r.status as CommitBatch['status'],
  endedAt: r.ended_at,
  error: r.error,
});

const sameRow = (a: StoredRun, b: StoredRun) =>
  a.status === b.status && a.steps === b.steps && a.ended_at === b.ended_at && a.error === b.error;

/**
 * Splits a page of consecutive events into step parts at the checkpoints among them (a checkpoint
 * closes the part whose last event has its seq; one at seq 0 is a part without events).
 */
export function stepParts(
  events: readonly EventEnvelope[],
  checkpoints: readonly (Checkpoint & { seq: number })[],
): StepPart[] {
  const parts: StepPart[] = [];
  let part: EventEnvelope[] = [];
  let i = 0;
  const close = (cp?: Checkpoint) => {
    parts.push({ events: part, ...(cp ? { checkpoint: cp } : {}) });
    part = [];
  };
  while (i < checkpoints.length && checkpoints[i]!.seq < (events[0]?.seq ?? Infinity)) {
    const { seq: _seq, ...cp } = checkpoints[i++]!;
    close(cp);
  }
  for (const e of events) {
    part.push(e);
    while (i < checkpoints.length && checkpoints[i]!.seq === e.seq) {
      const { seq: _seq, ...cp } = checkpoints[i++]!;
      close(cp);
    }
  }
  if (part.length > 0 || parts.length === 0) close();
  return parts;
}

export class RunForwarder {
  /** Runs waiting for a lane, in the order they were written. */
  private readonly waiting = new Set<string>();
  private readonly busy = new Set<string>();
  /** Runs deleted here: their PostgreSQL copy goes too. */
  private readonly deleted = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly lanes: number;
  private readonly warn: (message: string) => void;
  private idleWaiters: (() => void)[] = [];
  private unsubscribe?: () => void;
  private sweeping = false;
  private closed = false;

  constructor(
    private readonly store: RunStore,
    private readonly log: PgRunLog,
    private readonly opts: RunForwarderOptions = {},
  ) {
    this.lanes = opts.lanes ?? 4;
    this.warn = opts.warn ?? ((m) => console.error(`statewire: ${m}`));
  }

  /** Follows every write of the store from now on, and catches up what PostgreSQL lacks. */
  start(): void {
    this.unsubscribe = this.store.onChange((runId, deleted) => this.kick(runId, deleted));
    void this.sweep(1);
  }

  /** Resolves once nothing is waiting, being forwarded or due for a retry (tests, shutdown). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops forwarding (what is in flight finishes; the rest is caught up at the next start). */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.waiting.clear();
    if (this.busy.size > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.waiting.size === 0 && this.busy.size === 0 && this.timers.size === 0 && !this.sweeping;
  }

  private settleIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private kick(runId: string, deleted = false): void {
    if (this.closed || this.opts.skip?.(runId)) return;
    if (deleted) this.deleted.add(runId);
    this.waiting.add(runId);
    this.pump();
  }

  private pump(): void {
    for (const runId of this.waiting) {
      if (this.busy.size >= this.lanes) return;
      if (this.busy.has(runId)) continue; // its lane runs it again when done
      this.waiting.delete(runId);
      this.busy.add(runId);
      void this.run(runId).finally(() => {
        this.busy.delete(runId);
        this.pump();
        this.settleIdle();
      });
    }
  }

  private async run(runId: string): Promise<void> {
    try {
      await this.forward(runId);
      if (this.failures.delete(runId)) this.warn(`run ${runId}: its PostgreSQL copy caught up`);
    } catch (err) {
      if (this.closed) return;
      const n = (this.failures.get(runId) ?? 0) + 1;
      this.failures.set(runId, n);
      if (n === 1)
        this.warn(`run ${runId}: not yet in PostgreSQL (${(err as Error).message}); retrying with backoff`);
      this.retryLater(() => this.kick(runId), n);
    }
  }

  private retryLater(fn: () => void, attempt: number): void {
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (attempt - 1));
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
      this.settleIdle();
    }, delay);
    t.unref();
    this.timers.add(t);
  }

  /** Brings the PostgreSQL copy of one run up to the local one (or deletes it, for a deleted run). */
  private async forward(runId: string): Promise<void> {
    const local = this.store.getRun(runId);
    if (!local) {
      // Still being imported (hidden): its last write kicks it again. Gone: deleted here.
      if (this.deleted.has(runId) && !this.store.hasRunId(runId)) await this.log.deleteRun(runId);
      this.deleted.delete(runId);
      return;
    }
    this.deleted.delete(runId);
    let remote = await this.log.getRun(runId);
    if (!remote) {
      await this.log.createRun({
        id: local.id,
        graphName: local.graph_name,
        graph: this.store.graphOf(runId),
        status: local.status as RunStatus,
        startedAt: local.started_at,
        parentRunId: local.parent_run_id,
        parentStep: local.parent_step,
        lineage: local.lineage,
        freshEffects: local.fresh_effects,
        stepDelayMs: local.step_delay_ms,
        graphVersion: local.graph_version,
        kind: this.store.kindOf(runId),
      });
      remote = { ...local, last_seq: 0, steps: 0, ended_at: null, error: null };
    }
    // PostgreSQL holds more of this run than this store: another instance's record, not ours to write.
    if (remote.last_seq > local.last_seq) return;
    let after = remote.last_seq;
    let rowSent = false;
    while (after < local.last_seq) {
      const events = this.store.events(runId, after, PAGE).filter((e) => e.seq <= local.last_seq);
      const last = events[events.length - 1];
      if (!last) break;
      const checkpoints = this.store
        .checkpointsBetween(runId, after === 0 ? -1 : after, last.seq)
        .map((c) => ({
          seq: c.seq,
          step: c.step,
          state: this.store.blobs.get(c.root) as Checkpoint['state'],
        }));
      const parts = stepParts(events, checkpoints);
      const final = parts[parts.length - 1]!;
      const done = last.seq >= local.last_seq;
      await this.log.commit(runId, {
        earlier: parts.slice(0, -1),
        events: final.events,
        ...(final.checkpoint ? { checkpoint: final.checkpoint } : {}),
        ...(done ? rowFields(local) : {}),
      });
      rowSent = done;
      this.opts.publish?.(events);
      after = last.seq;
    }
    if (!rowSent && !sameRow(local, remote))
      await this.log.commit(runId, { events: [], ...rowFields(local) });
    if (!ACTIVE.has(local.status)) this.opts.ended?.(runId);
  }

  /**
   * Compares every local run with its PostgreSQL row and forwards those PostgreSQL lacks or holds
   * older; retried with backoff while PostgreSQL cannot be read.
   */
  private async sweep(attempt: number): Promise<void> {
    if (this.closed) return;
    this.sweeping = true;
    try {
      const locals = this.store.listRuns(Number.MAX_SAFE_INTEGER);
      for (let i = 0; i < locals.length && !this.closed; i += SWEEP_CHUNK) {
        const chunk = locals.slice(i, i + SWEEP_CHUNK).filter((r) => !this.opts.skip?.(r.id));
        const remote = new Map((await this.log.getRuns(chunk.map((r) => r.id))).map((r) => [r.id, r]));
        for (const r of chunk) {
          const p = remote.get(r.id);
          if (!p || p.last_seq < r.last_seq || (p.last_seq === r.last_seq && !sameRow(r, p))) this.kick(r.id);
        }
      }
    } catch (err) {
      if (attempt === 1)
        this.warn(`runs cannot be compared with PostgreSQL yet (${(err as Error).message}); retrying`);
      this.retryLater(() => void this.sweep(attempt + 1), attempt);
    } finally {
      this.sweeping = false;
      this.settleIdle();
    }
  }
}
