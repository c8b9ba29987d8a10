// The distributed `BatchExecutor`: a batch's episodes become BullMQ jobs (queue.ts) that
// `statewire worker` processes run against the PostgreSQL log; this side enqueues them and reports
// each episode's row as its job completes.
//  - Rows come from two sources: BullMQ's event stream (QueueEvents `completed`, whose return value
//    is the row) for promptness, and the run log's batch rows (`episodes`, written by the worker
//    before its job completes) polled as the safety net for anything the stream missed. Either way
//    an episode is reported once: the first row seen wins, later ones (a retried or recovered job
//    completes only once in BullMQ; the log holds one row per episode) are ignored.
//  - An episode that failed every attempt (the dead-letter list: a QueueEvents `failed`, or found in
//    the failed set by the poll) is ended `error` in its run's log (failEpisode) and reported.
//  - Lost queue: a Redis restarted without persistence forgets the jobs; the poll notices (the
//    batch's QUEUED_KEY mark is gone) and re-adds the jobs of the episodes not yet reported.
//  - Cancel: marks the batch cancelled in Redis (workers stop its episodes between two steps; they
//    end `interrupted`, resumable) and removes its jobs not yet taken; the run ends when the episodes
//    in flight have reported.
import { QueueEvents, type Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { BatchRecord, EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { BatchExecutor } from '../batch/batchManager.ts';
import { failEpisode, type EpisodeJob } from '../batch/episodeRun.ts';
import type { RunLog } from '../db/runLog.ts';
import {
  CANCEL_CHANNEL,
  CANCELLED_KEY,
  deadLetters,
  enqueueEpisodes,
  EPISODE_ATTEMPTS,
  episodeJobId,
  openEpisodeQueue,
  parseEpisodeJobId,
  QUEUE_NAME,
  QUEUE_PREFIX,
  redisConnection,
  within,
  type EpisodeJobData,
} from './queue.ts';

/** Redis key marking a batch's jobs as enqueued; its absence means Redis lost the queue. */
const QUEUED_KEY = 'statewire:queued:';
/** How long a cancelled batch waits for its episodes in flight to report `interrupted`. */
const CANCEL_WAIT_MS = 30_000;

export interface BullExecutorOptions {
  redisUrl: string;
  /** The PostgreSQL run log the workers write (rows are read back from it). */
  log: RunLog;
  /** Plugins folder sent with each job (workers use it when it exists on their machine). */
  plugins?: string;
  /** Safety-net poll of the log's rows (default 1000 ms); the dead-letter list every 5th poll. */
  pollMs?: number;
}

/** One batch being executed. */
class QueuedBatch {
  readonly jobs = new Map<number, EpisodeJob>();
  /** Episodes neither reported nor removed by a cancel. */
  readonly outstanding = new Set<number>();
  readonly reported = new Set<number>();
  cancelled = false;
  /** Followed by another instance now (release): its queue mark stays. */
  released = false;
  private resolve!: () => void;
  readonly finished = new Promise<void>((res) => {
    this.resolve = res;
  });

  constructor(
    readonly batch: BatchRecord,
    jobs: EpisodeJob[],
    private readonly onRow: (row: EpisodeRow) => void,
    readonly onStart?: (job: EpisodeJob) => void,
  ) {
    for (const j of jobs) {
      this.jobs.set(j.episode, j);
      this.outstanding.add(j.episode);
    }
    this.settle();
  }

  /** Reports a row unless its episode was reported already. */
  report(row: EpisodeRow): void {
    if (!this.jobs.has(row.episode) || this.reported.has(row.episode)) return;
    this.reported.add(row.episode);
    this.outstanding.delete(row.episode);
    try {
      this.onRow(row);
    } finally {
      this.settle();
    }
  }

  removed(episode: number): void {
    this.outstanding.delete(episode);
    this.settle();
  }

  settle(): void {
    if (this.outstanding.size === 0) this.resolve();
  }

  /** Stops waiting for the episodes still out (their workers record them in the log anyway). */
  abandon(): void {
    this.outstanding.clear();
    this.resolve();
  }
}

const isRow = (v: unknown): v is EpisodeRow =>
  typeof v === 'object' &&
  v !== null &&
  Number.isInteger((v as EpisodeRow).episode) &&
  typeof (v as EpisodeRow).run_id === 'string';

export class BullExecutor implements BatchExecutor {
  private readonly queue: Queue<EpisodeJobData>;
  /** For what BullMQ does not do: the event stream's tip, cancel marks, health pings. */
  private readonly redis: Redis;
  private events?: Promise<QueueEvents>;
  private readonly batches = new Map<string, QueuedBatch>();
  private readonly cancelling = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly opts: BullExecutorOptions) {
    this.queue = openEpisodeQueue(opts.redisUrl);
    this.queue.on('error', () => undefined); // reconnects; the poll carries on
    this.redis = new Redis(opts.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: true });
    this.redis.on('error', () => undefined);
  }

  /**
   * Resolves when Redis answers PONG, rejects saying why it did not (for /api/health, which bounds
   * the wait: a paused Redis never answers).
   */
  async ping(): Promise<void> {
    const answer = await this.redis.ping();
    if (answer !== 'PONG') throw new Error(`Redis answered ${JSON.stringify(answer)} to PING`);
  }

  async run(
    batch: BatchRecord,
    jobs: EpisodeJob[],
    onRow: (row: EpisodeRow) => void,
    onStart?: (job: EpisodeJob) => void,
  ): Promise<void> {
    if (this.closed) throw new Error('the batch executor is closed');
    await this.listen();
    const b = new QueuedBatch(batch, jobs, onRow, onStart);
    this.batches.set(batch.id, b);
    try {
      await enqueueEpisodes(this.queue, jobs, this.opts.plugins);
      await this.redis.set(QUEUED_KEY + batch.id, '1');
      await Promise.race([b.finished, this.poll(b)]);
    } finally {
      this.batches.delete(batch.id);
      if (!b.released)
        await within(
          this.redis.del(QUEUED_KEY + batch.id).catch(() => 0),
          1000,
        );
    }
  }

  /** The shared event-stream reader, started at the stream's current end before the first enqueue. */
  private listen(): Promise<QueueEvents> {
    return (this.events ??= (async () => {
      const key = `${QUEUE_PREFIX}:${QUEUE_NAME}:events`;
      const tip = await this.redis.xrevrange(key, '+', '-', 'COUNT', 1);
      const qe = new QueueEvents(QUEUE_NAME, {
        connection: redisConnection(this.opts.redisUrl),
        prefix: QUEUE_PREFIX,
        lastEventId: tip[0]?.[0] ?? '0-0',
        // Short blocking reads: close() waits for the one in flight.
        blockingTimeout: 2000,
      });
      qe.on('error', () => undefined);
      qe.on('completed', ({ jobId, returnvalue }) => {
        const b = this.batchOf(jobId);
        const row: unknown = typeof returnvalue === 'string' ? safeJson(returnvalue) : returnvalue;
        if (b && isRow(row)) b.report(row);
      });
      qe.on('failed', ({ jobId, failedReason }) => {
        const key = parseEpisodeJobId(jobId);
        const b = key && this.batches.get(key.batchId);
        if (b && key) void this.deadLetter(b, key.episode, failedReason, EPISODE_ATTEMPTS);
      });
      qe.on('active', ({ jobId }) => {
        const key = parseEpisodeJobId(jobId);
        const b = key && this.batches.get(key.batchId);
        const job = key && b?.jobs.get(key.episode);
        if (b && job && !b.reported.has(job.episode)) b.onStart?.(job);
      });
      await qe.waitUntilReady();
      return qe;
    })());
  }

  private batchOf(jobId: string): QueuedBatch | undefined {
    const key = parseEpisodeJobId(jobId);
    return key ? this.batches.get(key.batchId) : undefined;
  }

  /** An episode whose job failed every attempt: ended `error` in its run's log, then reported. */
  private async deadLetter(b: QueuedBatch, episode: number, reason: string, attempts: number): Promise<void> {
    const job = b.jobs.get(episode);
    if (!job || b.reported.has(episode)) return;
    const why = `failed ${attempts} attempts (dead-letter list): ${reason}`;
    let row: EpisodeRow;
    try {
      row = await failEpisode(job, { log: this.opts.log, worker: 'queue' }, why, attempts);
    } catch (err) {
      row = {
        episode,
        seed: job.seed,
        run_id: job.runId,
        status: 'error',
        steps: 0,
        outputs: {},
        metrics: {},
        success: false,
        error: `${why}; its run could not be ended: ${(err as Error).message}`,
        worker: 'queue',
        attempts,
      };
    }
    b.report(row);
  }

  /** The safety net: rows the workers recorded, and the dead-letter list, until the batch is settled. */
  private async poll(b: QueuedBatch): Promise<void> {
    const every = this.opts.pollMs ?? 1000;
    for (let round = 1; !this.closed; round++) {
      const settled = await Promise.race([
        b.finished.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), every).unref()),
      ]);
      if (settled) return;
      try {
        for (const row of await this.opts.log.episodes(b.batch.id)) b.report(row);
        await this.refillIfLost(b);
        if (round % 5 === 0)
          for (const d of await deadLetters(this.queue, b.batch.id))
            await this.deadLetter(b, d.episode, d.reason, d.attempts);
      } catch {
        // the log or Redis is unreachable for now: next round
      }
    }
  }

  /**
   * A Redis that restarted without persistence (the documented try-out setup) has lost the queue:
   * the batch's mark (QUEUED_KEY, set after its enqueue) is gone with it. Then the jobs of the
   * episodes not yet reported — their rows were just read from the log, so an episode a worker
   * recorded is not among them — are added again under their ids (an existing job stays as it is).
   * A re-added episode resumes from its last commit and its row replaces any earlier one: each
   * episode is still recorded and reported once.
   */
  private async refillIfLost(b: QueuedBatch): Promise<void> {
    if (b.cancelled || (await this.redis.exists(QUEUED_KEY + b.batch.id)) === 1) return;
    const jobs = [...b.outstanding].flatMap((episode) => b.jobs.get(episode) ?? []);
    if (jobs.length > 0) {
      await enqueueEpisodes(this.queue, jobs, this.opts.plugins);
      console.error(
        `statewire: batch ${b.batch.id}: the Redis queue was lost (a restart without persistence); ` +
          `re-added ${jobs.length} episode(s) from the run log`,
      );
    }
    await this.redis.set(QUEUED_KEY + b.batch.id, '1');
  }

  /** Stops following a batch, its jobs left running (its new owner follows them: batchLease.ts). */
  release(batchId: string): void {
    const b = this.batches.get(batchId);
    if (!b) return;
    b.released = true;
    b.abandon();
  }

  async wasCancelled(batchId: string): Promise<boolean> {
    return (await this.redis.exists(CANCELLED_KEY + batchId)) === 1;
  }

  cancel(batchId: string): void {
    const b = this.batches.get(batchId);
    if (!b || b.cancelled) return;
    b.cancelled = true;
    const removing = (async () => {
      await this.redis.set(CANCELLED_KEY + batchId, '1', 'EX', 7 * 24 * 3600);
      await this.redis.publish(CANCEL_CHANNEL, batchId);
      // Jobs not taken yet go; those in flight stop at their next step and report `interrupted`.
      for (const episode of [...b.outstanding]) {
        const removed = await this.queue.remove(episodeJobId(batchId, episode));
        if (removed === 1) b.removed(episode);
      }
      // An episode whose worker died and that no other worker takes would hold the cancel forever.
      setTimeout(() => b.abandon(), CANCEL_WAIT_MS).unref();
    })().catch((err: unknown) =>
      console.error(`statewire: cancel of batch ${batchId}: ${(err as Error).message}`),
    );
    this.cancelling.add(removing);
    void removing.finally(() => this.cancelling.delete(removing));
  }

  /**
   * Stops following: runs in progress resolve now (a server going down does not wait for episodes
   * that workers elsewhere finish and record in the log on their own).
   */
  async close(): Promise<void> {
    this.closed = true;
    // Cancels in progress remove their batches' waiting jobs first (a closing server cancels them).
    await within(Promise.allSettled([...this.cancelling]), 3000);
    for (const b of this.batches.values()) b.abandon();
    const events = this.events;
    this.events = undefined;
    const qe = await within(events ?? Promise.resolve(undefined), 1000);
    const closed = await within(
      Promise.allSettled([qe?.close(), this.queue.close()]).then(() => true),
      3000,
    );
    if (!closed) await Promise.allSettled([qe?.disconnect(), this.queue.disconnect()]);
    this.redis.disconnect();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
