// A distributed batch worker (`statewire worker`): takes episode jobs from the BullMQ queue on Redis
// and runs each with `runEpisode` against the PostgreSQL run log, so any number of workers on any
// number of machines share one queue and one log.
//  - Each committed step is published live through @socket.io/redis-emitter to room `run:<runId>`
//    (event name = envelope type, payload = envelope, as the server hub sends), after the commit, so
//    a viewer on any server instance (viewerRelay.ts) never sees an event the log does not have.
//    Only runs some server marks as watched are published (queue.ts WATCH_KEY): a batch nobody
//    watches costs no publishes.
//  - The episode's row is recorded with `recordEpisode` (a second record of a retried episode
//    replaces the first) and returned as the job's result.
//  - Crash: a killed worker stops renewing its job lock; another worker's stalled check puts the job
//    back (queue.ts WORKER_TIMINGS) and the next attempt resumes from the run's last committed
//    checkpoint (runEpisode), continuing the log with the next seq.
//  - Graceful shutdown (`close`): no new jobs; the episodes in hand finish, or — after `graceMs`, or
//    at once with `handBack` — stop between two steps and go back to the queue (`moveToWait`), where
//    another worker resumes them from their last checkpoint.
//  - PostgreSQL outage (a restart, a crash): an episode whose commit fails because the database is
//    unreachable waits for it (pinging with backoff) and then resumes from its last commit; the
//    worker process stays up and keeps its job (its lock lives in Redis). `throughOutage` below.
//  - Cancel: a batch cancelled by its server (a message on CANCEL_CHANNEL) stops its episodes here
//    between two steps.
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { Emitter } from '@socket.io/redis-emitter';
import { WaitingError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { createRegistry, type NodeRegistry } from '../../engine/registry.ts';
import { runEpisode, type EpisodeJob } from '../batch/episodeRun.ts';
import { startEpisodeServices, type EpisodeServices } from '../batch/episodeServices.ts';
import type { ServiceEntry } from '../services/servicesConfig.ts';
import { loadRegistry } from '../plugins/loadRegistry.ts';
import { isPgUnavailable } from '../db/pgErrors.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import { redactUrl } from './config.ts';
import {
  CANCEL_CHANNEL,
  CANCELLED_KEY,
  QUEUE_NAME,
  QUEUE_PREFIX,
  redisConnection,
  runRoom,
  WATCH_KEY,
  within,
  WORKER_TIMINGS,
  type EpisodeJobData,
} from './queue.ts';

/** How often a worker re-checks whether a run it executes is watched (ms). */
const WATCH_RECHECK_MS = 250;
/** Default of WorkerStartOptions.outageLimitMs. */
const OUTAGE_LIMIT_MS = 10 * 60_000;

/**
 * Pings PostgreSQL with backoff (250 ms doubling to 5 s) until it answers: true, or false once
 * `until` (epoch ms) has passed or `stop()` says so.
 */
export async function waitForPostgres(
  log: Pick<PgRunLog, 'ping'>,
  opts: { until: number; stop?: () => boolean },
): Promise<boolean> {
  for (let delay = 250; Date.now() < opts.until && !opts.stop?.(); delay = Math.min(delay * 2, 5000)) {
    await new Promise((r) => setTimeout(r, delay));
    if ((await log.ping(2000)).up) return true;
  }
  return false;
}

export interface WorkerStartOptions {
  redisUrl: string;
  databaseUrl: string;
  /** Episodes run at once in this process (default 1). */
  concurrency?: number;
  /** Plugins folder (built-ins only when absent; a job's own `plugins` folder is used if it exists here). */
  plugins?: string;
  /** Worker name in rows and logs (default `worker-<host>-<pid>`). */
  name?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** Lock / stalled-check timings (tests may shorten them). */
  timings?: Partial<typeof WORKER_TIMINGS>;
  /** Pause between two steps of an episode (default 0). */
  stepDelayMs?: number;
  /** Postgres pool size (default: concurrency + 2). */
  poolSize?: number;
  /** How long an episode waits for an unreachable PostgreSQL before its attempt fails (default 10 min). */
  outageLimitMs?: number;
  /**
   * Node services the episodes call (`--services FILE`). This process is one worker: it connects to
   * `url` entries and starts each `command` entry once, shared by its --concurrency slots (with
   * `per_worker: true` too, since a worker process is the unit; use --concurrency 1 for a service
   * whose state parallel episodes must not share).
   */
  services?: ServiceEntry[];
}

export interface WorkerStats {
  completed: number;
  handedBack: number;
  failed: number;
  active: number;
}

export interface StatewireWorker {
  readonly name: string;
  readonly stats: WorkerStats;
  /**
   * Stops taking jobs and disconnects once the episodes in hand are settled: finished, or (after
   * `graceMs`, default 30 s; at once with `handBack`) stopped between two steps and handed back.
   */
  close(opts?: { handBack?: boolean; graceMs?: number }): Promise<void>;
}

/** Publishes committed envelopes to their run's room (one PUBLISH per event, auto-pipelined). */
export function livePublisher(emitter: Emitter): (events: EventEnvelope[]) => void {
  return (events) => {
    for (const e of events) emitter.to(runRoom(e.runId)).emit(e.type, e);
  };
}

/**
 * `livePublisher` for the runs that are watched (WATCH_KEY): the flag is read when a run's first
 * events are published and then re-read in the background every WATCH_RECHECK_MS.
 */
export function watchedPublisher(
  emitter: Emitter,
  redis: Redis,
): {
  publish: (events: EventEnvelope[]) => void;
  /** Reads the flag before the run's first events. */
  prime: (runId: string) => Promise<void>;
  forget: (runId: string) => void;
} {
  const all = livePublisher(emitter);
  type Watch = { watched: boolean; checkedAt: number; checking: boolean };
  const state = new Map<string, Watch>();
  const settle = (s: Watch, watched: boolean) => {
    s.watched = watched;
    s.checkedAt = Date.now();
    s.checking = false;
  };
  const check = (runId: string, s: Watch): Promise<void> => {
    s.checking = true;
    return redis.exists(WATCH_KEY + runId).then(
      (n) => settle(s, n === 1),
      () => settle(s, true), // cannot tell: publish
    );
  };
  return {
    publish(events) {
      const runId = events[0]?.runId;
      if (runId === undefined) return;
      let s = state.get(runId);
      // Not primed: publish until the first answer.
      if (!s) state.set(runId, (s = { watched: true, checkedAt: 0, checking: false }));
      if (!s.checking && Date.now() - s.checkedAt >= WATCH_RECHECK_MS) void check(runId, s);
      if (s.watched) all(events);
    },
    async prime(runId) {
      const s: Watch = { watched: true, checkedAt: 0, checking: false };
      state.set(runId, s);
      await check(runId, s);
    },
    forget: (runId) => void state.delete(runId),
  };
}

const jobOf = (d: EpisodeJobData): EpisodeJob => ({
  batchId: d.batchId,
  episode: d.episode,
  seed: d.seed,
  runId: d.runId,
  graphName: d.graphName,
  graph: d.graph,
  graphVersion: d.graphVersion ?? null,
});

export async function startWorker(opts: WorkerStartOptions): Promise<StatewireWorker> {
  const name = opts.name ?? `worker-${hostname()}-${process.pid}`;
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
  const say = opts.log ?? (() => undefined);
  const log = await PgRunLog.connect(opts.databaseUrl, {
    max: opts.poolSize ?? concurrency + 2,
    applicationName: name,
  });
  const pub = new Redis(opts.redisUrl, { enableAutoPipelining: true, maxRetriesPerRequest: null });
  const sub = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  pub.on('error', () => undefined); // reconnects by itself; BullMQ reports queue trouble
  sub.on('error', () => undefined);
  const emitter = new Emitter(pub);
  const live = watchedPublisher(emitter, pub);

  // Registries by plugins folder (loaded once each), each with its node services when there are any.
  interface Engine {
    registry: NodeRegistry;
    services?: EpisodeServices;
  }
  const registries = new Map<string, Promise<Engine>>();
  const registryFor = (dir: string | undefined): Promise<Engine> => {
    const key = dir ?? '';
    let r = registries.get(key);
    if (!r) {
      r = (async () => {
        let registry = createRegistry();
        if (dir) {
          const loaded = await loadRegistry(dir, false);
          if (typeof loaded === 'string') throw new Error(loaded);
          for (const f of loaded.failures) say(`${name}: ${f}`);
          registry = loaded.registry;
        }
        if (!opts.services?.length) return { registry };
        const services = await startEpisodeServices(registry, opts.services, (l) => say(`${name}: ${l}`));
        for (const s of services.report().services)
          say(`${name}: service ${s.name} ${s.state}${s.error ? ` (${s.error})` : ''}`);
        return { registry, services };
      })();
      registries.set(key, r);
    }
    return r;
  };
  const pluginsOf = (d: EpisodeJobData): string | undefined => {
    if (opts.plugins) return resolve(opts.plugins);
    return d.plugins && existsSync(d.plugins) ? d.plugins : undefined;
  };
  if (opts.plugins) await registryFor(resolve(opts.plugins));

  // Cancelled batches: announced on a channel, and marked by a key for workers started later.
  const cancelled = new Set<string>();
  await sub.subscribe(CANCEL_CHANNEL);
  sub.on('message', (channel: string, batchId: string) => {
    if (channel === CANCEL_CHANNEL) cancelled.add(batchId);
  });
  const checkCancelled = async (batchId: string) => {
    if (!cancelled.has(batchId) && (await pub.exists(CANCELLED_KEY + batchId)) === 1) cancelled.add(batchId);
  };

  const stats: WorkerStats = { completed: 0, handedBack: 0, failed: 0, active: 0 };
  let handingBack = false;

  /**
   * `work()`, again after PostgreSQL answers again when it failed because the database was
   * unreachable (a restart, a crash): the pool reconnects by itself, so waiting is all it takes.
   * Re-running an episode resumes it from its last committed checkpoint (runEpisode), and recording
   * a row twice replaces it, so a retry repeats nothing. Gives up (the error goes to BullMQ, which
   * retries the job with backoff) after `outageLimitMs` or when the worker is handing back its jobs.
   */
  const throughOutage = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    let since: number | undefined;
    for (;;) {
      try {
        return await work();
      } catch (err) {
        if (!isPgUnavailable(err) || handingBack) throw err;
        since ??= Date.now();
        say(`${name}: PostgreSQL unreachable (${(err as Error).message}); ${what} waits for it`);
        const up = await waitForPostgres(log, {
          until: since + (opts.outageLimitMs ?? OUTAGE_LIMIT_MS),
          stop: () => handingBack,
        });
        if (!up) throw err;
        say(`${name}: PostgreSQL is back; ${what} resumes from its last commit`);
      }
    }
  };

  const processor = async (job: Job<EpisodeJobData, EpisodeRow>, token?: string): Promise<EpisodeRow> => {
    const data = job.data;
    stats.active++;
    try {
      await Promise.all([checkCancelled(data.batchId), live.prime(data.runId)]);
      if (cancelled.has(data.batchId) && !(await log.getRun(data.runId))) {
        // Cancelled before it started: nothing to run, nothing to record.
        return {
          episode: data.episode,
          seed: data.seed,
          run_id: data.runId,
          status: 'interrupted',
          steps: 0,
          outputs: {},
          metrics: {},
          success: false,
          error: 'the batch was cancelled before this episode started',
          worker: name,
          attempts: job.attemptsStarted,
        };
      }
      const engine = await registryFor(pluginsOf(data));
      // Through a PostgreSQL outage the episode waits and then resumes from its last commit.
      const row = await throughOutage(`episode ${data.episode} of ${data.batchId}`, () =>
        runEpisode(jobOf(data), {
          log,
          registry: engine.registry,
          ...(engine.services ? { createRun: engine.services.createRun } : {}),
          worker: name,
          publish: live.publish,
          stepDelayMs: opts.stepDelayMs ?? 0,
          shouldStop: () => handingBack || cancelled.has(data.batchId),
        }),
      );
      if (row.status === 'interrupted' && handingBack && !cancelled.has(data.batchId)) {
        // Back to the queue; the next worker resumes from the checkpoint just committed.
        await job.moveToWait(token);
        stats.handedBack++;
        say(`${name}: handed back episode ${data.episode} of ${data.batchId} at step ${row.steps}`);
        throw new WaitingError();
      }
      const final: EpisodeRow = { ...row, attempts: Math.max(row.attempts ?? 1, job.attemptsStarted) };
      await throughOutage(`the row of episode ${data.episode} of ${data.batchId}`, () =>
        log.recordEpisode(data.batchId, final),
      );
      stats.completed++;
      return final;
    } catch (err) {
      if (!(err instanceof WaitingError)) stats.failed++;
      throw err;
    } finally {
      live.forget(data.runId);
      stats.active--;
    }
  };

  const worker = new Worker<EpisodeJobData, EpisodeRow>(QUEUE_NAME, processor, {
    connection: redisConnection(opts.redisUrl),
    prefix: QUEUE_PREFIX,
    concurrency,
    name,
    ...WORKER_TIMINGS,
    ...opts.timings,
    // Results and the dead-letter list are kept by the job options (queue.ts).
  });
  worker.on('error', (err) => say(`${name}: ${err.message}`));
  worker.on('failed', (job, err) => {
    if (job) say(`${name}: episode ${job.data.episode} of ${job.data.batchId} failed: ${err.message}`);
  });
  await worker.waitUntilReady();
  say(
    `${name}: connected to redis ${redactUrl(opts.redisUrl)} and postgres ${redactUrl(opts.databaseUrl)}; ` +
      `queue ${QUEUE_PREFIX}:${QUEUE_NAME}, concurrency ${concurrency}` +
      (opts.plugins ? `, plugins ${resolve(opts.plugins)}` : ''),
  );

  let closing: Promise<void> | undefined;
  return {
    name,
    stats,
    close(o = {}) {
      if (o.handBack) handingBack = true;
      return (closing ??= (async () => {
        const graceMs = o.graceMs ?? 30_000;
        const grace = setTimeout(() => {
          handingBack = true;
        }, graceMs);
        try {
          // Episodes stop at their next step once handing back; a step stuck on a store that went
          // away must not keep the process: then the job is left to the stalled check.
          const bound = stats.active > 0 ? graceMs + 10_000 : 3000;
          const closed = await within(
            worker.close().then(() => true),
            bound,
          );
          if (!closed) await within(worker.disconnect(), 3000);
        } finally {
          clearTimeout(grace);
          const services = (await Promise.allSettled([...registries.values()])).flatMap((r) =>
            r.status === 'fulfilled' && r.value.services ? [r.value.services.close()] : [],
          );
          await within(Promise.allSettled([log.close(), pub.quit(), sub.quit(), ...services]), 5000);
          pub.disconnect();
          sub.disconnect();
        }
      })());
    },
  };
}
