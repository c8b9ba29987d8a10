// The embedded pool with real child processes on the demo graph: rows, runs in the parent's
// database, a child killed mid-episode (its episode resumes on a new child), one killed three times
// (recorded as error), and cancel.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySets } from '../../domain/batch/setPaths.ts';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import { parseGraphTextOrThrow } from '../../domain/graph/graph.parse.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { SqliteRunLog } from '../db/sqliteRunLog.ts';
import { BatchManager } from './batchManager.ts';
import { EmbeddedPool } from './embeddedPool.ts';

const DEMO = join(import.meta.dirname, '../../../workspace/graphs/grid_navigator.json');
const demo = (steps: number) => {
  const r = applySets(parseGraphTextOrThrow(readFileSync(DEMO, 'utf8')), [`step_budget=${steps}`]);
  if (!r.ok) throw new Error(r.message);
  return r.graph;
};

let dir: string;
let log: SqliteRunLog;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sw-pool-'));
  log = SqliteRunLog.open(join(dir, 'runs.db'));
});
afterAll(async () => {
  await log.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup(
  opts: { stepDelayMs?: number; onEvents?: (e: EventEnvelope[], pool: EmbeddedPool) => void } = {},
) {
  const events: EventEnvelope[] = [];
  const pool: EmbeddedPool = new EmbeddedPool({
    log,
    pluginDir: null,
    stepDelayMs: opts.stepDelayMs ?? 0,
    onEvents: (e) => {
      events.push(...e);
      opts.onEvents?.(e, pool);
    },
    onOutput: () => undefined,
  });
  const rows: EpisodeRow[] = [];
  const manager = new BatchManager({ log, executor: pool, onRow: (_id, row) => rows.push(row) });
  return { pool, manager, rows, events };
}

const navSteps = async (runId: string) =>
  (await log.events(runId, 0, 100_000, 'nav_step')).map((e) => (e.data as { step: number }).step);
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('EmbeddedPool', () => {
  it('runs each episode as its own run on 2 children, each writing the file itself; the parent publishes every event in order', async () => {
    const { manager, rows, events } = setup();
    const { batchId, done } = await manager.start({
      graph: demo(10),
      episodes: 4,
      workers: 2,
      seed: 5,
      sets: ['step_budget=10'],
    });
    const record = await done;
    expect(record.status).toBe('done');
    expect(rows.map((r) => r.episode).sort()).toEqual([1, 2, 3, 4]);
    // Two children; which takes how many depends on which starts first.
    for (const r of rows) expect(['embedded-1', 'embedded-2']).toContain(r.worker);
    const view = (await manager.get(batchId))!;
    expect(view.episodes).toHaveLength(4);
    expect(new Set(view.episodes.map((r) => r.seed)).size).toBe(4);
    expect(view.progress).toMatchObject({ completed: 4, failed: 0, running: 0, total: 4 });
    expect(view.aggregate).toMatchObject({ episodes: 4, completed: 4, mean_steps: 10 });
    // Success is the Metrics viewer's `success` figure of each episode.
    const succeeded = view.episodes.filter((r) => (r.metrics.success ?? 0) > 0).length;
    expect(view.aggregate.success_rate).toBe(succeeded / 4);
    expect(view.batch).not.toHaveProperty('graph');
    for (const r of view.episodes) {
      const run = await log.getRun(r.run_id);
      expect(run).toMatchObject({ status: 'done', steps: 10 });
      expect(await navSteps(r.run_id)).toEqual(range(10));
      const published = events.filter((e) => e.runId === r.run_id).map((e) => e.seq);
      expect(published).toEqual(range(run!.last_seq));
    }
  }, 90_000);

  it('retries the episode of a killed child on a new one (resuming its run), and records error after 3 deaths', async () => {
    const kills = new Map<number, number>();
    let batchId = '';
    const { manager, rows, events } = setup({
      stepDelayMs: 25,
      onEvents: (e, pool) => {
        // Episode 1: killed once at step 3 or later. Episode 2: killed after each step it commits, 3 times.
        if (!e.some((x) => x.type === 'nav_step' && (x.data as { step: number }).step >= 3)) return;
        for (const b of pool.busy(batchId)) {
          const want = b.episode === 1 ? 1 : b.episode === 2 ? 3 : 0;
          if ((kills.get(b.episode) ?? 0) >= want || !e.some((x) => x.runId.endsWith(`_e${b.episode}`)))
            continue;
          kills.set(b.episode, (kills.get(b.episode) ?? 0) + 1);
          process.kill(b.pid, 'SIGKILL');
        }
      },
    });
    const started = await manager.start({ graph: demo(12), episodes: 3, workers: 1, seed: 0, sets: [] });
    batchId = started.batchId;
    expect((await started.done).status).toBe('done');
    const byEp = new Map(rows.map((r) => [r.episode, r]));
    expect(byEp.get(1)).toMatchObject({ status: 'done', steps: 12, attempts: 2 });
    expect(await navSteps(byEp.get(1)!.run_id)).toEqual(range(12)); // resumed: no step twice
    const restored = await log.events(byEp.get(1)!.run_id, 0, 10, 'restored');
    expect(restored).toHaveLength(1);
    expect(byEp.get(2)).toMatchObject({ status: 'error', attempts: 3, success: false });
    expect(byEp.get(2)!.error).toMatch(/died .*attempt 3 of 3/);
    expect(await log.getRun(byEp.get(2)!.run_id)).toMatchObject({ status: 'error' });
    expect(byEp.get(3)).toMatchObject({ status: 'done', attempts: 1 });
    const all = await log.events(byEp.get(2)!.run_id, 0, 100_000);
    expect(all.map((x) => x.seq)).toEqual(range(all.length));
    expect(all.at(-1)!.type).toBe('run_result');
    const view = (await manager.get(batchId))!;
    expect(view.progress).toMatchObject({ completed: 2, failed: 1, total: 3 });
    // Live viewers saw every committed event of each run once, in order, across the kills.
    for (const r of rows) {
      const published = events.filter((e) => e.runId === r.run_id).map((e) => e.seq);
      expect(published).toEqual(range((await log.getRun(r.run_id))!.last_seq));
    }
  }, 120_000);

  it('cancel stops the episodes in flight (interrupted, resumable) and starts no more', async () => {
    let batchId = '';
    let cancelled = false;
    const { manager } = setup({
      stepDelayMs: 30,
      onEvents: () => {
        if (!cancelled && batchId) {
          cancelled = true;
          manager.cancel(batchId);
        }
      },
    });
    const started = await manager.start({ graph: demo(100), episodes: 5, workers: 1, seed: 0, sets: [] });
    batchId = started.batchId;
    const record = await started.done;
    expect(record.status).toBe('cancelled');
    const view = (await manager.get(batchId))!;
    expect(view.batch.status).toBe('cancelled');
    expect(view.episodes).toHaveLength(1);
    expect(view.episodes[0]).toMatchObject({ episode: 1, status: 'interrupted' });
    expect(view.episodes[0]!.steps).toBeLessThan(100);
    expect(await log.getRun(view.episodes[0]!.run_id)).toMatchObject({ status: 'interrupted' });
  }, 90_000);
});
