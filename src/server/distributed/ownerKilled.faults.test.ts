// No orphaned batch: three REAL `statewire serve` processes A, B and C in distributed mode (real
// Redis, real PostgreSQL, started here) and two workers. A batch is started on A; once some
// episodes are recorded, A is killed with SIGKILL. Another instance must take the batch's lease
// within 10 s (A's lease expires, a scan takes it: batchLease.ts), collect the rows the workers
// keep recording, and end the batch `done` — every episode recorded once, each run's log whole (no
// episode executed twice), the aggregate over all of them. Then the graceful path: that instance,
// stopped with SIGTERM while it owns a new batch, hands it over (released, not left to expire) to
// the last one, which finishes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import { hasPostgres, startPostgres, type PgServer } from '../test/pgServer.ts';
import { hasRedis, startRedis, type RedisServer } from '../test/redisServer.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../test/serverProcess.testutil.ts';
import { LEASE_TIMINGS } from './batchLease.ts';
import { DATABASE_URL_ENV, REDIS_URL_ENV } from './config.ts';
import { wholeLog } from './remoteRuns.plugin.ts';
import { startWorker, type StatewireWorker } from './worker.ts';

const EPISODES = 40;
const STEPS = 20;
/** Pace of the workers' episodes, so the batch is still going when its owner dies. */
const STEP_DELAY_MS = 40;

const navSteps = (events: EventEnvelope[]) =>
  events.filter((e) => e.type === 'nav_step').map((e) => (e.data as { step: number }).step);

describe.skipIf(!hasRedis() || !hasPostgres())('a batch whose owner instance is killed', () => {
  let redis: RedisServer;
  let pg: PgServer;
  let log: PgRunLog;
  const servers: ServerProcess[] = [];
  const workers: StatewireWorker[] = [];
  const cleanups: Array<() => void> = [];
  let firstBatch = '';
  let firstOwner = '';

  beforeAll(async () => {
    [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
    log = await PgRunLog.connect(pg.url);
    // All three before any batch, one at a time: a server's start is slow on a busy machine.
    for (let i = 0; i < 3; i++) await instance();
  }, 240_000);

  afterAll(async () => {
    await Promise.allSettled(servers.map((s) => s.kill9()));
    await Promise.allSettled(workers.map((w) => w.close({ handBack: true, graceMs: 0 })));
    await log?.close();
    await Promise.allSettled([redis?.stop(), pg?.stop()]);
    for (const c of cleanups) c();
  }, 120_000);

  async function instance() {
    const ws = tempWorkspace();
    cleanups.push(ws.cleanup);
    const s = await startServer(ws.dir, [], { [REDIS_URL_ENV]: redis.url, [DATABASE_URL_ENV]: pg.url });
    servers.push(s);
    return s;
  }
  /** The instance that printed that it took the batch over from `owner`. */
  const takerOf = (batchId: string, owner: string | null) =>
    servers.find((s) =>
      s
        .output()
        .includes(
          `batch ${batchId}: ${owner ? `its owner ${owner} stopped renewing its lease` : 'no instance held its lease'}`,
        ),
    );
  const lease = async (batchId: string) =>
    (
      await log.pool.query<{ owner: string; previous_owner: string | null }>(
        'SELECT owner, previous_owner FROM batch_leases WHERE batch_id = $1',
        [batchId],
      )
    ).rows[0];
  const rowsOf = (batchId: string) => log.episodes(batchId);

  /** Every episode once, done, its run's log whole and executed once; the aggregate over all. */
  const expectFinishedOnce = async (on: ServerProcess, batchId: string) => {
    const view = (await api(on.url, 'GET', `/api/batches/${batchId}`)).body;
    expect(view.batch.status).toBe('done');
    const rows = view.episodes as EpisodeRow[];
    expect(rows.map((r) => r.episode)).toEqual(Array.from({ length: EPISODES }, (_, i) => i + 1));
    expect(rows.filter((r) => r.status !== 'done')).toEqual([]);
    expect(new Set(rows.map((r) => r.run_id)).size).toBe(EPISODES);
    expect(view.aggregate).toMatchObject({ episodes: EPISODES, completed: EPISODES, failed: 0 });
    expect(view.progress).toMatchObject({ status: 'done', completed: EPISODES, failed: 0, total: EPISODES });
    const stored = await log.episodes(batchId);
    expect(stored).toEqual(rows);
    for (const row of rows) {
      const events = await wholeLog(log, row.run_id);
      // Each step logged once and one run_result: no episode ran twice, none was re-run.
      expect(navSteps(events)).toEqual(Array.from({ length: row.steps }, (_, i) => i + 1));
      expect(events.filter((e) => e.type === 'run_result')).toHaveLength(1);
    }
    expect(await lease(batchId)).toBeUndefined();
  };

  it('is taken over by another instance within 10 s and finished there, each episode once', async () => {
    const a = servers[0]!;
    for (const name of ['w1', 'w2'])
      workers.push(
        await startWorker({ redisUrl: redis.url, databaseUrl: pg.url, name, stepDelayMs: STEP_DELAY_MS }),
      );

    const start = await api(a.url, 'POST', '/api/batches', {
      loop_definition: demoGraph(STEPS),
      episodes: EPISODES,
      seed: 11,
    });
    expect(start.status).toBe(202);
    const batchId = start.body.batch_id as string;
    const owner = (await lease(batchId))?.owner;
    expect(owner).toBeTruthy();
    [firstBatch, firstOwner] = [batchId, owner!];

    // Mid-batch: some episodes recorded, most still to come.
    await waitFor(async () => (await rowsOf(batchId)).length >= 5, 60_000, 'five episodes recorded');
    await a.kill9();
    const killedAt = Date.now();
    const rowsAtKill = (await rowsOf(batchId)).length;
    expect(rowsAtKill).toBeLessThan(EPISODES / 2);

    // Another instance takes the lease: A's expired, its scan took it.
    const taken = await waitFor(
      async () => {
        const l = await lease(batchId);
        return l && l.owner !== owner ? { ...l, at: Date.now() } : undefined;
      },
      20_000,
      'the lease taken over',
    );
    const takeoverMs = taken.at - killedAt;
    expect(taken.previous_owner).toBe(owner);
    expect(takeoverMs).toBeLessThan(10_000);
    const rowsAtTakeover = (await rowsOf(batchId)).length;
    // The workers kept going without an owner, and the new owner still had rows to collect.
    expect(rowsAtTakeover).toBeLessThan(EPISODES);
    const b = await waitFor(() => takerOf(batchId, owner!), 5000, 'the instance that took it');
    expect(b).not.toBe(a);
    expect((await api(b.url, 'GET', `/api/batches/${batchId}`)).body.batch.status).toBe('running');

    const done = await waitFor(
      async () => (await api(b.url, 'GET', `/api/batches/${batchId}`)).body.batch?.status === 'done',
      120_000,
      'the batch done on B',
    );
    expect(done).toBe(true);
    await expectFinishedOnce(b, batchId);
    console.log(
      `ownerKilled: owner killed with ${rowsAtKill}/${EPISODES} episodes recorded; lease taken by another instance ` +
        `${(takeoverMs / 1000).toFixed(1)} s later (lease ${LEASE_TIMINGS.ttlMs} ms, scan every ` +
        `${LEASE_TIMINGS.scanMs} ms) with ${rowsAtTakeover}/${EPISODES} recorded; it ended it done`,
    );
  }, 240_000);

  it('a stopped owner hands its batch over at once; a third instance finishes it', async () => {
    // The instance that finished the first batch starts one and is stopped; the last one takes it.
    const b = takerOf(firstBatch, firstOwner)!;
    const c = servers.find((s) => s !== b && s !== servers[0])!;
    const start = await api(b.url, 'POST', '/api/batches', {
      loop_definition: demoGraph(STEPS),
      episodes: EPISODES,
      seed: 12,
    });
    expect(start.status).toBe(202);
    const batchId = start.body.batch_id as string;
    const owner = (await lease(batchId))?.owner;
    await waitFor(async () => (await rowsOf(batchId)).length >= 5, 60_000, 'five episodes recorded');
    expect(await b.stop()).toBe(0);
    servers.splice(servers.indexOf(b), 1);
    const taken = await waitFor(
      async () => {
        const l = await lease(batchId);
        return l && l.owner !== owner ? l : undefined;
      },
      20_000,
      'the lease taken by C',
    );
    // Released, not expired: C took a batch without a lease (an expired one would name B's owner).
    expect(taken.previous_owner).toBeNull();
    // The lease row can change before C's stderr line about it has been read: wait for the line.
    expect(await waitFor(() => takerOf(batchId, null), 5000, 'the instance that took it')).toBe(c);
    await waitFor(
      async () => (await api(c.url, 'GET', `/api/batches/${batchId}`)).body.batch?.status === 'done',
      120_000,
      'the batch done on C',
    );
    await expectFinishedOnce(c, batchId);
  }, 240_000);
});
