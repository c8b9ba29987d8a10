// Batch leases against a REAL PostgreSQL (test/pgServer.ts): a lease is held while renewed, taken
// over once it expires (by exactly one of several instances), fenced (an owner that lost its lease
// ends nothing and is told so), and a batch taken over is finished by BatchManager.adopt from the
// rows already recorded plus those still to come, each episode once. The whole path with killed
// server processes is ownerKilled.faults.test.ts.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BatchRecord, EpisodeRow } from '../../domain/batch/batch.types.ts';
import { emptyGraph, type GraphDef } from '../../domain/graph/graph.schema.ts';
import { BatchManager, buildJobs, type BatchExecutor } from '../batch/batchManager.ts';
import type { EpisodeJob } from '../batch/episodeRun.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import { hasPostgres, startPostgres, type PgServer } from '../test/pgServer.ts';
import { waitFor } from '../test/serverProcess.testutil.ts';
import { BatchLeases, type BatchLeasesOptions } from './batchLease.ts';

const graph: GraphDef = {
  ...emptyGraph('g'),
  nodes: [{ id: 'env', type: 'gridEnv', label: '', position: { x: 0, y: 0 }, config: { seed: 7 } }],
};

const record = (id: string, over: Partial<BatchRecord> = {}): BatchRecord => ({
  id,
  graph_name: 'g',
  graph,
  graph_version: null,
  episodes: 4,
  workers: 1,
  seed: 5,
  sets: [],
  mode: 'distributed',
  status: 'running',
  created_at: '2026-03-01T10:00:00.000Z',
  ended_at: null,
  error: null,
  ...over,
});

const row = (job: EpisodeJob, reward: number): EpisodeRow => ({
  episode: job.episode,
  seed: job.seed,
  run_id: job.runId,
  status: 'done',
  steps: 3,
  outputs: { reward },
  metrics: { reward },
  success: true,
});

/** Reports a row per job it is handed (as workers recording them would), and keeps what it got. */
class RowsExecutor implements BatchExecutor {
  handed: number[] = [];
  async run(_b: BatchRecord, jobs: EpisodeJob[], onRow: (r: EpisodeRow) => void) {
    for (const j of jobs) {
      this.handed.push(j.episode);
      onRow(row(j, j.episode * 10));
    }
  }
  cancel() {}
  async close() {}
}

describe.skipIf(!hasPostgres())('batch leases', () => {
  let server: PgServer;
  let log: PgRunLog;
  let dbs = 0;
  const open: BatchLeases[] = [];
  const logs: PgRunLog[] = [];

  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterEach(async () => {
    for (const l of open.splice(0)) l.close();
    for (const l of logs.splice(0)) await l.close();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A fresh database (migrated) per test. */
  const freshLog = async () => {
    const url = await server.createDatabase(`lease${process.pid}_${++dbs}`);
    log = await PgRunLog.connect(url, { max: 4 });
    logs.push(log);
    return log;
  };
  const leases = (owner: string, opts: BatchLeasesOptions = {}) => {
    const l = new BatchLeases(log.pool, { owner, say: () => undefined, ...opts });
    open.push(l);
    return l;
  };
  const leaseRow = async (batchId: string) =>
    (
      await log.pool.query<{ owner: string; previous_owner: string | null }>(
        'SELECT owner, previous_owner FROM batch_leases WHERE batch_id = $1',
        [batchId],
      )
    ).rows[0];
  const expire = (batchId: string) =>
    log.pool.query("UPDATE batch_leases SET expires_at = now() - interval '1 second' WHERE batch_id = $1", [
      batchId,
    ]);
  const never = async () => true;

  it('holds a renewed lease; ends the batch and drops the lease in one statement', async () => {
    await freshLog();
    // A lifetime well above a busy machine's pauses, renewed far more often.
    const a = leases('A', { ttlMs: 1500, renewMs: 100 });
    const b = leases('B');
    await a.claim('b1');
    await log.createBatch(record('b1'));
    // Renewed past several lifetimes: nobody can take it.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await b.scan(never)).toEqual([]);
    expect(await leaseRow('b1')).toMatchObject({ owner: 'A' });

    const end = { status: 'done' as const, ended_at: '2026-03-01T10:05:00.000Z', error: null };
    expect(await a.end('b1', end)).toBe(true);
    expect(await log.getBatch('b1')).toMatchObject(end);
    expect(await leaseRow('b1')).toBeUndefined();
    expect(a.holding).toEqual([]);
  });

  it('an expired lease is taken by exactly one of several instances; the old owner is fenced off', async () => {
    await freshLog();
    const a = leases('A', { renewMs: 60_000 }); // never renews in this test: as if frozen
    await a.claim('b2');
    await log.createBatch(record('b2'));
    const lost: string[] = [];
    a.onLost((id) => lost.push(id));
    await expire('b2');

    const adopted: string[] = [];
    const adopt = async (id: string) => {
      adopted.push(id);
      return true;
    };
    const scanners = ['B', 'C', 'D'].map((o) => leases(o));
    const taken = await Promise.all(scanners.map((s) => s.scan(adopt)));
    expect(taken.flat()).toEqual(['b2']);
    expect(adopted).toEqual(['b2']);
    const winner = ['B', 'C', 'D'][taken.findIndex((t) => t.length === 1)]!;
    expect(await leaseRow('b2')).toEqual({ owner: winner, previous_owner: 'A' });

    // The frozen owner wakes up: its end writes nothing, its renewal learns the lease is gone.
    expect(await a.end('b2', { status: 'done', ended_at: 'x', error: null })).toBe(false);
    expect((await log.getBatch('b2'))?.status).toBe('running');
    await a.claim('b3'); // another batch it still holds
    await log.createBatch(record('b3'));
    await a.renew();
    expect(lost).toEqual([]); // b2 was dropped by its end already; b3 is still its own
    expect(a.holding).toEqual(['b3']);
    await expire('b3');
    const e = leases('E');
    expect(await e.scan(adopt)).toEqual(['b3']);
    await a.renew();
    expect(lost).toEqual(['b3']);
    expect(a.holding).toEqual([]);
  });

  it('takes unowned running distributed batches only, and gives back one it cannot run', async () => {
    await freshLog();
    await log.createBatch(record('legacy')); // started before leases existed
    await log.createBatch(record('ended', { status: 'done' }));
    await log.createBatch(record('local', { mode: 'embedded' }));
    await log.createBatch(record('refused', { created_at: '2026-03-01T11:00:00.000Z' }));
    const b = leases('B');
    const refuse = async (id: string) => id !== 'refused';
    const taken = await b.scan(refuse);
    expect(taken).toEqual(['legacy']);
    expect(await leaseRow('legacy')).toEqual({ owner: 'B', previous_owner: null });
    expect(await leaseRow('refused')).toBeUndefined();
    expect(await leaseRow('ended')).toBeUndefined();
    expect(await leaseRow('local')).toBeUndefined();
    // Its own lease, expired while the database was out of reach, is not "taken over" from itself.
    await expire('legacy');
    expect(await b.scan(refuse)).toEqual([]);
    await b.renew();
    expect(await leaseRow('legacy')).toMatchObject({ owner: 'B' });
  });

  it('BatchManager.adopt counts the recorded episodes once and runs only the others', async () => {
    await freshLog();
    const dead = leases('dead', { renewMs: 60_000 });
    await dead.claim('b4');
    await log.createBatch(record('b4', { episodes: 5, status: 'running' }));
    const jobs = buildJobs('b4', graph, 5, 5, null);
    // The dead owner's workers recorded episodes 1 and 3 before it died.
    await log.recordEpisode('b4', row(jobs[0]!, 10));
    await log.recordEpisode('b4', row(jobs[2]!, 30));
    await expire('b4');

    const executor = new RowsExecutor();
    const ownership = leases('B');
    const rows: number[] = [];
    const manager = new BatchManager({
      log,
      executor,
      mode: 'distributed',
      ownership,
      onRow: (_id, r) => rows.push(r.episode),
    });
    try {
      ownership.takeOver((id) => manager.adopt(id));
      await waitFor(async () => (await log.getBatch('b4'))?.status === 'done', 10_000, 'b4 done');
      expect(executor.handed).toEqual([2, 4, 5]);
      expect(rows).toEqual([2, 4, 5]);
      const view = (await manager.get('b4'))!;
      expect(view.episodes.map((r) => r.episode)).toEqual([1, 2, 3, 4, 5]);
      // The aggregate over all five, each once: rewards 10…50 (two from the dead owner's time).
      expect(view.aggregate).toMatchObject({ episodes: 5, completed: 5 });
      expect(view.aggregate.metrics.reward?.mean).toBe(30);
      expect(view.progress).toMatchObject({ status: 'done', completed: 5, failed: 0, total: 5 });
      expect(await leaseRow('b4')).toBeUndefined();
      // Adopting what already ended does nothing.
      expect(await manager.adopt('b4')).toBe(false);
    } finally {
      await manager.close();
    }
  });

  it('a batch started through leases is claimed before it exists and released when it ends', async () => {
    await freshLog();
    const ownership = leases('A');
    const claimed: string[] = [];
    const seen = new pg.Client(server.url.replace(/\/[^/]+$/, `/lease${process.pid}_${dbs}`));
    await seen.connect();
    try {
      const manager = new BatchManager({
        log,
        mode: 'distributed',
        ownership,
        executor: {
          async run(b) {
            claimed.push(
              ...(
                await seen.query<{ owner: string }>('SELECT owner FROM batch_leases WHERE batch_id = $1', [
                  b.id,
                ])
              ).rows.map((r) => r.owner),
            );
          },
          cancel() {},
          async close() {},
        },
      });
      const { batchId, done } = await manager.start({ graph, episodes: 0, workers: 1, seed: 1, sets: [] });
      expect((await done).status).toBe('done');
      expect(claimed).toEqual(['A']);
      expect(await leaseRow(batchId)).toBeUndefined();
      await manager.close();
    } finally {
      await seen.end();
    }
  });
});
