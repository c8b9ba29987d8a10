// Test helpers for the dependency fault tests (PostgreSQL restarted, Redis paused or restarted): a
// whole distributed setup — a team of one in-process server instance on REAL Redis and PostgreSQL
// (teamServers.testutil.ts) and REAL `statewire worker` processes — and the check that a batch recorded
// every episode exactly once, each like an uninterrupted run of the same episode.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { EventEnvelope, RunResultData } from '../../domain/protocol/protocol.ts';
import { createRegistry } from '../../engine/registry.ts';
import type { StatewireServer } from '../app.ts';
import { buildJobs } from '../batch/batchManager.ts';
import { runEpisode } from '../batch/episodeRun.ts';
import type { PgRunLog } from '../db/pgRunLog.ts';
import { SqliteRunLog } from '../db/sqliteRunLog.ts';
import { wholeLog } from '../distributed/remoteRuns.plugin.ts';
import type { PgServer } from './pgServer.ts';
import type { RedisServer } from './redisServer.ts';
import { decodeGraph } from '../workspace/graphCodec.ts';
import { api, demoGraph, waitFor } from './serverProcess.testutil.ts';
import { startTeam, type TeamInstance } from './teamServers.testutil.ts';
import { startWorkerProcess, type WorkerProcess } from './workerProcess.testutil.ts';

/** The demo graph of `steps` steps as the batch API takes it (decoded once, for every fault test). */
export function demoGraphDef(steps: number): GraphDef {
  const decoded = decodeGraph(demoGraph(steps));
  if (!decoded.ok) throw new Error('demo graph does not decode');
  return decoded.graph;
}

export interface FaultCluster {
  redis: RedisServer;
  pg: PgServer;
  /** The test's own reader of the PostgreSQL log. */
  log: PgRunLog;
  server: StatewireServer;
  /** The server's base URL. */
  url: string;
  workers: WorkerProcess[];
  close(): Promise<void>;
}

/** Redis, PostgreSQL, one server instance and `workers` worker processes (`--concurrency 1` each). */
export async function startFaultCluster(workers: number): Promise<FaultCluster> {
  const team = await startTeam(['faults']);
  const { redis, pg, log } = team;
  const [{ server, url }] = team.instances as [TeamInstance];
  const urls = { redisUrl: redis.url, databaseUrl: pg.url };
  const procs = await Promise.all(
    Array.from({ length: workers }, (_, i) => startWorkerProcess(urls, `w${i + 1}`)),
  );
  return {
    redis,
    pg,
    log,
    server,
    url,
    workers: procs,
    async close() {
      await Promise.allSettled(procs.map((w) => w.kill9()));
      await team.close();
    },
  };
}

/** Starts a batch through the server's REST API; resolves with its id. */
export async function startBatch(
  url: string,
  graph: GraphDef,
  episodes: number,
  seed: number,
): Promise<string> {
  const res = await api(url, 'POST', '/api/batches', { loop_definition: graph, episodes, seed });
  expect(res.status).toBe(202);
  return res.body.batch_id as string;
}

/** Resolves with the batch's view once it has ended (any final status). */
export function batchEnded(url: string, batchId: string, ms: number) {
  return waitFor(
    async () => {
      const r = await api(url, 'GET', `/api/batches/${batchId}`);
      return r.status === 200 && !['queued', 'running'].includes(r.body.batch.status) ? r.body : undefined;
    },
    ms,
    `batch ${batchId} ended`,
  );
}

const navSteps = (events: EventEnvelope[]) =>
  events.filter((e) => e.type === 'nav_step').map((e) => (e.data as { step: number }).step);

/**
 * Every episode 1..episodes recorded once and `done`, each run's log whole (seqs 1..last_seq, every
 * step once, one run_result, last); the episodes in `compare` (those the fault hit) end as an
 * uninterrupted run of the same episode does (a reference run in a throwaway SQLite log).
 */
export async function expectEveryEpisodeOnce(
  log: PgRunLog,
  batchId: string,
  graph: GraphDef,
  episodes: number,
  seed: number,
  compare: number[],
): Promise<EpisodeRow[]> {
  const rows = await log.episodes(batchId);
  const all = Array.from({ length: episodes }, (_, i) => i + 1);
  expect(rows.map((r) => r.episode)).toEqual(all);
  expect(rows.filter((r) => r.status !== 'done').map((r) => [r.episode, r.status, r.error])).toEqual([]);
  expect(new Set(rows.map((r) => r.run_id)).size).toBe(episodes);

  const dir = mkdtempSync(join(tmpdir(), 'statewire-ref-'));
  const ref = SqliteRunLog.open(join(dir, 'ref.db'));
  try {
    const jobs = buildJobs(batchId, graph, episodes, seed);
    for (const row of rows) {
      const run = await log.getRun(row.run_id);
      expect(run?.status).toBe('done');
      const events = await wholeLog(log, row.run_id);
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: run!.last_seq }, (_, i) => i + 1));
      expect(navSteps(events)).toEqual(Array.from({ length: row.steps }, (_, i) => i + 1));
      expect(events.filter((e) => e.type === 'run_result')).toHaveLength(1);
      expect(events[events.length - 1]?.type).toBe('run_result');
      if (!compare.includes(row.episode)) continue;

      const job = jobs.find((j) => j.episode === row.episode)!;
      const refRow = await runEpisode(job, { log: ref, registry: createRegistry(), worker: 'ref' });
      expect({ episode: row.episode, steps: row.steps, outputs: row.outputs, metrics: row.metrics }).toEqual({
        episode: row.episode,
        steps: refRow.steps,
        outputs: refRow.outputs,
        metrics: refRow.metrics,
      });
      const result = (e: EventEnvelope[]) => e[e.length - 1]!.data as RunResultData;
      const refEvents = await wholeLog(ref, job.runId);
      expect(result(events).containers).toEqual(result(refEvents).containers);
    }
  } finally {
    await ref.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** Every worker process still running (none died of the fault). */
export function expectWorkersAlive(workers: WorkerProcess[]): void {
  expect(
    workers.filter((w) => w.proc.exitCode !== null || w.proc.signalCode !== null).map((w) => w.output()),
  ).toEqual([]);
}
