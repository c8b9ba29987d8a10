// The ceiling on episode processes (issue 27, item 9), on a real `statewire serve --max-workers 2`:
// two batches that each ask for 64 workers (before: a process per episode each, 64 in all took
// 6.3 GB and health p95 58 s) run on at most 2 episode processes together — the second batch reads
// `queued` while the first holds both slots and starts as they free up — and `/api/health` keeps
// answering within 1 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchDetail } from '../domain/batch/progress.ts';
import { childPids, probeHealth } from './test/serverWatch.testutil.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from './test/serverProcess.testutil.ts';

const MAX = 2;
const EPISODES = 4;
let ws: ReturnType<typeof tempWorkspace>;
let server: ServerProcess;

beforeAll(async () => {
  ws = tempWorkspace();
  server = await startServer(ws.dir, ['--max-workers', String(MAX)]);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  ws?.cleanup();
});

const batch = async (id: string) => (await api(server.url, 'GET', `/api/batches/${id}`)).body as BatchDetail;

describe('episode processes of all batches together', () => {
  it(`never exceed --max-workers ${MAX}; the second batch queues behind the first`, async () => {
    const probe = await probeHealth(server.url);
    let most = 0;
    const counting = setInterval(() => {
      most = Math.max(most, childPids(server.proc.pid!, 'episodeChild').length);
    }, 50);
    try {
      const body = { loop_definition: demoGraph(40), episodes: EPISODES, workers: 64 };
      const first = await api(server.url, 'POST', '/api/batches', body);
      const second = await api(server.url, 'POST', '/api/batches', { ...body, seed: 7 });
      expect([first.status, second.status]).toEqual([202, 202]);
      const [a, b] = [first.body.batch_id as string, second.body.batch_id as string];
      // Both slots went to the first batch: the second waits for one.
      expect((await batch(b)).batch.status).toBe('queued');
      expect((await batch(b)).progress.running).toBe(0);
      const statuses = new Set<string>();
      await waitFor(
        async () => {
          const [da, db] = [await batch(a), await batch(b)];
          statuses.add(`${da.batch.status}/${db.batch.status}`);
          return da.batch.status === 'done' && db.batch.status === 'done';
        },
        180_000,
        'both batches to finish',
      );
      // The second started only once the first was winding down (its last episodes running).
      expect(statuses).toContain('running/queued');
      for (const id of [a, b]) {
        const d = await batch(id);
        expect(d.episodes.map((e) => e.status)).toEqual(Array(EPISODES).fill('done'));
        expect(new Set(d.episodes.map((e) => e.worker)).size).toBeLessThanOrEqual(MAX);
      }
    } finally {
      clearInterval(counting);
    }
    const health = await probe.stop();
    console.log(
      `2 batches × 64 workers asked, --max-workers ${MAX}: at most ${most} episode processes; health ${JSON.stringify(health)}`,
    );
    expect(most).toBeGreaterThanOrEqual(1);
    expect(most).toBeLessThanOrEqual(MAX);
    expect(health.failures).toBe(0);
    expect(health.maxMs).toBeLessThan(1000);
    await waitFor(
      () => childPids(server.proc.pid!, 'episodeChild').length === 0,
      15_000,
      'the children to exit',
    );
  }, 240_000);

  it('a queued batch can be cancelled before it starts: no process is forked for it', async () => {
    const body = { loop_definition: demoGraph(200), episodes: EPISODES, workers: 64 };
    const first = (await api(server.url, 'POST', '/api/batches', body)).body.batch_id as string;
    const second = (await api(server.url, 'POST', '/api/batches', body)).body.batch_id as string;
    expect((await batch(second)).batch.status).toBe('queued');
    const cancel = await api(server.url, 'POST', `/api/batches/${second}/cancel`, {});
    expect(cancel.body).toMatchObject({ ok: true, cancelled: true });
    await waitFor(async () => (await batch(second)).batch.status === 'cancelled', 10_000, 'the cancel');
    expect((await batch(second)).episodes).toEqual([]);
    await api(server.url, 'POST', `/api/batches/${first}/cancel`, {});
    await waitFor(async () => (await batch(first)).batch.status === 'cancelled', 30_000, 'the first to stop');
    await waitFor(
      () => childPids(server.proc.pid!, 'episodeChild').length === 0,
      15_000,
      'the children to exit',
    );
  }, 120_000);
});
