// /api/batches on a real in-process server (port 0) with its embedded pool: bad bodies named by
// JSON path, a batch of the demo run on two children (rows, aggregate, CSV, each episode a run the
// editor opens), a socket.io viewer following an episode live, batch_progress notices, cancel.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchDetail, BatchListItem, BatchProgressNotice } from '../../domain/batch/progress.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { createServer, type StatewireServer } from '../app.ts';
import { connectClient, fullLog, type RecordingClient } from '../test/liveClient.testutil.ts';
import { api, demoGraph, tempWorkspace, waitFor } from '../test/serverProcess.testutil.ts';

let server: StatewireServer;
let url: string;
let ws: ReturnType<typeof tempWorkspace>;
let viewer: RecordingClient;
const notices: BatchProgressNotice[] = [];

beforeAll(async () => {
  ws = tempWorkspace();
  server = await createServer({ workspace: ws.dir, distDir: join(ws.dir, 'dist'), port: 0 });
  ({ url } = await server.listen());
  viewer = await connectClient(url);
  viewer.socket.on('batch_progress', (n: BatchProgressNotice) => notices.push(n));
}, 60_000);
afterAll(async () => {
  viewer?.close();
  await server?.close();
  ws?.cleanup();
});

const untilEnded = (id: string) =>
  waitFor(
    async () => {
      const { body } = await api(url, 'GET', `/api/batches/${id}`);
      return body.batch?.status !== 'running' ? (body as BatchDetail) : undefined;
    },
    90_000,
    `batch ${id} to end`,
  );

describe('POST /api/batches refuses bad requests, naming where', () => {
  const demo = demoGraph(5);
  const dangling = { ...demo, edges: [...demo.edges, { id: 'bad', source: 'ghost', target: 'env' }] };
  it.each([
    ['invalid-body', '$.loop_definition', { episodes: 2 }],
    ['invalid-body', '$.episodes', { loop_definition: demo, episodes: 0 }],
    ['invalid-body', '$.workers', { loop_definition: demo, episodes: 2, workers: 100 }],
    ['invalid-graph', '$.loop_definition.nodes', { loop_definition: { name: 'x', nodes: 5 }, episodes: 2 }],
    ['invalid-set', '$.set[0]', { loop_definition: demo, episodes: 2, set: ['nodes.nope.config.seed=1'] }],
    ['invalid-graph', '$.loop_definition.edges[19].source', { loop_definition: dangling, episodes: 1 }],
  ])('%s at %s', async (code, path, body) => {
    const res = await api(url, 'POST', '/api/batches', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.path).toBe(path);
  });

  it('answers 404 for an unknown batch', async () => {
    expect((await api(url, 'GET', '/api/batches/batch_nope')).status).toBe(404);
    expect((await api(url, 'GET', '/api/batches/batch_nope/csv')).status).toBe(404);
    expect((await api(url, 'POST', '/api/batches/batch_nope/cancel', {})).status).toBe(404);
  });
});

describe('a batch of the demo graph', () => {
  it('runs every episode as its own run, live on socket.io, with rows, aggregate, CSV and progress notices', async () => {
    const started = await api(url, 'POST', '/api/batches', {
      loop_definition: demoGraph(200),
      episodes: 3,
      workers: 2,
      seed: 7,
      set: ['step_budget=8', 'nodes.env.config.max_episode_steps=5'],
    });
    expect(started.status).toBe(202);
    const id = started.body.batch_id as string;
    expect(id).toMatch(/^batch_/);
    // A viewer follows episode 1 as it runs (replay of what is committed, then live) once it exists.
    await waitFor(
      async () => (await api(url, 'GET', `/api/runs/${id}_e1`)).status === 200,
      60_000,
      'episode 1',
    );
    const ack = (await viewer.subscribe({ runId: `${id}_e1` })) as { ok: boolean };
    expect(ack.ok).toBe(true);

    const view = await untilEnded(id);
    expect(view.batch).toMatchObject({
      id,
      status: 'done',
      episodes: 3,
      workers: 2,
      seed: 7,
      mode: 'embedded',
    });
    expect(view.batch.sets).toEqual(['step_budget=8', 'nodes.env.config.max_episode_steps=5']);
    expect(view.episodes.map((r) => [r.episode, r.status, r.steps])).toEqual([
      [1, 'done', 8],
      [2, 'done', 8],
      [3, 'done', 8],
    ]);
    expect(new Set(view.episodes.map((r) => r.seed)).size).toBe(3);
    expect(view.progress).toMatchObject({ status: 'done', completed: 3, failed: 0, running: 0, total: 3 });
    expect(view.aggregate).toMatchObject({
      episodes: 3,
      completed: 3,
      failed: 0,
      success_rate: view.episodes.filter((r) => r.success).length / 3,
      mean_steps: 8,
    });

    for (const r of view.episodes) {
      const run = await api(url, 'GET', `/api/runs/${r.run_id}`);
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({ status: 'done', steps: 8 });
      // The episode's graph is the batch's, with the overrides and the episode's own seed.
      const graph = (await api(url, 'GET', `/api/runs/${r.run_id}/graph`)).body;
      const env = (graph.graph ?? graph).nodes.find((n: { id: string }) => n.id === 'env');
      expect(env.config.max_episode_steps).toBe(5);
    }

    const log = await fullLog(url, `${id}_e1`);
    await waitFor(
      () => viewer.events.filter((e) => e.runId === `${id}_e1`).length >= log.length,
      10_000,
      'the viewer to catch up',
    );
    const seen = viewer.events.filter((e: EventEnvelope) => e.runId === `${id}_e1`);
    expect(seen.map((e) => e.seq)).toEqual(log.map((e) => e.seq));
    expect(seen.at(-1)!.type).toBe('run_result');

    await waitFor(
      () => notices.some((n) => n.batch_id === id && n.status === 'done'),
      5_000,
      'the final notice',
    );
    const mine = notices.filter((n) => n.batch_id === id);
    // `queued` until a worker takes its first episode (the server's episode slots: workerSlots.ts).
    expect(mine[0]).toMatchObject({ status: 'queued', total: 3, running: 0 });
    expect(mine.find((n) => n.status === 'running')).toMatchObject({ total: 3 });
    expect(mine.at(-1)).toMatchObject({ status: 'done', completed: 3, running: 0 });

    const list = (await api(url, 'GET', '/api/batches')).body as BatchListItem[];
    expect(list.find((b) => b.batch.id === id)).toMatchObject({ progress: { completed: 3, total: 3 } });
    expect(list.every((b) => !('graph' in b.batch))).toBe(true);

    const csv = await fetch(`${url}/api/batches/${id}/csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="Grid_Navigator-${id}.csv"`);
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toMatch(/^episode,seed,run_id,status,steps,success,.*outputs,error$/);
    expect(lines).toHaveLength(5); // header + 3 rows + the final CRLF
    expect(lines[1]).toMatch(
      new RegExp(`^1,${view.episodes[0]!.seed},${id}_e1,done,8,${view.episodes[0]!.success},`),
    );

    const late = await api(url, 'POST', `/api/batches/${id}/cancel`, {});
    expect(late.body).toMatchObject({ ok: true, cancelled: false, status: 'done' });
  }, 120_000);

  it('cancel stops a running batch', async () => {
    const started = await api(url, 'POST', '/api/batches', {
      loop_definition: demoGraph(100000),
      episodes: 4,
      workers: 1,
    });
    const id = started.body.batch_id as string;
    await waitFor(
      async () => (await api(url, 'GET', `/api/runs/${id}_e1`)).status === 200,
      60_000,
      'episode 1 to start',
    );
    const res = await api(url, 'POST', `/api/batches/${id}/cancel`, {});
    expect(res.body).toMatchObject({ ok: true, cancelled: true });
    const view = await untilEnded(id);
    expect(view.batch.status).toBe('cancelled');
    expect(view.episodes.map((r) => r.status)).toEqual(['interrupted']);
  }, 120_000);
});
