// The BullMQ executor under the batch manager, with an in-process worker on real Redis and
// PostgreSQL: cancelling a batch stops its episodes in flight (interrupted, resumable) and removes
// those not taken; an episode whose job fails every attempt ends as an error row (dead letter).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchManager } from '../batch/batchManager.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import { hasPostgres, startPostgres, type PgServer } from '../test/pgServer.ts';
import { hasRedis, startRedis, type RedisServer } from '../test/redisServer.ts';
import { demoGraph, waitFor } from '../test/serverProcess.testutil.ts';
import { decodeGraph } from '../workspace/graphCodec.ts';
import { BullExecutor } from './bullExecutor.ts';
import { deadLetters, openEpisodeQueue } from './queue.ts';
import { startWorker, type StatewireWorker } from './worker.ts';

const decoded = decodeGraph(demoGraph(30));
if (!decoded.ok) throw new Error('demo graph does not decode');
const graph = decoded.graph;

describe.skipIf(!hasRedis() || !hasPostgres())('BullExecutor', () => {
  let redis: RedisServer;
  let pg: PgServer;
  let log: PgRunLog;
  let worker: StatewireWorker | undefined;

  beforeAll(async () => {
    [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
    log = await PgRunLog.connect(pg.url);
  }, 120_000);

  afterAll(async () => {
    await worker?.close({ handBack: true });
    await log?.close();
    await Promise.allSettled([redis?.stop(), pg?.stop()]);
  }, 120_000);

  /** An in-process worker, a batch manager on the BullMQ executor, and the queue to look into. */
  const setup = async (name: string, stepDelayMs = 0) => {
    worker = await startWorker({ redisUrl: redis.url, databaseUrl: pg.url, name, stepDelayMs });
    const manager = new BatchManager({
      log,
      executor: new BullExecutor({ redisUrl: redis.url, log, pollMs: 200 }),
      mode: 'distributed',
    });
    return { manager, queue: openEpisodeQueue(redis.url) };
  };

  it('cancels a batch: episodes in flight end interrupted, the others are not run', async () => {
    const { manager, queue } = await setup('slow', 40);
    try {
      const { batchId, done } = await manager.start({ graph, episodes: 6, workers: 1, seed: 1, sets: [] });
      await waitFor(async () => (await log.episodes(batchId)).length >= 1, 60_000, 'a first episode');
      await waitFor(
        async () => ((await log.getRun(`${batchId}_e2`))?.steps ?? 0) >= 2,
        60_000,
        'episode 2 running',
      );
      expect(manager.cancel(batchId)).toBe(true);
      const record = await done;
      expect(record.status).toBe('cancelled');
      const rows = await log.episodes(batchId);
      expect(rows.map((r) => [r.episode, r.status])).toEqual([
        [1, 'done'],
        [2, 'interrupted'],
      ]);
      expect((await log.getRun(`${batchId}_e2`))?.status).toBe('interrupted');
      for (const e of [3, 4, 5, 6]) expect(await log.getRun(`${batchId}_e${e}`)).toBeUndefined();
      expect(await queue.getWaitingCount()).toBe(0);
    } finally {
      await manager.close();
      await queue.close();
      await worker?.close();
      worker = undefined;
    }
  }, 120_000);

  it('reports an episode that failed every attempt as an error row and ends its run', async () => {
    // A real fault: PostgreSQL refuses checkpoints, so every step commit — and every attempt of
    // the job — fails; the run's end (events only, no checkpoint) can still be written.
    await log.pool.query(`
      CREATE FUNCTION refuse_checkpoints() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'disk quota exceeded (test)';
      END $$;
      CREATE TRIGGER refuse_checkpoints BEFORE INSERT ON checkpoints
        FOR EACH ROW EXECUTE FUNCTION refuse_checkpoints();
    `);
    const { manager, queue } = await setup('doomed');
    try {
      const { batchId, done } = await manager.start({ graph, episodes: 1, workers: 1, seed: 1, sets: [] });
      const record = await done;
      expect(record.status).toBe('done');
      const [row] = await log.episodes(batchId);
      expect(row).toMatchObject({ episode: 1, status: 'error', attempts: 3, worker: 'queue' });
      expect(row?.error).toMatch(/failed 3 attempts \(dead-letter list\): .*disk quota exceeded \(test\)/);
      const run = await log.getRun(`${batchId}_e1`);
      expect(run?.status).toBe('error');
      const last = await log.events(run!.id, run!.last_seq - 1, 1);
      expect(last[0]?.type).toBe('run_result');
      expect(await deadLetters(queue, batchId)).toEqual([
        expect.objectContaining({ episode: 1, attempts: 3 }),
      ]);
    } finally {
      await log.pool.query('DROP TRIGGER refuse_checkpoints ON checkpoints');
      await manager.close();
      await queue.close();
    }
  }, 120_000);
});
