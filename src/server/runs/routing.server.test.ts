// Routing through a real server and SQLite log (workspace/graphs/router_demo.json): `route` events
// are logged and paged like any event, the state at a step carries the features, and a fork from a
// step starts from that step's features.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { injectServer } from '../test/injectServer.testutil.ts';
import { tempWorkspace } from '../test/serverProcess.testutil.ts';

const ws = tempWorkspace();
const { req, close } = injectServer(ws.dir);
afterAll(async () => {
  await close();
  ws.cleanup();
});

const DEMO = new URL('../../../workspace/graphs/router_demo.json', import.meta.url);
const stepOnce = () => req('/api/navigate/run/step', {});

describe('routing on the server', () => {
  it('logs route events, keeps features in the state at a step, and forks with them', async () => {
    const started = await req('/api/navigate/run', {
      loop_definition: JSON.parse(readFileSync(DEMO, 'utf8')) as unknown,
      step_delay_ms: 0,
      paused: true,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const id = started.body.execution_id as string;
    for (let i = 0; i < 6; i++) expect((await stepOnce()).status).toBe(200);

    const page = await req(`/api/runs/${id}/events?type=route&limit=100`);
    const routes = (page.body.events as Array<{ data: { node_id: string; edge_id: string; step: number } }>)
      .map((e) => e.data)
      .filter((d) => d.node_id === 'env');
    expect(routes.map((d) => `${d.step}:${d.edge_id}`)).toEqual([
      '1:e_explore',
      '2:e_explore',
      '3:e_explore',
      '4:e_explore',
      '5:e_exploit',
      '6:e_exploit',
    ]);
    expect((await req(`/api/runs/${id}/state?step=4`)).body.features).toEqual({ phase: 'explore' });
    expect((await req(`/api/runs/${id}/state?step=5`)).body.features).toEqual({ phase: 'exploit' });

    const forked = await req(`/api/runs/${id}/fork`, { step: 5, paused: true, step_delay_ms: 0 });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const fork = forked.body.run_id as string;
    expect((await stepOnce()).status).toBe(200);
    const forkRoutes = (await req(`/api/runs/${fork}/events?type=route&limit=100`)).body.events as Array<{
      data: { node_id: string; edge_id: string; before: Record<string, unknown> };
    }>;
    expect(forkRoutes.find((e) => e.data.node_id === 'env')?.data).toMatchObject({
      edge_id: 'e_exploit',
      before: { phase: 'exploit' },
    });
    await req('/api/navigate/run/stop', {});
  });
});
