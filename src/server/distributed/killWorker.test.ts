// Distributed batches survive a dead worker: 200 episodes of the demo graph over three REAL
// `statewire worker` processes (real Redis, real PostgreSQL, started here), one of them SIGKILLed
// while it is in the middle of an episode. Every episode must end `done` and be reported exactly
// once; every run's log must be seqs 1..last_seq with no hole and no duplicate; the killed worker's
// episode must have been picked up by another worker (attempts > 1) and continued from its last
// committed checkpoint (a `restored` event at a step > 0, each step logged once), ending like an
// uninterrupted run of the same episode.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { EventEnvelope, RunResultData } from '../../domain/protocol/protocol.ts';
import { createRegistry } from '../../engine/registry.ts';
import { BatchManager, buildJobs } from '../batch/batchManager.ts';
import { runEpisode } from '../batch/episodeRun.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import { SqliteRunLog } from '../db/sqliteRunLog.ts';
import { hasPostgres, startPostgres, type PgServer } from '../test/pgServer.ts';
import { hasRedis, startRedis, type RedisServer } from '../test/redisServer.ts';
import { demoGraph, waitFor } from '../test/serverProcess.testutil.ts';
import { startWorkerProcess, type WorkerProcess } from '../test/workerProcess.testutil.ts';
import { decodeGraph } from '../workspace/graphCodec.ts';
import { BullExecutor } from './bullExecutor.ts';
import { openEpisodeQueue } from './queue.ts';
import { wholeLog } from './remoteRuns.plugin.ts';

const EPISODES = 200;
const STEPS = 12;

const navSteps = (events: EventEnvelope[]) =>
  events.filter((e) => e.type === 'nav_step').map((e) => (e.data as { step: number }).step);

describe.skipIf(!hasRedis() || !hasPostgres())('distributed batch with a worker killed mid-batch', () => {
  let redis: RedisServer;
  let pg: PgServer;
  let log: PgRunLog;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
    log = await PgRunLog.connect(pg.url);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(workers.map((w) => w.kill9()));
    await log?.close();
    await Promise.allSettled([redis?.stop(), pg?.stop()]);
  }, 120_000);

  it("completes every episode exactly once, resuming the killed worker's episode from its checkpoint", async () => {
    const urls = { redisUrl: redis.url, databaseUrl: pg.url };
    workers.push(...(await Promise.all(['w1', 'w2', 'w3'].map((name) => startWorkerProcess(urls, name)))));
    const decoded = decodeGraph(demoGraph(STEPS));
    if (!decoded.ok) throw new Error('demo graph does not decode');
    const graph = decoded.graph;

    const executor = new BullExecutor({ redisUrl: redis.url, log, pollMs: 500 });
    const reported = new Map<number, number>();
    const manager = new BatchManager({
      log,
      executor,
      mode: 'distributed',
      onRow: (_id, row) => reported.set(row.episode, (reported.get(row.episode) ?? 0) + 1),
    });
    const queue = openEpisodeQueue(redis.url);
    try {
      const started = Date.now();
      const { batchId, done } = await manager.start({
        graph,
        episodes: EPISODES,
        workers: 3,
        seed: 7,
        sets: [],
      });

      // Kill w1 while it is inside an episode that has committed a few steps and has some left. It is
      // frozen (SIGSTOP) while that is checked: a worker steps faster than the check's round trips,
      // and one that finished its episode between the check and the kill has nothing to resume.
      const victim = workers[0]!;
      const killed = await waitFor(
        async () => {
          if (reported.size < EPISODES / 5) return undefined; // mid-batch
          victim.proc.kill('SIGSTOP');
          try {
            await new Promise((r) => setTimeout(r, 100)); // a commit already sent lands meanwhile
            const active = await queue.getActive();
            for (const job of active) {
              if (job.processedBy !== victim.name) continue;
              const run = await log.getRun(job.data.runId);
              if (run && run.status === 'running' && run.steps >= 2 && run.steps < STEPS) {
                await victim.kill9();
                return { episode: job.data.episode, runId: job.data.runId, steps: run.steps };
              }
            }
            return undefined;
          } finally {
            if (victim.proc.exitCode === null && victim.proc.signalCode === null) victim.proc.kill('SIGCONT');
          }
        },
        60_000,
        `${victim.name} in the middle of an episode`,
      );
      const killedAt = Date.now();

      const record = await done;
      const finished = Date.now();
      expect(record.status).toBe('done');

      // Every episode 1..200 reported once, done, and stored once.
      expect([...reported.keys()].sort((a, b) => a - b)).toEqual(
        Array.from({ length: EPISODES }, (_, i) => i + 1),
      );
      expect([...reported.values()].every((n) => n === 1)).toBe(true);
      const rows = await log.episodes(batchId);
      expect(rows.map((r) => r.episode)).toEqual(Array.from({ length: EPISODES }, (_, i) => i + 1));
      expect(rows.filter((r) => r.status !== 'done')).toEqual([]);
      expect(new Set(rows.map((r) => r.run_id)).size).toBe(EPISODES);

      // Every run's log: seqs 1..last_seq, no hole, no duplicate, every step once, one run_result last.
      const logs = new Map<number, EventEnvelope[]>();
      for (const row of rows) {
        const run = await log.getRun(row.run_id);
        const events = await wholeLog(log, row.run_id);
        logs.set(row.episode, events);
        expect(events.map((e) => e.seq)).toEqual(Array.from({ length: run!.last_seq }, (_, i) => i + 1));
        expect(navSteps(events)).toEqual(Array.from({ length: row.steps }, (_, i) => i + 1));
        expect(events.filter((e) => e.type === 'run_result')).toHaveLength(1);
        expect(events[events.length - 1]?.type).toBe('run_result');
        expect(run?.status).toBe('done');
      }

      // The killed worker's episode was taken over and continued from its checkpoint.
      const resumed = rows.filter((r) => (r.attempts ?? 1) > 1);
      expect(resumed.map((r) => r.episode)).toContain(killed.episode);
      const victimRow = rows.find((r) => r.episode === killed.episode)!;
      expect(victimRow.worker).not.toBe(victim.name);
      const events = logs.get(killed.episode)!;
      const restored = events.filter((e) => e.type === 'restored');
      expect(restored).toHaveLength(1);
      const from = (restored[0]!.data as { step: number }).step;
      expect(from).toBeGreaterThanOrEqual(killed.steps);
      expect(from).toBeGreaterThan(0);
      // Another worker took it within a few seconds (lock expiry + a stalled check).
      const takenOverMs = Date.parse(restored[0]!.ts) - killedAt;
      expect(takenOverMs).toBeLessThan(20_000);
      // Nothing before the restore was logged twice: the steps up to `from` appear once, before it.
      expect(navSteps(events.filter((e) => e.seq < restored[0]!.seq))).toEqual(
        Array.from({ length: from }, (_, i) => i + 1),
      );

      // Same outcome as an uninterrupted run of the same episode.
      const job = buildJobs(batchId, graph, EPISODES, 7).find((j) => j.episode === killed.episode)!;
      const dir = mkdtempSync(join(tmpdir(), 'statewire-ref-'));
      const ref = SqliteRunLog.open(join(dir, 'ref.db'));
      try {
        const refRow: EpisodeRow = await runEpisode(job, {
          log: ref,
          registry: createRegistry(),
          worker: 'ref',
        });
        expect(victimRow.steps).toBe(refRow.steps);
        expect(victimRow.outputs).toEqual(refRow.outputs);
        expect(victimRow.metrics).toEqual(refRow.metrics);
        const refEvents = await wholeLog(ref, job.runId);
        expect(navSteps(events)).toEqual(navSteps(refEvents));
        const result = (e: EventEnvelope[]) => e[e.length - 1]!.data as RunResultData;
        expect(result(events).containers).toEqual(result(refEvents).containers);
        expect(result(events).keyed).toEqual(result(refEvents).keyed);
      } finally {
        await ref.close();
        rmSync(dir, { recursive: true, force: true });
      }

      console.log(
        `killWorker: ${EPISODES} episodes in ${((finished - started) / 1000).toFixed(1)} s over 3 workers; ` +
          `${victim.name} killed at step ${killed.steps} of episode ${killed.episode}, ` +
          `resumed from step ${from} by ${victimRow.worker} ${(takenOverMs / 1000).toFixed(1)} s later ` +
          `(${resumed.length} episode(s) with attempts > 1; batch done ${((finished - killedAt) / 1000).toFixed(1)} s after the kill)`,
      );

      // The surviving workers stop cleanly on SIGTERM.
      expect(await workers[1]!.stop()).toBe(0);
      expect(await workers[2]!.stop()).toBe(0);
    } finally {
      await manager.close();
      await queue.close();
    }
  }, 240_000);
});
