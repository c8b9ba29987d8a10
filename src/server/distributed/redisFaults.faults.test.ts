// Redis faults mid-batch (issue 31 item 5), with a real Redis, PostgreSQL, server instance and two
// REAL `statewire worker` processes:
//  - paused (SIGSTOP) for 10 s: the server's `/api/health` answered nothing for 40 s before the fix
//    (the ping had no timeout); now it says `redis: down` within about 2 s every time it is asked,
//    and `up` again once Redis runs again; the batch finishes, every episode recorded once.
//  - killed and restarted without persistence (the documented try-out setup): the queue is gone;
//    before the fix the batch stayed `running` forever. Now the server notices the lost queue,
//    re-adds the episodes not yet recorded from the run log, and the batch finishes, each once.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  batchEnded,
  demoGraphDef,
  expectEveryEpisodeOnce,
  expectWorkersAlive,
  startBatch,
  startFaultCluster,
  type FaultCluster,
} from '../test/distributedFaults.testutil.ts';
import { hasPostgres } from '../test/pgServer.ts';
import { hasRedis } from '../test/redisServer.ts';
import { api, waitFor } from '../test/serverProcess.testutil.ts';

const EPISODES = 10;
const STEPS = 30;
const PAUSE_MS = 10_000;
/** The health probe's bound (2 s) plus room for a loaded CI machine to answer the request. */
const HEALTH_ANSWER_MS = 3500;

describe.skipIf(!hasRedis() || !hasPostgres())('Redis paused or restarted mid-batch', () => {
  let c: FaultCluster;
  const graph = demoGraphDef(STEPS);

  beforeAll(async () => {
    c = await startFaultCluster(2);
  }, 120_000);

  afterEach(() => {
    vi.restoreAllMocks();
  });

  afterAll(async () => {
    await c?.close();
  }, 60_000);

  /** Resolves once `episodes` rows of the batch are recorded and more are still to come. */
  const midBatch = (batchId: string, episodes: number) =>
    waitFor(
      async () => {
        const n = (await c.log.episodes(batchId)).length;
        return n >= episodes && n < EPISODES - 2 ? n : undefined;
      },
      60_000,
      `${episodes} episodes of ${batchId} recorded`,
    );

  it('paused 10 s: /api/health says redis is down within ~2 s, then up; the batch finishes', async () => {
    const seed = 21;
    const batchId = await startBatch(c.url, graph, EPISODES, seed);
    await midBatch(batchId, 2);

    c.redis.pause();
    const pausedAt = Date.now();
    const answers: number[] = [];
    try {
      // Asked three times over the pause: each answer comes within the bound and says down.
      while (Date.now() - pausedAt < PAUSE_MS - HEALTH_ANSWER_MS) {
        const t0 = Date.now();
        const health = await api(c.url, 'GET', '/api/health');
        answers.push(Date.now() - t0);
        expect(health.status).toBe(503);
        expect(health.body).toMatchObject({
          ok: false,
          mode: 'distributed',
          redis: 'down',
          postgres: 'up',
          sqlite: 'up',
          checks: { redis: { status: 'down', latency_ms: null, error: 'no answer within 1500 ms' } },
        });
        await new Promise((r) => setTimeout(r, 2000));
      }
      expect(answers.length).toBeGreaterThanOrEqual(2);
      expect(answers.filter((ms) => ms > HEALTH_ANSWER_MS)).toEqual([]);
      await new Promise((r) => setTimeout(r, Math.max(0, pausedAt + PAUSE_MS - Date.now())));
    } finally {
      c.redis.resume();
    }
    const resumedAt = Date.now();
    const up = await waitFor(
      async () => {
        const h = await api(c.url, 'GET', '/api/health');
        return h.status === 200 && h.body.redis === 'up' ? h.body : undefined;
      },
      10_000,
      'health saying redis is up',
    );
    expect(up).toMatchObject({ ok: true, redis: 'up', checks: { redis: { status: 'up' } } });
    const upAfterMs = Date.now() - resumedAt;

    const view = await batchEnded(c.url, batchId, 90_000);
    expect(view.batch.status).toBe('done');
    expect(view.progress).toMatchObject({ completed: EPISODES, failed: 0, total: EPISODES });
    expectWorkersAlive(c.workers);
    await expectEveryEpisodeOnce(c.log, batchId, graph, EPISODES, seed, []);
    console.log(
      `redis paused ${PAUSE_MS / 1000} s: health answers ${answers.join(', ')} ms (down); ` +
        `up again ${upAfterMs} ms after SIGCONT; batch done ${((Date.now() - resumedAt) / 1000).toFixed(1)} s after`,
    );
  }, 150_000);

  it('killed and restarted without persistence: the lost queue is refilled, each episode once', async () => {
    const seed = 22;
    const errors = vi.spyOn(console, 'error');
    const batchId = await startBatch(c.url, graph, EPISODES, seed);
    const before = await midBatch(batchId, 2);

    await c.redis.restart();
    const restartedAt = Date.now();
    const view = await batchEnded(c.url, batchId, 90_000);
    expect(view.batch.status).toBe('done');
    expect(view.progress).toMatchObject({ completed: EPISODES, failed: 0, total: EPISODES });
    expectWorkersAlive(c.workers);
    // The server saw the queue gone and re-added what was not recorded yet.
    const refill = errors.mock.calls
      .map((args) => String(args[0]))
      .find((m) => m.includes(`batch ${batchId}: the Redis queue was lost`));
    expect(refill).toBeDefined();
    const readded = Number(/re-added (\d+) episode/.exec(refill!)?.[1]);
    expect(readded).toBeGreaterThan(0);
    expect(readded).toBeLessThanOrEqual(EPISODES - before);

    await expectEveryEpisodeOnce(c.log, batchId, graph, EPISODES, seed, []);
    console.log(
      `redis restarted with ${before}/${EPISODES} recorded: ${readded} episode(s) re-added; ` +
        `batch done ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`,
    );
  }, 150_000);
});
