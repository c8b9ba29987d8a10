import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeJob } from '../batch/episodeRun.ts';
import { startRedis, type RedisServer } from '../test/redisServer.ts';
import {
  deadLetters,
  enqueueEpisodes,
  EPISODE_ATTEMPTS,
  EPISODE_JOB_OPTIONS,
  episodeJobId,
  openEpisodeQueue,
  parseEpisodeJobId,
  QUEUE_NAME,
  QUEUE_PREFIX,
  redisConnection,
  WORKER_TIMINGS,
  type EpisodeJobData,
} from './queue.ts';

describe('episode jobs', () => {
  it('one job id per (batch, episode), without the ":" BullMQ refuses, and back', () => {
    expect(episodeJobId('batch_m1x_ab12', 7)).toBe('batch_m1x_ab12/7');
    expect(episodeJobId('b', 0)).not.toContain(':');
    expect(parseEpisodeJobId('batch_m1x_ab12/7')).toEqual({ batchId: 'batch_m1x_ab12', episode: 7 });
    expect(parseEpisodeJobId('a/b/12')).toEqual({ batchId: 'a/b', episode: 12 });
    for (const bad of [undefined, '', '7', '/7', 'b/x', 'b/-1', 'b/1.5'])
      expect(parseEpisodeJobId(bad)).toBeUndefined();
  });

  it('retries with exponential backoff and keeps failed jobs (the dead-letter list)', () => {
    expect(EPISODE_ATTEMPTS).toBe(3);
    expect(EPISODE_JOB_OPTIONS.attempts).toBe(3);
    expect(EPISODE_JOB_OPTIONS.backoff).toEqual({ type: 'exponential', delay: 1000 });
    expect(EPISODE_JOB_OPTIONS.removeOnFail).toBe(false);
    // Completed jobs stay long enough that re-enqueuing a batch does not run an episode again.
    expect(EPISODE_JOB_OPTIONS.removeOnComplete.age).toBeGreaterThanOrEqual(24 * 3600);
  });

  it("recovers a dead worker's job within a few seconds, without taking a busy worker's", () => {
    const worst = WORKER_TIMINGS.lockDuration + WORKER_TIMINGS.stalledInterval;
    expect(worst).toBeLessThanOrEqual(10_000);
    // The lock is renewed every lockDuration/2: a busy event loop has that long to get to it.
    expect(WORKER_TIMINGS.lockDuration / 2).toBeGreaterThanOrEqual(2000);
    expect(WORKER_TIMINGS.maxStalledCount).toBeGreaterThanOrEqual(1);
  });
});

describe('episode queue on a real Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);
  afterAll(async () => {
    await redis?.stop();
  });

  const job = (batchId: string, episode: number): EpisodeJob => ({
    batchId,
    episode,
    seed: episode,
    runId: `${batchId}_e${episode}`,
    graphName: 'g',
    graph: { nodes: [] },
  });

  it('enqueues an episode once however often its batch is enqueued', async () => {
    const queue = openEpisodeQueue(redis.url);
    try {
      const jobs = [0, 1, 2, 3, 4].map((e) => job('twice', e));
      const ids = await enqueueEpisodes(queue, jobs, '/plugins');
      await enqueueEpisodes(queue, jobs, '/plugins');
      await enqueueEpisodes(queue, jobs.slice(2));
      expect(ids).toEqual(jobs.map((j) => `twice/${j.episode}`));
      expect(await queue.getWaitingCount()).toBe(5);
      const stored = await queue.getJob('twice/3');
      expect(stored?.data).toEqual({ ...job('twice', 3), plugins: '/plugins' });
      expect(stored?.opts.attempts).toBe(3);
      expect(stored?.opts.backoff).toEqual({ type: 'exponential', delay: 1000 });
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('retries a failing episode with backoff, then keeps it in the dead-letter list', async () => {
    const queue = openEpisodeQueue(redis.url);
    const starts: number[] = [];
    const worker = new Worker<EpisodeJobData>(
      QUEUE_NAME,
      async () => {
        starts.push(Date.now());
        throw new Error('the log refused the write');
      },
      { connection: redisConnection(redis.url), prefix: QUEUE_PREFIX, ...WORKER_TIMINGS },
    );
    try {
      await enqueueEpisodes(queue, [job('doomed', 4)]);
      const deadline = Date.now() + 30_000;
      let dead = await deadLetters(queue, 'doomed');
      while (dead.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        dead = await deadLetters(queue, 'doomed');
      }
      expect(dead).toEqual([
        expect.objectContaining({
          jobId: 'doomed/4',
          batchId: 'doomed',
          episode: 4,
          attempts: 3,
          reason: 'the log refused the write',
        }),
      ]);
      expect(starts).toHaveLength(3);
      // Exponential: ~1 s, then ~2 s.
      expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(900);
      expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(1800);
      expect(await deadLetters(queue, 'someone-else')).toEqual([]);
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  }, 60_000);
});
