import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveSeed, applyEpisodeSeed } from '../../domain/batch/seeds.ts';
import { applySets } from '../../domain/batch/setPaths.ts';
import { parseGraphTextOrThrow } from '../../domain/graph/graph.parse.ts';
import type { EventEnvelope, RunResultData } from '../../domain/protocol/protocol.ts';
import { createRegistry } from '../../engine/registry.ts';
import { SqliteRunLog } from '../db/sqliteRunLog.ts';
import { GROUP_STEPS } from '../runs/runWriter.ts';
import { failEpisode, runEpisode, type EpisodeJob } from './episodeRun.ts';

const DEMO = join(import.meta.dirname, '../../../workspace/graphs/grid_navigator.json');

function demoJob(episode: number, steps: number, runId = `b_test_e${episode}`): EpisodeJob {
  const sets = applySets(parseGraphTextOrThrow(readFileSync(DEMO, 'utf8')), [`step_budget=${steps}`]);
  if (!sets.ok) throw new Error(sets.message);
  const seed = deriveSeed(0, episode);
  return {
    batchId: 'b_test',
    episode,
    seed,
    runId,
    graphName: sets.graph.name,
    graph: applyEpisodeSeed(sets.graph, seed),
  };
}

const logs: SqliteRunLog[] = [];
afterEach(async () => {
  for (const l of logs.splice(0)) await l.close();
});
function memoryLog(): SqliteRunLog {
  const log = SqliteRunLog.open(':memory:');
  logs.push(log);
  return log;
}
const registry = createRegistry();
const clock = () => {
  let t = Date.UTC(2026, 0, 1);
  return () => (t += 1);
};

async function allEvents(log: SqliteRunLog, runId: string): Promise<EventEnvelope[]> {
  return log.events(runId, 0, 1_000_000);
}
const expectContiguous = (events: EventEnvelope[]) =>
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

describe('runEpisode', () => {
  it('stores an episode of the demo as a run of its own: events, one checkpoint per step, run_result last', async () => {
    const log = memoryLog();
    const published: EventEnvelope[] = [];
    const job = demoJob(1, 12);
    const row = await runEpisode(job, {
      log,
      registry,
      worker: 'test',
      now: clock(),
      publish: (e) => published.push(...e),
    });
    expect(row).toMatchObject({
      episode: 1,
      seed: job.seed,
      run_id: job.runId,
      status: 'done',
      steps: 12,
      // The demo's Metrics viewer shows `success` (goals reached so far): none in 12 steps.
      success: false,
      worker: 'test',
      attempts: 1,
    });
    expect(row.outputs).toHaveProperty('pose');
    // Numeric outputs plus what the Metrics viewer showed last (the env's per-episode figures).
    expect(row.metrics).toMatchObject({ success: 0, collisions: expect.any(Number) });
    expect(Object.keys(row.metrics).sort()).toEqual(
      ['collisions', 'distance', 'episode', 'final_action', 'reward', 'success', 't'].filter(
        (k) => k !== 'final_action' || typeof row.outputs.final_action === 'number',
      ),
    );
    type Shown = { node_id: string; fields: { metrics: { reward: number } } };
    const shown = published
      .filter((e) => e.type === 'viewer_data' && (e.data as Shown).node_id === 'metrics_view')
      .pop();
    expect(row.metrics.reward).toBe((shown?.data as Shown).fields.metrics.reward);
    const run = await log.getRun(job.runId);
    expect(run).toMatchObject({
      status: 'done',
      steps: 12,
      lineage: job.runId,
      graph_name: 'Grid Navigator',
    });
    expect(run!.ended_at).not.toBeNull();
    const events = await allEvents(log, job.runId);
    expectContiguous(events);
    expect(run!.last_seq).toBe(events.length);
    expect(events.at(-1)!.type).toBe('run_result');
    expect((events.at(-1)!.data as RunResultData).status).toBe('done');
    expect(events.filter((e) => e.type === 'nav_step').map((e) => (e.data as { step: number }).step)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(await log.checkpointSteps(job.runId)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    // The stored graph is the seeded one, so the run replays with its own seed.
    const stored = (await log.graphOf(job.runId)) as { nodes: { id: string; config: { seed?: number } }[] };
    expect(stored.nodes.find((n) => n.id === 'env')!.config.seed).toBe(
      (job.graph as { nodes: { id: string; config: { seed?: number } }[] }).nodes.find((n) => n.id === 'env')!
        .config.seed,
    );
    // Viewers got exactly the log, in order.
    expect(published.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
  });

  it('resumes a run its worker left at step 5 from that checkpoint: same end as an uninterrupted run, no repeated seq', async () => {
    const log = memoryLog();
    const job = demoJob(2, 30);
    let checks = 0;
    const first = await runEpisode(job, {
      log,
      registry,
      worker: 'w1',
      now: clock(),
      shouldStop: () => ++checks > 5,
    });
    expect(first).toMatchObject({ status: 'interrupted', steps: 5 });
    expect(await log.getRun(job.runId)).toMatchObject({ status: 'interrupted', steps: 5 });
    expect(await log.checkpointSteps(job.runId)).toEqual([1, 2, 3, 4, 5]);
    const before = (await log.getRun(job.runId))!.last_seq;

    const published: EventEnvelope[] = [];
    const resumed = await runEpisode(job, {
      log,
      registry,
      worker: 'w2',
      now: clock(),
      publish: (e) => published.push(...e),
    });
    expect(resumed).toMatchObject({ status: 'done', steps: 30, worker: 'w2', attempts: 2 });
    expect(published[0]).toMatchObject({ seq: before + 1, type: 'restored' });
    expect((published[0]!.data as { restored_to: number }).restored_to).toBe(5);
    const events = await allEvents(log, job.runId);
    expectContiguous(events);
    const navSteps = events
      .filter((e) => e.type === 'nav_step')
      .map((e) => (e.data as { step: number }).step);
    expect(navSteps).toEqual(Array.from({ length: 30 }, (_, i) => i + 1)); // no step twice, none missing

    const straight = await runEpisode(demoJob(2, 30, 'b_test_straight'), {
      log,
      registry,
      worker: 'w3',
      now: clock(),
    });
    const endOf = async (id: string) =>
      (await log.events(id, 0, 1_000_000, 'run_result'))[0]!.data as RunResultData;
    const [a, b] = [await endOf(job.runId), await endOf('b_test_straight')];
    expect(a.containers).toEqual(b.containers);
    expect(a.outputs).toEqual(b.outputs);
    expect(resumed.metrics).toEqual(straight.metrics);

    // A job retried after its run ended reports the stored result and runs nothing.
    const again = await runEpisode(job, { log, registry, worker: 'w4', now: clock() });
    expect(again).toMatchObject({ status: 'done', steps: 30, outputs: resumed.outputs });
    expect((await log.getRun(job.runId))!.last_seq).toBe(events.length);
  });

  it('runs the next step while a slow log writes the last one, never two commits at once', async () => {
    const log = memoryLog();
    const commit = log.commit.bind(log);
    let open = 0;
    let most = 0;
    log.commit = async (runId, batch) => {
      most = Math.max(most, ++open);
      await new Promise((r) => setTimeout(r, 5));
      await commit(runId, batch);
      open -= 1;
    };
    const job = demoJob(5, 10);
    const row = await runEpisode(job, { log, registry, worker: 'w', now: clock() });
    expect(row).toMatchObject({ status: 'done', steps: 10 });
    expect(most).toBe(1);
    const events = await allEvents(log, job.runId);
    expectContiguous(events);
    expect(events.at(-1)!.type).toBe('run_result');
    expect(await log.checkpointSteps(job.runId)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('commits steps run flat out in groups (GROUP_STEPS, each step with its checkpoint); a worker dying mid-group resumes from the last commit', async () => {
    const log = memoryLog();
    const commit = log.commit.bind(log);
    // A clock that stands still: groups close by count only, so the test does not depend on speed.
    const still = () => Date.UTC(2026, 0, 1);
    const commits: { steps: number; lastCheckpoint: number | undefined }[] = [];
    let refuseFrom = 2;
    log.commit = async (runId, batch) => {
      if (commits.length + 1 >= refuseFrom) throw new Error('worker killed');
      await commit(runId, batch);
      commits.push({
        steps: (await log.getRun(runId))!.steps,
        lastCheckpoint: (await log.lastCheckpoint(runId))?.step,
      });
    };
    const job = demoJob(6, 40);
    // The second group never reaches the log: as if the worker died while it ran steps 17–32.
    await expect(runEpisode(job, { log, registry, worker: 'w1', now: still })).rejects.toThrow(
      'worker killed',
    );
    expect(commits).toEqual([{ steps: GROUP_STEPS, lastCheckpoint: GROUP_STEPS }]);
    const committed = (await log.getRun(job.runId))!;
    expect(await log.checkpointSteps(job.runId)).toEqual(
      Array.from({ length: GROUP_STEPS }, (_, i) => i + 1),
    );

    refuseFrom = Infinity;
    const row = await runEpisode(job, { log, registry, worker: 'w2', now: still });
    expect(row).toMatchObject({ status: 'done', steps: 40, attempts: 2 });
    // Every commit ended at a checkpoint of its last step: the log never ends between two.
    for (const c of commits) expect(c.lastCheckpoint).toBe(c.steps);
    expect(commits.length).toBeLessThan(40 / 2);
    const events = await allEvents(log, job.runId);
    expectContiguous(events);
    const restored = events.find((e) => e.seq === committed.last_seq + 1);
    expect(restored).toMatchObject({ type: 'restored', data: { restored_to: GROUP_STEPS } });
    expect(events.filter((e) => e.type === 'nav_step').map((e) => (e.data as { step: number }).step)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(await log.checkpointSteps(job.runId)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('commits every step of a paced episode at once (step_delay_ms > 0)', async () => {
    const log = memoryLog();
    const commit = log.commit.bind(log);
    let commits = 0;
    log.commit = async (runId, batch) => {
      commits += 1;
      expect(batch.earlier ?? []).toEqual([]);
      await commit(runId, batch);
    };
    const row = await runEpisode(demoJob(7, 6), { log, registry, worker: 'w', now: clock(), stepDelayMs: 1 });
    expect(row).toMatchObject({ status: 'done', steps: 6 });
    expect(commits).toBe(6 + 1); // one per step, then run_result
  });

  it('ends a job that cannot run as error, with a run the editor can open', async () => {
    const log = memoryLog();
    const job = { ...demoJob(3, 5), graph: { name: 'broken', nodes: 'nope' } };
    const row = await runEpisode(job, { log, registry, worker: 'w', now: clock() });
    expect(row).toMatchObject({
      status: 'error',
      steps: 0,
      success: false,
      error: expect.stringMatching(/^invalid graph: \$\.nodes/),
    });
    expect(await log.getRun(job.runId)).toMatchObject({ status: 'error' });
    const events = await allEvents(log, job.runId);
    expect(events.map((e) => e.type)).toEqual(['nav_status', 'run_result']);

    // failEpisode on a run that got part-way keeps its steps and continues its seq.
    const part = demoJob(4, 20);
    let n = 0;
    await runEpisode(part, { log, registry, worker: 'w', now: clock(), shouldStop: () => ++n > 3 });
    const last = (await log.getRun(part.runId))!.last_seq;
    const failed = await failEpisode(part, { log, worker: 'pool' }, 'worker died 3 times', 3);
    expect(failed).toMatchObject({ status: 'error', steps: 3, attempts: 3, error: 'worker died 3 times' });
    const tail = await log.events(part.runId, last, 10);
    expect(tail.map((e) => [e.seq, e.type])).toEqual([
      [last + 1, 'nav_status'],
      [last + 2, 'run_result'],
    ]);
  });
});
