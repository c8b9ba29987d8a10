// PostgreSQL restarted mid-batch (issue 31 item 5). A real PostgreSQL is stopped as `pg_ctl restart`
// stops it — `-m fast` (sessions terminated, 57P01) and `-m immediate` (a crash, recovered at the
// next start) — while two REAL `statewire worker` processes are inside episodes of a batch started
// through a real server instance, left down for a few seconds, then started again. Before the fix
// every worker died of an unhandled 'error' event and the batch stayed running; the server's run
// reads answered 500. Now: no worker dies, the server answers 503 `database-unavailable` while the
// database is down and reports it in /api/health, the batch finishes, and every episode is
// recorded exactly once, its log whole and its end the same as an uninterrupted run's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const EPISODES = 8;
const STEPS = 80;
/** How long PostgreSQL stays down: long enough for every worker to hit it mid-episode. */
const DOWN_MS = 3000;

describe.skipIf(!hasRedis() || !hasPostgres())('PostgreSQL restarted mid-batch', () => {
  let c: FaultCluster;
  const graph = demoGraphDef(STEPS);

  beforeAll(async () => {
    c = await startFaultCluster(2);
  }, 120_000);

  afterAll(async () => {
    await c?.close();
  }, 60_000);

  for (const [mode, seed] of [
    ['fast', 11],
    ['immediate', 12],
  ] as const) {
    it(`-m ${mode}: no worker dies, reads answer 503 meanwhile, every episode recorded once`, async () => {
      const started = Date.now();
      const batchId = await startBatch(c.url, graph, EPISODES, seed);

      // Mid-batch: some episodes recorded, one inside its run (a few steps committed, more to go).
      const inFlight = await waitFor(
        async () => {
          const rows = await c.log.episodes(batchId);
          if (rows.length < 2) return undefined;
          const recorded = new Set(rows.map((r) => r.episode));
          for (let e = 1; e <= EPISODES; e++) {
            if (recorded.has(e)) continue;
            const run = await c.log.getRun(`${batchId}_e${e}`);
            if (run?.status === 'running' && run.steps >= 2 && run.steps <= STEPS / 2) return run.id;
          }
          return undefined;
        },
        60_000,
        'an episode in flight mid-batch',
      );

      await c.pg.halt(mode);
      const downAt = Date.now();
      try {
        // The server's reads of the PostgreSQL log: 503 saying the database is unavailable.
        for (const path of [
          `/api/runs/${inFlight}`,
          `/api/runs/${inFlight}/events`,
          `/api/batches/${batchId}`,
        ]) {
          const r = await api(c.url, 'GET', path);
          expect({ path, status: r.status, code: r.body?.error?.code }).toEqual({
            path,
            status: 503,
            code: 'database-unavailable',
          });
        }
        const health = await api(c.url, 'GET', '/api/health');
        expect(health.status).toBe(503);
        expect(health.body).toMatchObject({
          ok: false,
          mode: 'distributed',
          postgres: 'down',
          redis: 'up',
          sqlite: 'up',
          checks: { postgres: { status: 'down', latency_ms: null, error: expect.any(String) } },
        });
        await new Promise((r) => setTimeout(r, Math.max(0, downAt + DOWN_MS - Date.now())));
        expectWorkersAlive(c.workers);
      } finally {
        await c.pg.start();
      }
      const backAt = Date.now();

      const view = await batchEnded(c.url, batchId, 60_000);
      const ended = Date.now();
      expect(view.batch.status).toBe('done');
      expect(view.progress).toMatchObject({ completed: EPISODES, failed: 0, total: EPISODES });
      expect(view.episodes).toHaveLength(EPISODES);
      expectWorkersAlive(c.workers);
      // The outage was really met inside episodes, waited out, and the episodes resumed.
      const waited = new RegExp(`PostgreSQL unreachable \\(.*\\); episode (\\d+) of ${batchId} waits`, 'g');
      const hit = c.workers.flatMap((w) => [...w.output().matchAll(waited)].map((m) => Number(m[1])));
      expect(hit.length).toBeGreaterThan(0);
      expect(c.workers.some((w) => w.output().includes('PostgreSQL is back'))).toBe(true);
      expect((await api(c.url, 'GET', '/api/health')).body).toMatchObject({ ok: true, postgres: 'up' });

      await expectEveryEpisodeOnce(c.log, batchId, graph, EPISODES, seed, hit);
      console.log(
        `pgRestart -m ${mode}: down ${((backAt - downAt) / 1000).toFixed(1)} s; ` +
          `batch done ${((ended - backAt) / 1000).toFixed(1)} s after it was back; ` +
          `${EPISODES} episodes in ${((ended - started) / 1000).toFixed(1)} s`,
      );
    }, 120_000);
  }
});
