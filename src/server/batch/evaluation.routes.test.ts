// The evaluation routes on an in-process server: two batches started over REST (real episode
// processes), then compare (JSON, CSV, summary CSV), query (JSON, CSV), first-diff, and the errors.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StatewireServer } from '../app.ts';
import { tempWorkspace, waitFor } from '../test/serverProcess.testutil.ts';
import { BASELINE_SETS, CANDIDATE_SETS, DEMO_FILE, DEMO_SEED } from './evaluation.testutil.ts';

let ws: ReturnType<typeof tempWorkspace>;
let server: StatewireServer;
let a: string;
let b: string;

async function req(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await server.app.inject({
    method,
    url,
    ...(payload ? { payload, headers: { 'content-type': 'application/json' } } : {}),
  });
  const type = String(res.headers['content-type'] ?? '');
  return {
    status: res.statusCode,
    type,
    disposition: String(res.headers['content-disposition'] ?? ''),
    body: type.startsWith('application/json') ? res.json() : res.body,
  };
}

async function batch(sets: string[], episodes: number): Promise<string> {
  const started = await req('POST', '/api/batches', {
    loop_definition: JSON.parse(readFileSync(DEMO_FILE, 'utf8')),
    episodes,
    workers: 2,
    seed: DEMO_SEED,
    set: sets,
  });
  expect(started.status).toBe(202);
  const id = started.body.batch_id as string;
  await waitFor(
    async () => ((await req('GET', `/api/batches/${id}`)).body.batch.status === 'done' ? true : undefined),
    120_000,
    `batch ${id} done`,
  );
  return id;
}

beforeAll(async () => {
  ws = tempWorkspace();
  server = await createServer({ workspace: ws.dir, distDir: `${ws.dir}/no-dist` });
  a = await batch(BASELINE_SETS, 6);
  b = await batch(CANDIDATE_SETS, 7);
}, 240_000);
afterAll(async () => {
  await server?.close();
  ws.cleanup();
});

describe('evaluation routes', () => {
  it('GET /api/batches lists each batch with its graph version', async () => {
    const list = (await req('GET', '/api/batches')).body as {
      batch: { id: string; graph_version: string };
    }[];
    const versions = new Map(list.map((i) => [i.batch.id, i.batch.graph_version]));
    expect(versions.get(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(versions.get(b)).not.toBe(versions.get(a));
    const runs = (await req('GET', '/api/runs')).body as { id: string; graph_version: string }[];
    expect(runs.find((r) => r.id === `${a}_e1`)?.graph_version).toBe(versions.get(a));
  });

  it('GET /api/batches/compare answers the comparison, its pair table and its summary as CSV', async () => {
    const json = await req('GET', `/api/batches/compare?a=${a}&b=${b}&metric=distance&seed=3&resamples=500`);
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ metric: 'distance', bootstrap: { seed: 3, resamples: 500 } });
    expect(json.body.pairs).toHaveLength(6);
    expect(json.body.unpaired_b.map((r: { episode: number }) => r.episode)).toEqual([7]);
    const csv = await req('GET', `/api/batches/compare?a=${a}&b=${b}&format=csv`);
    expect(csv.type).toMatch(/^text\/csv/);
    expect(csv.disposition).toBe(`attachment; filename="compare-${a}-${b}.csv"`);
    expect((csv.body as string).split('\r\n')[0]).toMatch(/^seed,outcome,episode_a,episode_b,/);
    expect((csv.body as string).trim().split('\r\n')).toHaveLength(1 + 6 + 1);
    const summary = await req('GET', `/api/batches/compare?a=${a}&b=${b}&format=summary-csv`);
    expect((summary.body as string).split('\r\n')[0]).toBe(
      'metric,n,mean_a,mean_b,mean_diff,ci_lo,ci_hi,wins,losses,ties',
    );
  });

  it('GET /api/batches/{id}/query answers hits as JSON or CSV', async () => {
    const q = encodeURIComponent('graph_state.step_count >= 7');
    const json = await req('GET', `/api/batches/${a}/query?q=${q}`);
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ batch_id: a, query: 'graph_state.step_count >= 7', episodes: 6 });
    // every episode runs 8 steps: steps 7 and 8 of each
    expect(json.body.hits.map((h: { step: number }) => h.step)).toEqual(Array(6).fill([7, 8]).flat());
    const csv = await req('GET', `/api/batches/${a}/query?q=${q}&format=csv`);
    expect((csv.body as string).trim().split('\r\n')).toHaveLength(1 + 12);
  });

  it('GET /api/batches/compare/first-diff names the step where two runs part', async () => {
    const r = await req('GET', `/api/batches/compare/first-diff?a=${a}_e1&b=${b}_e1`);
    expect(r.status).toBe(200);
    expect(r.body.first).toMatchObject({ reason: 'state' });
    expect(r.body.first.step).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad input with a clear error', async () => {
    const cases: [string, number, string][] = [
      [`/api/batches/compare?a=${a}`, 400, 'invalid-query'],
      [`/api/batches/compare?a=${a}&b=${b}&metric=nope`, 400, 'unknown-metric'],
      [`/api/batches/compare?a=${a}&b=batch_nope`, 404, 'no-batch'],
      [`/api/batches/compare?a=${a}&b=${b}&resamples=5`, 400, 'invalid-query'],
      [`/api/batches/${a}/query?q=${encodeURIComponent('memory.nope > 1')}`, 400, 'unknown-slot'],
      [`/api/batches/${a}/query?q=nonsense`, 400, 'invalid-condition'],
      [`/api/batches/${a}/query`, 400, 'invalid-query'],
      [`/api/batches/compare/first-diff?a=x&b=y`, 404, 'not-found'],
    ];
    for (const [url, status, code] of cases) {
      const r = await req('GET', url);
      expect([url, r.status, r.body.error?.code]).toEqual([url, status, code]);
      expect(r.body.error.message.length).toBeGreaterThan(10);
    }
    const missing = await req('GET', `/api/batches/compare?a=${a}`);
    expect(missing.body.error).toMatchObject({ path: '$.query.b' });
  });
});
