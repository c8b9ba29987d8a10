// The BullMQ side of distributed batches: one queue of episode jobs on Redis. A job's payload is an
// `EpisodeJob` (the seeded graph, run id, …) plus the plugins folder the worker should load; its id
// is derived from (batch, episode), so enqueuing a batch twice — a retried POST, a restarted
// server — adds each episode once (BullMQ ignores an add whose job id exists). Failed episodes are
// retried with exponential backoff; an episode that fails every attempt stays in the queue's failed
// set, which is the dead-letter list (`deadLetters`). Timings for stalled-job recovery are here too:
// a worker that dies (SIGKILL, a lost machine) stops renewing its job lock, and another worker's
// stalled check hands the job to the next worker within `lockDuration + stalledInterval`.
import { Queue, type ConnectionOptions, type JobsOptions, type WorkerOptions } from 'bullmq';
import type { EpisodeJob } from '../batch/episodeRun.ts';

export const QUEUE_NAME = 'statewire-episodes';
/** BullMQ's key prefix for Statewire's queues (several apps can share a Redis). */
export const QUEUE_PREFIX = 'statewire';

export interface EpisodeJobData extends EpisodeJob {
  /** Plugins folder the worker loads (a path on the worker's machine); default: the worker's own. */
  plugins?: string;
}

/** What a completed job returns (stored by BullMQ as the job's return value). */
export type { EpisodeRow as EpisodeJobResult } from '../../domain/batch/batch.types.ts';

/**
 * The job id of an episode: one job per (batch, episode). BullMQ 6 refuses a `:` in custom ids
 * (it separates key parts), so the separator is `/`.
 */
export const episodeJobId = (batchId: string, episode: number): string => `${batchId}/${episode}`;

/** The (batch, episode) of a job id made by `episodeJobId`, or undefined. */
export function parseEpisodeJobId(id: string | undefined): { batchId: string; episode: number } | undefined {
  if (!id) return undefined;
  const slash = id.lastIndexOf('/');
  if (slash <= 0) return undefined;
  const episode = Number(id.slice(slash + 1));
  return Number.isInteger(episode) && episode >= 0 ? { batchId: id.slice(0, slash), episode } : undefined;
}

export const EPISODE_ATTEMPTS = 3;
export const BACKOFF_DELAY_MS = 1000;

/** Options of every episode job. */
export const EPISODE_JOB_OPTIONS = {
  attempts: EPISODE_ATTEMPTS,
  // 1 s, 2 s, 4 s … between attempts of a failing episode.
  backoff: { type: 'exponential', delay: BACKOFF_DELAY_MS },
  // Completed jobs are kept a week (their id makes a re-enqueue a no-op meanwhile), at most 100,000.
  removeOnComplete: { age: 7 * 24 * 3600, count: 100_000 },
  // Failed jobs are the dead-letter list: kept until someone removes them.
  removeOnFail: false,
} as const satisfies JobsOptions;

/**
 * Worker timings. The lock is renewed every `lockDuration / 2`; a dead worker's lock expires within
 * `lockDuration`, and a stalled check (every `stalledInterval`, by any live worker) then moves the job
 * back to wait. A job counts as stalled only when its lock is gone, so a live but busy worker keeps
 * its job as long as its event loop renews the lock (an episode's steps yield to it at every commit).
 * `maxStalledCount`: recoveries before the job fails as "stalled more than allowable limit".
 */
export const WORKER_TIMINGS = {
  lockDuration: 5000,
  stalledInterval: 2000,
  maxStalledCount: 2,
} as const satisfies Partial<WorkerOptions>;

/** BullMQ connection options for a Redis URL (no retry limit per request: workers block on Redis). */
export const redisConnection = (redisUrl: string): ConnectionOptions => ({
  url: redisUrl,
  maxRetriesPerRequest: null,
});

export function openEpisodeQueue(redisUrl: string): Queue<EpisodeJobData> {
  return new Queue<EpisodeJobData>(QUEUE_NAME, {
    connection: redisConnection(redisUrl),
    prefix: QUEUE_PREFIX,
    defaultJobOptions: EPISODE_JOB_OPTIONS,
  });
}

/** Adds one job per episode (a job whose id exists is left as it is). Returns the job ids. */
export async function enqueueEpisodes(
  queue: Queue<EpisodeJobData>,
  jobs: readonly EpisodeJob[],
  plugins?: string,
): Promise<string[]> {
  const CHUNK = 500;
  const ids: string[] = [];
  for (let i = 0; i < jobs.length; i += CHUNK) {
    const part = jobs.slice(i, i + CHUNK).map((job) => {
      const jobId = episodeJobId(job.batchId, job.episode);
      ids.push(jobId);
      return {
        name: 'episode',
        data: plugins === undefined ? { ...job } : { ...job, plugins },
        opts: { ...EPISODE_JOB_OPTIONS, jobId },
      };
    });
    await queue.addBulk(part);
  }
  return ids;
}

export interface DeadLetter {
  jobId: string;
  batchId: string;
  episode: number;
  attempts: number;
  reason: string;
  failedAt: string | null;
}

/** The dead-letter list (failed jobs), newest first; only one batch's with `batchId`. */
export async function deadLetters(
  queue: Queue<EpisodeJobData>,
  batchId?: string,
  limit = 1000,
): Promise<DeadLetter[]> {
  const jobs = await queue.getFailed(0, limit - 1);
  const out: DeadLetter[] = [];
  for (const j of jobs) {
    const key = parseEpisodeJobId(j.id);
    if (!key || (batchId !== undefined && key.batchId !== batchId)) continue;
    out.push({
      jobId: j.id!,
      ...key,
      attempts: j.attemptsMade,
      reason: j.failedReason,
      failedAt: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
    });
  }
  return out;
}

/**
 * `p`, or undefined after `ms`: shutdown steps that talk to Redis or PostgreSQL must not hang on a
 * server that went away (their clients retry for ever), so each gets a bound and then a force.
 */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<undefined>((r) => {
      timer = setTimeout(() => r(undefined), ms);
    });
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

// ---- other Redis names shared by servers and workers ----

/** Redis pub/sub channel on which a server announces a cancelled batch (message = batch id). */
export const CANCEL_CHANNEL = 'statewire:batch-cancel';
/** Redis key prefix marking a cancelled batch (for workers that start after the announcement). */
export const CANCELLED_KEY = 'statewire:cancelled:';

/** The socket.io room of one run's live events. */
export const runRoom = (runId: string): string => `run:${runId}`;

/**
 * Redis key a server instance keeps (with a TTL, refreshed) while a viewer there follows a run
 * (viewerRelay.ts). Workers publish a run's events only while it exists: a batch nobody watches
 * costs no publishes. Correctness does not depend on it — a viewer that starts following reads the
 * log, and whatever was not published while the worker had not yet noticed is read from the log too.
 */
export const WATCH_KEY = 'statewire:watch:';
