// The distributed worker in-process against real Redis and PostgreSQL: live events are published
// only for watched runs, and a worker shut down with hand-back stops its episode between two steps
// and returns the job to the queue, where another worker resumes it from its last checkpoint; a
// worker given a services file starts the node service and its episodes call it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildJobs } from '../batch/batchManager.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import { hasPostgres, startPostgres, type PgServer } from '../test/pgServer.ts';
import { hasRedis, startRedis, type RedisServer } from '../test/redisServer.ts';
import { demoGraph, REPO, waitFor } from '../test/serverProcess.testutil.ts';
import { decodeGraph } from '../workspace/graphCodec.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { loadServicesConfig } from '../services/servicesConfig.ts';
import { PY_GRAPH_FILE, writeGridworldServices } from '../test/pythonService.testutil.ts';
import { enqueueEpisodes, openEpisodeQueue, WATCH_KEY } from './queue.ts';
import { wholeLog } from './remoteRuns.plugin.ts';
import { startWorker, type StatewireWorker } from './worker.ts';

const decoded = decodeGraph(demoGraph(12));
if (!decoded.ok) throw new Error('demo graph does not decode');
const graph = decoded.graph;

describe.skipIf(!hasRedis() || !hasPostgres())('statewire worker', () => {
  let redis: RedisServer;
  let pg: PgServer;
  let log: PgRunLog;
  let tap: Redis;
  const published = new Map<string, number>();
  const workers: StatewireWorker[] = [];

  beforeAll(async () => {
    [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
    log = await PgRunLog.connect(pg.url);
    // What workers publish: the emitter's channel per room.
    tap = new Redis(redis.url);
    await tap.psubscribe('socket.io#/#run:*');
    tap.on('pmessage', (_p: string, channel: string) => {
      const runId = channel.slice('socket.io#/#run:'.length, -1);
      published.set(runId, (published.get(runId) ?? 0) + 1);
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(workers.map((w) => w.close({ handBack: true })));
    tap?.disconnect();
    await log?.close();
    await Promise.allSettled([redis?.stop(), pg?.stop()]);
  }, 120_000);

  const start = async (name: string, stepDelayMs = 0) => {
    const w = await startWorker({ redisUrl: redis.url, databaseUrl: pg.url, name, stepDelayMs });
    workers.push(w);
    return w;
  };

  it('publishes the events of watched runs only', async () => {
    const w = await start('pub-1');
    const marks = new Redis(redis.url);
    const queue = openEpisodeQueue(redis.url);
    try {
      const [watched, unwatched] = buildJobs('watch', graph, 2, 1);
      await marks.set(WATCH_KEY + watched!.runId, '1', 'PX', 60_000);
      await enqueueEpisodes(queue, [watched!, unwatched!]);
      await waitFor(async () => (await log.episodes('watch')).length === 2, 60_000, 'both episodes');
      await marks.ping(); // the last publishes have reached the tap
      const lastSeq = (await log.getRun(watched!.runId))!.last_seq;
      expect(published.get(watched!.runId)).toBe(lastSeq);
      expect(published.get(unwatched!.runId)).toBeUndefined();
    } finally {
      await w.close();
      marks.disconnect();
      await queue.close();
    }
  }, 120_000);

  it("calls node services from the worker: it starts the services file's command service itself", async () => {
    const lines: string[] = [];
    const file = writeGridworldServices(mkdtempSync(join(tmpdir(), 'statewire-svc-')));
    const w = await startWorker({
      redisUrl: redis.url,
      databaseUrl: pg.url,
      name: 'svc-1',
      services: loadServicesConfig(dirname(file), [], file).entries,
      log: (l) => lines.push(l),
    });
    workers.push(w);
    const queue = openEpisodeQueue(redis.url);
    try {
      const py = JSON.parse(readFileSync(PY_GRAPH_FILE, 'utf8')) as GraphDef;
      py.step_budget = 8;
      for (const n of py.nodes) if (n.id === 'reset') n.config = { size: 4, max_steps: 8 };
      const jobs = buildJobs('svc', py, 2, 3);
      await enqueueEpisodes(queue, jobs);
      const rows = await waitFor(
        async () => {
          const r = await log.episodes('svc');
          return r.length === 2 ? r : undefined;
        },
        180_000,
        'both service episodes',
      );
      expect(rows.map((r) => [r.status, r.steps, r.worker])).toEqual([
        ['done', 8, 'svc-1'],
        ['done', 8, 'svc-1'],
      ]);
      expect(lines.some((l) => /gridworld [\d.]* ?listening on/.test(l))).toBe(true);
      expect(lines).toContain('svc-1: service gridworld up');
      // The service's nodes ran: their outputs are in the log.
      const events = await wholeLog(log, jobs[0]!.runId);
      expect(
        events.some(
          (e) => e.type === 'node_status' && (e.data as { node_id: string }).node_id === 'env_step',
        ),
      ).toBe(true);
    } finally {
      await w.close();
      await queue.close();
    }
  }, 240_000);

  it('hands its episode back on shutdown; another worker resumes it from the checkpoint', async () => {
    const first = await start('hand-1', 150);
    const queue = openEpisodeQueue(redis.url);
    try {
      const [job] = buildJobs('handback', graph, 1, 2);
      await enqueueEpisodes(queue, [job!]);
      await waitFor(async () => ((await log.getRun(job!.runId))?.steps ?? 0) >= 3, 60_000, 'three steps');
      await first.close({ handBack: true });
      expect(first.stats).toMatchObject({ handedBack: 1, completed: 0, failed: 0 });
      const interrupted = await log.getRun(job!.runId);
      expect(interrupted?.status).toBe('interrupted');
      expect(await queue.getWaitingCount()).toBe(1);

      await start('hand-2');
      const rows = await waitFor(
        async () => {
          const r = await log.episodes('handback');
          return r.length === 1 ? r : undefined;
        },
        60_000,
        'the resumed episode',
      );
      expect(rows[0]).toMatchObject({ status: 'done', steps: 12, worker: 'hand-2' });
      expect(rows[0]!.attempts).toBeGreaterThan(1);
      const events = await wholeLog(log, job!.runId);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      const restored = events.filter((e) => e.type === 'restored');
      expect(restored).toHaveLength(1);
      expect((restored[0]!.data as { step: number }).step).toBe(interrupted!.steps);
      const steps = events.filter((e) => e.type === 'nav_step').map((e) => (e.data as { step: number }).step);
      expect(steps).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    } finally {
      await queue.close();
    }
  }, 120_000);
});

describe('statewire worker (CLI)', () => {
  const runCli = (env: Record<string, string | undefined>) => {
    const clean = { ...process.env };
    delete clean.STATEWIRE_REDIS_URL;
    delete clean.STATEWIRE_DATABASE_URL;
    return spawnSync(process.execPath, [join(REPO, 'bin/statewire.js'), 'worker'], {
      cwd: REPO,
      env: { ...clean, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
  };

  it('refuses to start without both URLs, saying which is missing', () => {
    const none = runCli({});
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(
      /distributed mode is off: set STATEWIRE_REDIS_URL and STATEWIRE_DATABASE_URL/,
    );
    const half = runCli({ STATEWIRE_REDIS_URL: 'redis://127.0.0.1:1' });
    expect(half.status).toBe(2);
    expect(half.stderr).toMatch(/STATEWIRE_REDIS_URL is set but STATEWIRE_DATABASE_URL is not/);
  }, 120_000);
});
