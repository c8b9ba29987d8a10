// Batches: one graph run once per episode, each episode a run of its own. The manager creates the
// batch record, builds the episode jobs (derived seed, seeded graph, run id), hands them to an
// executor (the embedded process pool, or a distributed queue behind the same interface), records
// each episode's row exactly once and reports progress. Reading a batch (`get`) works from the log
// alone, so a batch of an earlier process reads the same way as a live one.
import { randomBytes } from 'node:crypto';
import { aggregateRows } from '../../domain/batch/aggregate.ts';
import type { BatchRecord, BatchStatus, EpisodeRow } from '../../domain/batch/batch.types.ts';
import {
  progressOf,
  type BatchDetail,
  type BatchListItem,
  type BatchProgress,
} from '../../domain/batch/progress.ts';
import { episodeRunId } from '../../domain/batch/episodeIds.ts';
import { applyEpisodeSeed, deriveSeed } from '../../domain/batch/seeds.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { retryWhileUnavailable } from '../db/pgErrors.ts';
import type { RunLog } from '../db/runLog.ts';
import { graphVersion, graphVersionOf } from '../runs/graphVersion.ts';
import type { EpisodeJob } from './episodeRun.ts';

/** Runs a batch's jobs somewhere; calls `onRow` once per finished episode (a retry may call it again). */
export interface BatchExecutor {
  run(
    batch: BatchRecord,
    jobs: EpisodeJob[],
    onRow: (row: EpisodeRow) => void,
    /** An episode was handed to a worker (for the `running` count). */
    onStart?: (job: EpisodeJob) => void,
  ): Promise<void>;
  /** Starts no more of the batch's episodes and stops those in flight (they end `interrupted`). */
  cancel(batchId: string): void;
  /**
   * Stops following the batch without stopping its episodes: `run` resolves now (another instance
   * owns the batch and collects its rows). Only executors whose episodes outlive this process.
   */
  release?(batchId: string): void;
  /** Whether a batch was cancelled by an earlier owner (adopt ends it `cancelled`, runs nothing more). */
  wasCancelled?(batchId: string): Promise<boolean>;
  close(): Promise<void>;
}

/** How a batch ended (its record's last write). */
export type BatchEnd = Pick<BatchRecord, 'status' | 'ended_at' | 'error'>;

/**
 * Who owns a batch when several processes share the log (distributed mode: a lease per batch,
 * `distributed/batchLease.ts`); absent, this process owns every batch it starts. The owner alone
 * ends a batch; a batch whose owner died is adopted by another process (`BatchManager.adopt`).
 */
export interface BatchOwnership {
  /** Makes this process the owner of a batch about to be created. */
  claim(batchId: string): Promise<void>;
  /** Writes the batch's end while this process still owns it, and gives it up; false: not its owner any more. */
  end(batchId: string, end: BatchEnd): Promise<boolean>;
  /** Gives the batch up without ending it: another process takes it over at once. */
  release(batchId: string): Promise<void>;
  /** `listener` learns of a batch another process took over (this one stalled past its lease). */
  onLost(listener: (batchId: string) => void): void;
}

export interface BatchStart {
  /** Parsed, validated, with the `--set` overrides applied (they are recorded as `sets`). */
  graph: GraphDef;
  episodes: number;
  workers: number;
  seed: number;
  sets: string[];
}

export interface BatchManagerOptions {
  log: RunLog;
  executor: BatchExecutor;
  mode?: BatchRecord['mode'];
  /** Distributed mode: batches owned through leases, adopted when their owner dies. */
  ownership?: BatchOwnership;
  /** Progress of a live batch: at its start and end, and in between at most every `progressIntervalMs`. */
  onProgress?: (batchId: string, progress: BatchProgress) => void;
  /** Each recorded episode row (the CLI prints a line per episode). */
  onRow?: (batchId: string, row: EpisodeRow, progress: BatchProgress) => void;
  progressIntervalMs?: number;
  now?: () => number;
}

interface LiveBatch {
  record: BatchRecord;
  rows: Map<number, EpisodeRow>;
  running: Set<number>;
  startedMs: number;
  cancelled: boolean;
  /** No longer ours: another process took it over (lost) or this one gave it up on close (released). */
  leaving?: 'lost' | 'released';
  recording: Promise<unknown>;
  timer?: NodeJS.Timeout;
  lastEmit: number;
  done: Promise<BatchRecord>;
}

/** How long a batch's end waits for an unreachable PostgreSQL before it is given up (logged). */
const END_RETRY_MS = 10 * 60_000;

export const newBatchId = () => `batch_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
export { episodeRunId };

const withoutGraph = ({ graph: _graph, ...rest }: BatchRecord): Omit<BatchRecord, 'graph'> => rest;

/** Episode jobs 1…N: seeds derived from the base seed, graphs sharing everything but seeded nodes. */
export function buildJobs(
  batchId: string,
  graph: GraphDef,
  episodes: number,
  baseSeed: number,
  /** The batch's version (BatchManager passes its record's; else read from the graph as a file would be). */
  version: string | null = graphVersionOf(graph),
): EpisodeJob[] {
  return Array.from({ length: episodes }, (_, i) => {
    const episode = i + 1;
    const seed = deriveSeed(baseSeed, episode);
    return {
      batchId,
      episode,
      seed,
      runId: episodeRunId(batchId, episode),
      graphName: graph.name,
      graph: applyEpisodeSeed(graph, seed),
      graphVersion: version,
    };
  });
}

export class BatchManager {
  private readonly live = new Map<string, LiveBatch>();
  private readonly now: () => number;
  private closing = false;

  constructor(private readonly opts: BatchManagerOptions) {
    this.now = opts.now ?? Date.now;
    opts.ownership?.onLost((batchId) => this.leave(batchId, 'lost'));
  }

  /** Creates the batch and starts it; `done` resolves with the final record. */
  async start(req: BatchStart): Promise<{ batchId: string; done: Promise<BatchRecord> }> {
    if (this.closing) throw new Error('the batch manager is closing');
    const id = newBatchId();
    const record: BatchRecord = {
      id,
      graph_name: req.graph.name,
      graph: req.graph,
      graph_version: graphVersion(req.graph),
      episodes: req.episodes,
      workers: req.workers,
      seed: req.seed,
      sets: req.sets,
      mode: this.opts.mode ?? 'embedded',
      // `running` once its first episode is handed to a worker: until then it waits for a worker
      // (the pool's slots are taken by other batches, or no distributed worker took a job yet).
      status: 'queued',
      created_at: new Date(this.now()).toISOString(),
      ended_at: null,
      error: null,
    };
    const own = this.opts.ownership;
    // Owned before it exists: no other process ever sees the new batch without an owner.
    await own?.claim(id);
    try {
      await this.opts.log.createBatch(record);
    } catch (err) {
      await own?.release(id).catch(() => undefined);
      throw err;
    }
    const b: LiveBatch = {
      record,
      rows: new Map(),
      running: new Set(),
      startedMs: this.now(),
      cancelled: false,
      recording: Promise.resolve(),
      lastEmit: 0,
      done: Promise.resolve(record),
    };
    this.live.set(id, b);
    b.done = this.execute(b, buildJobs(id, req.graph, req.episodes, req.seed, record.graph_version));
    this.emit(b, true);
    return { batchId: id, done: b.done };
  }

  private async execute(b: LiveBatch, jobs: EpisodeJob[]): Promise<BatchRecord> {
    const id = b.record.id;
    let error: string | null = null;
    try {
      await this.opts.executor.run(
        b.record,
        jobs,
        (row) => this.record(b, row),
        (job) => {
          b.running.add(job.episode);
          const started = b.record.status === 'queued';
          if (started) this.markRunning(b);
          this.emit(b, started);
        },
      );
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    await b.recording;
    b.running.clear();
    try {
      if (b.leaving) {
        // Another process ends it: this one writes nothing more.
        if (b.leaving === 'released') await this.opts.ownership?.release(id);
        return b.record;
      }
      const status: BatchStatus = error !== null ? 'error' : b.cancelled ? 'cancelled' : 'done';
      const end: BatchEnd = { status, ended_at: new Date(this.now()).toISOString(), error };
      const own = this.opts.ownership;
      // The end must land: a PostgreSQL restarting just now would leave the batch `running` for ever.
      let said = false;
      const landed = await retryWhileUnavailable(
        async () => (own ? own.end(id, end) : (await this.opts.log.updateBatch(id, end), true)),
        {
          limitMs: END_RETRY_MS,
          onWait: (err) => {
            if (!said)
              console.error(`statewire: batch ${id}: its end waits for the database (${err.message})`);
            said = true;
          },
        },
      );
      if (!landed) {
        console.error(`statewire: batch ${id}: another instance owns it now and ends it`);
        return b.record;
      }
      Object.assign(b.record, end);
    } finally {
      clearTimeout(b.timer);
      this.emit(b, true);
      this.live.delete(id);
    }
    return b.record;
  }

  /** The batch's first episode started: `running`, in the log too (in order with its rows). */
  private markRunning(b: LiveBatch): void {
    b.record.status = 'running';
    b.recording = b.recording
      .then(() => this.opts.log.updateBatch(b.record.id, { status: 'running' }))
      .catch((err: unknown) =>
        console.error(`statewire: batch ${b.record.id}: status not recorded: ${(err as Error).message}`),
      );
  }

  /** One row into the log (a second row of the same episode replaces the first), then progress. */
  private record(b: LiveBatch, row: EpisodeRow): void {
    // A row is proof an episode ran, even from an executor that did not say it handed one out.
    if (b.record.status === 'queued') this.markRunning(b);
    b.running.delete(row.episode);
    b.rows.set(row.episode, row);
    b.recording = b.recording
      .then(() => this.opts.log.recordEpisode(b.record.id, row))
      .catch((err: unknown) =>
        console.error(
          `statewire: batch ${b.record.id}: episode ${row.episode} not recorded: ${(err as Error).message}`,
        ),
      );
    this.opts.onRow?.(b.record.id, row, this.progress(b));
    this.emit(b);
  }

  private progress(b: LiveBatch): BatchProgress {
    return progressOf(
      b.record.status,
      b.rows.values(),
      b.record.episodes,
      b.running.size,
      this.now() - b.startedMs,
    );
  }

  /** Progress to `onProgress`, throttled: now when forced or due, else once the interval has passed. */
  private emit(b: LiveBatch, force = false): void {
    const cb = this.opts.onProgress;
    if (!cb) return;
    const interval = this.opts.progressIntervalMs ?? 250;
    const send = () => {
      b.timer = undefined;
      b.lastEmit = this.now();
      cb(b.record.id, this.progress(b));
    };
    if (force || this.now() - b.lastEmit >= interval) {
      clearTimeout(b.timer);
      send();
    } else if (!b.timer) {
      b.timer = setTimeout(send, interval - (this.now() - b.lastEmit));
      b.timer.unref();
    }
  }

  /**
   * The batch (without its graph), its progress, every recorded row and the aggregate — one
   * consistent answer: for a live batch the rows finished so far are in the log first (their
   * writes are chained on `recording`), and the progress counts the rows read, so an answer never
   * says "20 finished" beside the table and aggregate of 19.
   */
  async get(batchId: string): Promise<BatchDetail | undefined> {
    const live = this.live.get(batchId);
    if (live) await live.recording;
    const record = live?.record ?? (await this.opts.log.getBatch(batchId));
    if (!record) return undefined;
    const episodes = await this.opts.log.episodes(batchId);
    return {
      batch: withoutGraph(record),
      progress: live
        ? progressOf(
            live.record.status,
            episodes,
            live.record.episodes,
            live.running.size,
            this.now() - live.startedMs,
          )
        : this.storedProgress(record, episodes),
      episodes,
      aggregate: aggregateRows(episodes),
    };
  }

  async list(limit?: number): Promise<BatchListItem[]> {
    const records = await this.opts.log.listBatches(limit);
    const out: BatchListItem[] = [];
    for (const r of records) {
      const live = this.live.get(r.id);
      const progress = live
        ? this.progress(live)
        : this.storedProgress(r, await this.opts.log.episodes(r.id));
      out.push({ batch: withoutGraph(live?.record ?? r), progress });
    }
    return out;
  }

  private storedProgress(record: BatchRecord, rows: EpisodeRow[]): BatchProgress {
    const end = record.ended_at ? Date.parse(record.ended_at) : this.now();
    return progressOf(record.status, rows, record.episodes, 0, end - Date.parse(record.created_at));
  }

  /** The batch's graph as stored (with its `--set` overrides, before seeding). */
  async graphOf(batchId: string): Promise<unknown> {
    return this.live.get(batchId)?.record.graph ?? (await this.opts.log.getBatch(batchId))?.graph;
  }

  /** false when the batch is not running here (unknown, or already ended). */
  cancel(batchId: string): boolean {
    const b = this.live.get(batchId);
    if (!b) return false;
    b.cancelled = true;
    this.opts.executor.cancel(batchId);
    return true;
  }

  /**
   * Ends the batches the log says are running but this manager does not run: their process stopped
   * before they ended (a crash, a kill). Only for a log this process owns alone (embedded SQLite); in
   * distributed mode another server may be running them. Their episode rows and runs stay; the
   * batch becomes `error` saying why, so it no longer shows as running forever. Returns their ids.
   */
  async endOrphans(): Promise<string[]> {
    const orphans = (await this.opts.log.listBatches(10_000)).filter(
      (b) => (b.status === 'running' || b.status === 'queued') && !this.live.has(b.id),
    );
    for (const b of orphans)
      await this.opts.log.updateBatch(b.id, {
        status: 'error',
        ended_at: new Date(this.now()).toISOString(),
        error:
          'the process running this batch stopped before it ended; its finished episodes are kept (start the batch again for the rest)',
      });
    return orphans.map((b) => b.id);
  }

  /**
   * Takes over a batch another process started and can no longer finish (its owner died: the
   * caller holds its lease now). The episodes already recorded count as they are; the jobs of the
   * others go to the executor again (an executor whose queue still holds them adds nothing, so the
   * workers keep going), and each row is collected as it lands, once. true when the batch runs
   * here (already did, too); false when there is nothing to take over (unknown or ended).
   */
  async adopt(batchId: string): Promise<boolean> {
    if (this.live.has(batchId)) return true;
    if (this.closing) return false;
    const record = await this.opts.log.getBatch(batchId);
    if (!record || (record.status !== 'queued' && record.status !== 'running')) return false;
    if (this.live.has(batchId) || this.closing) return this.live.has(batchId);
    const cancelled = (await this.opts.executor.wasCancelled?.(batchId)) ?? false;
    if (this.live.has(batchId) || this.closing) return this.live.has(batchId);
    const rows = await this.opts.log.episodes(batchId);
    const b: LiveBatch = {
      record,
      rows: new Map(rows.map((r) => [r.episode, r])),
      running: new Set(),
      startedMs: Date.parse(record.created_at),
      cancelled,
      recording: Promise.resolve(),
      lastEmit: 0,
      done: Promise.resolve(record),
    };
    this.live.set(batchId, b);
    // The graph as the batch's start stored it: parsed and validated then, with its overrides.
    const graph = record.graph as GraphDef;
    const jobs = buildJobs(batchId, graph, record.episodes, record.seed, record.graph_version);
    // A batch its owner was cancelling ends `cancelled` with the rows recorded (the episodes the
    // cancel stopped record their `interrupted` rows themselves).
    b.done = this.execute(b, cancelled ? [] : jobs.filter((j) => !b.rows.has(j.episode)));
    this.emit(b, true);
    return true;
  }

  /** Stops running a batch here without ending it (see LiveBatch.leaving). */
  private leave(batchId: string, why: 'lost' | 'released'): void {
    const b = this.live.get(batchId);
    if (!b || b.leaving) return;
    b.leaving = why;
    if (this.opts.executor.release) this.opts.executor.release(batchId);
    else this.opts.executor.cancel(batchId);
  }

  isLive(batchId: string): boolean {
    return this.live.has(batchId);
  }

  /**
   * Cancels what runs (episodes in flight end `interrupted`, resumable), waits for it, closes the
   * executor. With an ownership (distributed mode) and an executor whose episodes outlive this
   * process, the batches are handed over instead: the workers keep going and another instance
   * takes them over at once (or the next one that starts).
   */
  async close(): Promise<void> {
    this.closing = true;
    const running = [...this.live.values()];
    const handOver = this.opts.ownership !== undefined && this.opts.executor.release !== undefined;
    for (const b of running)
      if (handOver) this.leave(b.record.id, 'released');
      else this.cancel(b.record.id);
    await Promise.allSettled(running.map((b) => b.done));
    await this.opts.executor.close();
  }
}
