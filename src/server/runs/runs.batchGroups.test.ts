// GET /api/runs says which runs are episodes of a batch (`batch: {id, episode, episodes, status}`),
// so the Runs menu groups them under their batch instead of listing one row per episode. An id
// that merely looks like an episode's (`<x>_e3`) is not one unless batch <x> is stored here.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodeOfRunId, episodeRunId } from '../../domain/batch/episodeIds.ts';
import { createServer, type StatewireServer } from '../app.ts';
import { api, demoGraph, tempWorkspace, waitFor } from '../test/serverProcess.testutil.ts';

let server: StatewireServer;
let url: string;
let ws: ReturnType<typeof tempWorkspace>;

beforeAll(async () => {
  ws = tempWorkspace();
  server = await createServer({ workspace: ws.dir, distDir: join(ws.dir, 'dist'), port: 0 });
  ({ url } = await server.listen());
}, 60_000);
afterAll(async () => {
  await server?.close();
  ws?.cleanup();
});

describe('episodeOfRunId', () => {
  it('inverts episodeRunId and reads nothing else as an episode', () => {
    expect(episodeOfRunId(episodeRunId('batch_abc_e1', 12))).toEqual({
      batchId: 'batch_abc_e1',
      episode: 12,
    });
    expect(episodeOfRunId('run_123')).toBeNull();
    expect(episodeOfRunId('x_e0')).toBeNull();
    expect(episodeOfRunId('x_e')).toBeNull();
  });
});

describe('GET /api/runs marks batch episodes', () => {
  it('each episode run carries its batch; other runs carry null', async () => {
    const started = await api(url, 'POST', '/api/batches', {
      loop_definition: demoGraph(4),
      episodes: 3,
      workers: 2,
      seed: 3,
    });
    expect(started.status).toBe(202);
    const id = started.body.batch_id as string;
    await waitFor(
      async () => (await api(url, 'GET', `/api/batches/${id}`)).body.batch?.status === 'done',
      90_000,
      'the batch to end',
    );
    // A run whose id only looks like an episode's.
    const lookalike = await api(url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(2),
      execution_id: 'lookalike_e2',
      step_delay_ms: 0,
    });
    expect(lookalike.status).toBe(200);

    const runs = (await api(url, 'GET', '/api/runs')).body as { id: string; batch: unknown }[];
    const episodes = runs.filter((r) => r.id.startsWith(`${id}_e`));
    expect(
      episodes.map((r) => r.batch).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([1, 2, 3].map((episode) => ({ id, episode, episodes: 3, status: 'done' })));
    expect(runs.find((r) => r.id === 'lookalike_e2')!.batch).toBeNull();
  }, 120_000);
});
