// The manager over a fake executor: jobs (seeds, run ids, seeded graphs), rows recorded exactly
// once, progress, and how a batch ends (done, cancelled, error).
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchRecord, EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { BatchProgress } from '../../domain/batch/progress.ts';
import { deriveSeed } from '../../domain/batch/seeds.ts';
import { emptyGraph, type GraphDef } from '../../domain/graph/graph.schema.ts';
import { SqliteRunLog } from '../db/sqliteRunLog.ts';
import { waitFor } from '../test/serverProcess.testutil.ts';
import {
  BatchManager,
  buildJobs,
  type BatchEnd,
  type BatchExecutor,
  type BatchOwnership,
} from './batchManager.ts';
import type { EpisodeJob } from './episodeRun.ts';

const graph: GraphDef = {
  ...emptyGraph('g'),
  nodes: [{ id: 'env', type: 'gridEnv', label: '', position: { x: 0, y: 0 }, config: { seed: 7 } }],
};
const row = (job: EpisodeJob, status: EpisodeRow['status'], reward: number): EpisodeRow => ({
  episode: job.episode,
  seed: job.seed,
  run_id: job.runId,
  status,
  steps: 3,
  outputs: { reward },
  metrics: { reward },
  success: status === 'done',
});

/** Finishes every job at once; episode 2 twice (a retried job), the second row winning. */
class FakeExecutor implements BatchExecutor {
  cancelled: string[] = [];
  constructor(private readonly fail?: string) {}
  async run(
    _b: BatchRecord,
    jobs: EpisodeJob[],
    onRow: (r: EpisodeRow) => void,
    onStart?: (j: EpisodeJob) => void,
  ) {
    if (this.fail) throw new Error(this.fail);
    for (const j of jobs) {
      onStart?.(j);
      if (j.episode === 2) onRow(row(j, 'error', 0));
      onRow(row(j, 'done', j.episode));
    }
  }
  cancel(id: string) {
    this.cancelled.push(id);
  }
  async close() {}
}

const logs: SqliteRunLog[] = [];
afterEach(async () => {
  for (const l of logs.splice(0)) await l.close();
});
const memoryLog = () => {
  const l = SqliteRunLog.open(':memory:');
  logs.push(l);
  return l;
};

describe('buildJobs', () => {
  it('numbers episodes from 1 with derived seeds, fixed run ids and seeded graphs', () => {
    const jobs = buildJobs('batch_x', graph, 3, 9);
    expect(jobs.map((j) => [j.episode, j.seed, j.runId])).toEqual([
      [1, deriveSeed(9, 1), 'batch_x_e1'],
      [2, deriveSeed(9, 2), 'batch_x_e2'],
      [3, deriveSeed(9, 3), 'batch_x_e3'],
    ]);
    const seeds = jobs.map((j) => (j.graph as GraphDef).nodes[0]!.config.seed);
    expect(new Set(seeds).size).toBe(3);
    expect(jobs[0]!.graphName).toBe('g');
  });
});

describe('BatchManager', () => {
  it('records each episode once, reports progress, and ends done', async () => {
    const log = memoryLog();
    const progress: BatchProgress[] = [];
    const m = new BatchManager({
      log,
      executor: new FakeExecutor(),
      onProgress: (_id, p) => progress.push(p),
      progressIntervalMs: 0,
    });
    const { batchId, done } = await m.start({
      graph,
      episodes: 3,
      workers: 2,
      seed: 1,
      sets: ['step_budget=3'],
    });
    expect(batchId).toMatch(/^batch_[0-9a-z]+$/);
    expect((await done).status).toBe('done');
    const view = (await m.get(batchId))!;
    expect(view.batch).toMatchObject({
      id: batchId,
      status: 'done',
      episodes: 3,
      workers: 2,
      seed: 1,
      sets: ['step_budget=3'],
      mode: 'embedded',
    });
    expect(view.batch).not.toHaveProperty('graph');
    expect(view.episodes.map((r) => [r.episode, r.status])).toEqual([
      [1, 'done'],
      [2, 'done'],
      [3, 'done'],
    ]);
    expect(view.progress).toMatchObject({ status: 'done', completed: 3, failed: 0, running: 0, total: 3 });
    expect(view.aggregate.metrics.reward).toMatchObject({ mean: 2, n: 3 });
    expect(progress[0]).toMatchObject({ status: 'running', completed: 0 });
    expect(progress.at(-1)).toMatchObject({ status: 'done', completed: 3 });
    const list = await m.list();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ batch: { id: batchId }, progress: { completed: 3 } });
    expect(await m.graphOf(batchId)).toEqual(graph);
    expect(await m.get('batch_nope')).toBeUndefined();
  });

  it('a live batch reads as one moment: its progress counts exactly the rows and aggregate it answers with', async () => {
    // The log takes a while to write a row (a busy disk, PostgreSQL): rows finish faster than that.
    const log = memoryLog();
    const record = log.recordEpisode.bind(log);
    log.recordEpisode = async (id, r) => {
      await new Promise((res) => setTimeout(res, 30));
      return record(id, r);
    };
    let finish!: (r: EpisodeRow) => void;
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    const executor: BatchExecutor = {
      async run(_b, jobs, onRow) {
        finish = onRow;
        for (const j of jobs.slice(0, 2)) onRow(row(j, 'done', j.episode));
        await gate;
      },
      cancel: () => undefined,
      close: async () => undefined,
    };
    const m = new BatchManager({ log, executor });
    const { batchId, done } = await m.start({ graph, episodes: 3, workers: 1, seed: 1, sets: [] });
    const view = (await m.get(batchId))!;
    expect(view.batch.status).toBe('running');
    expect(view.episodes.map((r) => r.episode)).toEqual([1, 2]);
    expect(view.progress).toMatchObject({ completed: 2, failed: 0, total: 3 });
    expect(view.aggregate).toMatchObject({ episodes: 2, completed: 2 });
    expect(view.aggregate.metrics.reward).toMatchObject({ mean: 1.5, n: 2 });
    finish(row(buildJobs(batchId, graph, 3, 1)[2]!, 'error', 0));
    release();
    await done;
    const final = (await m.get(batchId))!;
    expect(final.progress).toMatchObject({ status: 'done', completed: 2, failed: 1 });
    expect(final.aggregate).toMatchObject({ episodes: 3, completed: 2, failed: 1 });
  });

  it('ends a batch left running by a process that died as error, keeping its rows; a live one is untouched', async () => {
    const log = memoryLog();
    const orphan = buildJobs('b_orphan', graph, 2, 1);
    await log.createBatch({
      id: 'b_orphan',
      graph_name: 'g',
      graph,
      graph_version: null,
      episodes: 2,
      workers: 1,
      seed: 1,
      sets: [],
      mode: 'embedded',
      status: 'running',
      created_at: '2026-01-01T00:00:00.000Z',
      ended_at: null,
      error: null,
    });
    await log.recordEpisode('b_orphan', row(orphan[0]!, 'done', 1));
    const m = new BatchManager({
      log,
      executor: new FakeExecutor(),
      now: () => Date.parse('2026-01-02T00:00:00Z'),
    });
    const { batchId, done } = await m.start({ graph, episodes: 1, workers: 1, seed: 0, sets: [] });
    expect(await m.endOrphans()).toEqual(['b_orphan']);
    const view = (await m.get('b_orphan'))!;
    expect(view.batch).toMatchObject({ status: 'error', ended_at: '2026-01-02T00:00:00.000Z' });
    expect(view.batch.error).toMatch(/stopped before it ended/);
    expect(view.episodes.map((r) => r.episode)).toEqual([1]);
    expect((await done).id).toBe(batchId);
    expect((await m.get(batchId))!.batch.status).toBe('done');
    expect(await m.endOrphans()).toEqual([]);
  });

  it('ends a batch whose executor fails as error, with the reason', async () => {
    const m = new BatchManager({ log: memoryLog(), executor: new FakeExecutor('no workers') });
    const { batchId, done } = await m.start({ graph, episodes: 2, workers: 1, seed: 0, sets: [] });
    expect(await done).toMatchObject({ status: 'error', error: 'no workers' });
    expect((await m.get(batchId))!.batch).toMatchObject({ status: 'error', error: 'no workers' });
    expect(m.cancel(batchId)).toBe(false); // ended: nothing to cancel
  });

  describe('with an ownership (distributed mode)', () => {
    /** Remembers what the manager asked; `end` succeeds (writing to `log` if given) unless the lease was lost. */
    class FakeOwnership implements BatchOwnership {
      calls: string[] = [];
      lostLease = false;
      constructor(private readonly log?: SqliteRunLog) {}
      private listeners: Array<(id: string) => void> = [];
      async claim(id: string) {
        this.calls.push(`claim ${id}`);
      }
      async end(id: string, end: BatchEnd) {
        this.calls.push(`end ${id} ${end.status}`);
        if (!this.lostLease) await this.log?.updateBatch(id, end);
        return !this.lostLease;
      }
      async release(id: string) {
        this.calls.push(`release ${id}`);
      }
      onLost(l: (id: string) => void) {
        this.listeners.push(l);
      }
      lose(id: string) {
        this.lostLease = true;
        for (const l of this.listeners) l(id);
      }
    }
    /** Runs until released or cancelled; remembers which. */
    class HeldExecutor implements BatchExecutor {
      calls: string[] = [];
      private stop?: () => void;
      async run() {
        await new Promise<void>((res) => (this.stop = res));
      }
      release(id: string) {
        this.calls.push(`release ${id}`);
        this.stop?.();
      }
      cancel(id: string) {
        this.calls.push(`cancel ${id}`);
        this.stop?.();
      }
      async close() {}
    }

    it('claims before the batch exists and ends it through the ownership', async () => {
      const log = memoryLog();
      const own = new FakeOwnership();
      const created: boolean[] = [];
      const claim = own.claim.bind(own);
      own.claim = async (id) => {
        created.push((await log.getBatch(id)) !== undefined);
        return claim(id);
      };
      const m = new BatchManager({ log, executor: new FakeExecutor(), ownership: own });
      const { batchId, done } = await m.start({ graph, episodes: 2, workers: 1, seed: 1, sets: [] });
      expect((await done).status).toBe('done');
      expect(created).toEqual([false]);
      expect(own.calls).toEqual([`claim ${batchId}`, `end ${batchId} done`]);
      expect((await log.getBatch(batchId))?.status).toBe('running'); // the fake ownership wrote nothing
    });

    it('a lost lease: stops following the batch (not cancelling it) and writes no end', async () => {
      const log = memoryLog();
      const own = new FakeOwnership();
      const executor = new HeldExecutor();
      const m = new BatchManager({ log, executor, ownership: own });
      const { batchId, done } = await m.start({ graph, episodes: 2, workers: 1, seed: 1, sets: [] });
      own.lose(batchId);
      expect((await done).status).toBe('queued');
      expect(executor.calls).toEqual([`release ${batchId}`]);
      expect(own.calls).toEqual([`claim ${batchId}`]);
      expect(m.isLive(batchId)).toBe(false);
      // Taken over by this process again later: it runs here once more.
      expect(await m.adopt(batchId)).toBe(true);
      expect(m.isLive(batchId)).toBe(true);
      await m.close();
    });

    it('close hands the batches over (released, not cancelled); an end refused means another owner', async () => {
      const log = memoryLog();
      const own = new FakeOwnership();
      const executor = new HeldExecutor();
      const m = new BatchManager({ log, executor, ownership: own });
      const { batchId, done } = await m.start({ graph, episodes: 2, workers: 1, seed: 1, sets: [] });
      await m.close();
      await done;
      expect(executor.calls).toEqual([`release ${batchId}`]);
      expect(own.calls).toEqual([`claim ${batchId}`, `release ${batchId}`]);
      expect(await m.adopt(batchId)).toBe(false); // closing: adopts nothing

      const m2 = new BatchManager({ log, executor: new FakeExecutor(), ownership: own });
      own.lostLease = true;
      const second = await m2.start({ graph, episodes: 1, workers: 1, seed: 1, sets: [] });
      expect((await second.done).status).toBe('running'); // its end belongs to the new owner
      expect(own.calls.at(-1)).toBe(`end ${second.batchId} done`);
    });

    it('adopts a batch its dead owner was cancelling as cancelled, running nothing more', async () => {
      const log = memoryLog();
      const jobs = buildJobs('b_cancel', graph, 3, 1);
      await log.createBatch({
        id: 'b_cancel',
        graph_name: 'g',
        graph,
        graph_version: null,
        episodes: 3,
        workers: 1,
        seed: 1,
        sets: [],
        mode: 'distributed',
        status: 'running',
        created_at: '2026-01-01T00:00:00.000Z',
        ended_at: null,
        error: null,
      });
      await log.recordEpisode('b_cancel', row(jobs[0]!, 'done', 1));
      const handed: number[] = [];
      const executor: BatchExecutor = {
        async run(_b, js) {
          handed.push(...js.map((j) => j.episode));
        },
        wasCancelled: async (id) => id === 'b_cancel',
        cancel: () => undefined,
        close: async () => undefined,
      };
      const m = new BatchManager({ log, executor, ownership: new FakeOwnership(log) });
      expect(await m.adopt('b_cancel')).toBe(true);
      await waitFor(async () => (await log.getBatch('b_cancel'))?.status === 'cancelled');
      const view = (await m.get('b_cancel'))!;
      expect(handed).toEqual([]);
      expect(view.progress).toMatchObject({ status: 'cancelled', completed: 1, total: 3 });
      expect(view.episodes.map((r) => r.episode)).toEqual([1]);
    });
  });
});
