// `statewire batch` as a user runs it: the real binary on the demo graph in a temp workspace, two
// worker processes, --json and --csv; every episode's run is in the workspace database afterwards.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SET_ENTRIES } from '../../domain/batch/batch.schema.ts';
import type { BatchAggregate, EpisodeRow } from '../../domain/batch/batch.types.ts';
import { deriveSeed } from '../../domain/batch/seeds.ts';
import { SqliteRunLog } from '../db/sqliteRunLog.ts';
import { runStatewire } from '../test/cli.testutil.ts';
import { tempWorkspace } from '../test/serverProcess.testutil.ts';
import { aggregateLines, episodeLine } from './batchReport.ts';

let ws: ReturnType<typeof tempWorkspace>;
beforeAll(() => {
  ws = tempWorkspace();
});
afterAll(() => ws.cleanup());

const statewire = (args: string[]) => runStatewire(args, ws.dir);

describe('statewire batch', () => {
  it('runs 6 episodes on 2 workers: one JSON object, distinct seeds, runs in the workspace database, CSV', async () => {
    const csvFile = join(ws.dir, 'rows.csv');
    const graph = join(ws.dir, 'graphs', 'grid_navigator.json');
    const r = await statewire([
      'batch',
      graph,
      '--episodes',
      '6',
      '--workers',
      '2',
      '--set',
      'step_budget=20',
      // A negative seed is a seed (not "argument is ambiguous").
      '--seed',
      '-7',
      '--json',
      '--csv',
      csvFile,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1); // one object, nothing else on stdout
    const out = JSON.parse(lines[0]!) as {
      batch_id: string;
      status: string;
      episodes: EpisodeRow[];
      aggregate: BatchAggregate;
    };
    expect(out.status).toBe('done');
    expect(out.episodes.map((e) => e.episode)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(out.episodes.map((e) => e.seed)).toEqual([1, 2, 3, 4, 5, 6].map((e) => deriveSeed(-7, e)));
    for (const e of out.episodes) {
      expect(e).toMatchObject({
        status: 'done',
        steps: 20,
        // The demo's Metrics viewer shows the goals reached; that figure decides success.
        success: (e.metrics.success ?? 0) > 0,
        run_id: `${out.batch_id}_e${e.episode}`,
      });
      expect(e.metrics).toHaveProperty('reward');
      expect(Object.keys(e)).toEqual(
        expect.arrayContaining(['episode', 'seed', 'run_id', 'status', 'steps', 'outputs', 'metrics']),
      );
      expect(e.outputs).toHaveProperty('pose');
    }
    expect(new Set(out.episodes.map((e) => e.seed)).size).toBe(6);
    expect(out.aggregate).toMatchObject({
      episodes: 6,
      completed: 6,
      failed: 0,
      success_rate: out.episodes.filter((e) => e.success).length / 6,
      mean_steps: 20,
    });
    expect(out.aggregate.metrics.final_action?.n).toBe(6);
    expect(new Set(out.episodes.map((e) => e.worker)).size).toBeGreaterThanOrEqual(1);

    const log = SqliteRunLog.open(join(ws.dir, '.statewire', 'runs.db'));
    try {
      for (const e of out.episodes)
        expect(await log.getRun(e.run_id)).toMatchObject({ status: 'done', steps: 20 });
      expect(await log.getBatch(out.batch_id)).toMatchObject({
        status: 'done',
        episodes: 6,
        workers: 2,
        sets: ['step_budget=20'],
      });
    } finally {
      await log.close();
    }

    const csv = readFileSync(csvFile, 'utf8').split('\r\n');
    expect(csv[0]).toBe(
      'episode,seed,run_id,status,steps,success,collisions,distance,metrics.episode,final_action,reward,metrics.success,t,outputs,error',
    );
    expect(csv).toHaveLength(8);
    expect(csv[1]).toMatch(
      new RegExp(`^1,${out.episodes[0]!.seed},${out.batch_id}_e1,done,20,${out.episodes[0]!.success},`),
    );
  }, 120_000);

  it('exits 2 naming the flag or path on bad arguments', async () => {
    const graph = join(ws.dir, 'graphs', 'grid_navigator.json');
    const noEpisodes = await statewire(['batch', graph]);
    expect(noEpisodes.code).toBe(2);
    expect(noEpisodes.stderr).toMatch(/--episodes is required/);
    const badSet = await statewire(['batch', graph, '--episodes', '2', '--set', 'nodes.nope.config.seed=1']);
    expect(badSet.code).toBe(2);
    expect(badSet.stderr).toMatch(/--set nodes\.nope\.config\.seed=1: nodes\.nope: no element "nope"/);
    const badWorkers = await statewire(['batch', graph, '--episodes', '2', '--workers', '0']);
    expect(badWorkers.code).toBe(2);
    expect(badWorkers.stderr).toMatch(/--workers must be an integer from 1 to 64/);
    const badMax = await statewire(['batch', graph, '--episodes', '2', '--max-workers', '0']);
    expect(badMax.code).toBe(2);
    expect(badMax.stderr).toMatch(/--max-workers must be an integer from 1 to 1024/);
    const sets = Array.from({ length: MAX_SET_ENTRIES + 1 }, () => ['--set', 'step_budget=3']).flat();
    const tooMany = await statewire(['batch', graph, '--episodes', '1', ...sets]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain(`at most ${MAX_SET_ENTRIES} --set entries (got ${MAX_SET_ENTRIES + 1})`);
    // A negative number gets the range message too, long or short.
    for (const flag of ['--episodes', '-n']) {
      const negative = await statewire(['batch', graph, flag, '-1']);
      expect(negative.code).toBe(2);
      expect(negative.stderr).toMatch(/--episodes must be an integer from 1 to 100000, got "-1"/);
      expect(negative.stderr).not.toMatch(/ambiguous/);
    }
  }, 60_000);

  it('--max-workers caps the child processes: 4 asked, 1 allowed, every episode on the one child', async () => {
    const graph = join(ws.dir, 'graphs', 'grid_navigator.json');
    const r = await statewire([
      'batch',
      graph,
      '--episodes',
      '3',
      '--workers',
      '4',
      '--max-workers',
      '1',
      '--set',
      'step_budget=5',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { status: string; episodes: EpisodeRow[] };
    expect(out.status).toBe('done');
    expect(out.episodes.map((e) => e.worker)).toEqual(['embedded-1', 'embedded-1', 'embedded-1']);
  }, 120_000);
});

describe('batch report lines', () => {
  it('prints a line per episode and the aggregate table', () => {
    const row: EpisodeRow = {
      episode: 2,
      seed: 9,
      run_id: 'b_e2',
      status: 'done',
      steps: 20,
      outputs: {},
      metrics: { reward: 1.5 },
      success: true,
      worker: 'embedded-1',
      duration_ms: 40,
      attempts: 2,
    };
    expect(episodeLine(row, 6)).toBe(
      'episode 2/6 done after 2 attempts | steps 20 | success yes | reward=1.5 | seed 9 | run b_e2 (embedded-1, 40 ms)',
    );
    const lines = aggregateLines(
      'b',
      {
        episodes: 2,
        completed: 1,
        failed: 1,
        success_rate: 0.5,
        mean_steps: 10,
        metrics: { reward: { mean: 1.25, std: 0.25, min: 1, max: 1.5, n: 2 } },
      },
      3.5,
    );
    expect(lines).toEqual([
      'batch b: 2 episodes, 1 done, 1 failed, success rate 50.0%, mean steps 10, 3.5 episodes/s',
      'metric  mean  std   min  max  n',
      'reward  1.25  0.25  1    1.5  2',
    ]);
  });
});
