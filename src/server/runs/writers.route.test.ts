// GET /api/runs/{id}/writers?step=N against a real server and SQLite log: the last writer per slot
// up to a step, what a Restore rewound forgotten, a fork's early writers taken from its parent.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlotWriter } from '../../domain/debug/stateDiff.ts';
import { createServer, type StatewireServer } from '../app.ts';
import { tempWorkspace } from '../test/serverProcess.testutil.ts';

/** A loop whose node `w` counts into m.n each step and `k` writes the step into m.last. */
const LOOP = {
  name: 'writers',
  step_budget: 10,
  eval_graph: false,
  nodes: [
    { id: 'in', type: 'iterIn', config: { version: 3, pairedWith: 'out', initPorts: [] } },
    { id: 'w', type: 'stateWrite', config: { container: 'm', state: 'n', value: 1 } },
    { id: 'k', type: 'stateWrite', config: { container: 'm', state: 'last' } },
    { id: 'out', type: 'iterOut', config: { pairedWith: 'in', ports: [{ name: 'v', persist: true }] } },
  ],
  edges: [
    { id: 'e1', source: 'in', target: 'w', sourceHandle: 'step', targetHandle: 'value' },
    { id: 'e2', source: 'in', target: 'k', sourceHandle: 'step', targetHandle: 'value' },
    { id: 'e3', source: 'k', target: 'out', sourceHandle: 'value', targetHandle: 'v' },
  ],
  containers: [{ id: 'm', states: { n: { type: 'counter' }, last: { type: 'lastWrite' } } }],
  access_grants: [
    { id: 'g1', node_id: 'w', container_id: 'm' },
    { id: 'g2', node_id: 'k', container_id: 'm' },
  ],
};

let server: StatewireServer;
let ws: ReturnType<typeof tempWorkspace>;
beforeAll(async () => {
  ws = tempWorkspace();
  server = await createServer({ workspace: ws.dir, distDir: join(ws.dir, 'no-dist') });
});
afterAll(async () => {
  await server.close();
  ws.cleanup();
});

const req = async (url: string, payload?: object) => {
  const res = await server.app.inject(
    payload === undefined
      ? { method: 'GET', url }
      : { method: 'POST', url, payload, headers: { 'content-type': 'application/json' } },
  );
  return { status: res.statusCode, body: res.json() };
};
const writers = async (id: string, step: number) =>
  Object.fromEntries(
    ((await req(`/api/runs/${id}/writers?step=${step}`)).body.writers as SlotWriter[]).map((w) => [
      w.slot,
      `${w.node_id}@${w.step}${w.run_id === id ? '' : ' (parent)'}`,
    ]),
  );
const stepOnce = () => req('/api/navigate/run/step', {});

describe('GET /api/runs/{id}/writers', () => {
  it('names the last writer per slot up to a step, across restores and forks', async () => {
    const started = await req('/api/navigate/run', { loop_definition: LOOP, step_delay_ms: 0, paused: true });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const id = started.body.execution_id as string;
    for (let i = 0; i < 3; i++) expect((await stepOnce()).status).toBe(200);
    expect(await writers(id, 2)).toEqual({ n: 'w@2', last: 'k@2' });
    expect(await writers(id, 3)).toEqual({ n: 'w@3', last: 'k@3' });

    const old2 = (await req(`/api/runs/${id}/writers?step=2`)).body.writers as SlotWriter[];
    expect((await req(`/api/runs/${id}/restore`, { step: 1 })).status).toBe(200);
    expect((await stepOnce()).status).toBe(200);
    // Restored to step 1 and ran step 2 again: its writers are the new step 2's events.
    const again = (await req(`/api/runs/${id}/writers?step=2`)).body.writers as SlotWriter[];
    expect(again.map((w) => w.step)).toEqual([2, 2]);
    expect(Math.min(...again.map((w) => w.seq))).toBeGreaterThan(Math.max(...old2.map((w) => w.seq)));

    // A fork from step 2: its own step 3, its parent's steps before.
    const forked = await req(`/api/runs/${id}/fork`, { step: 2, paused: true, step_delay_ms: 0 });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const fork = forked.body.run_id as string;
    expect(await writers(fork, 2)).toEqual({ n: 'w@2 (parent)', last: 'k@2 (parent)' });
    expect((await stepOnce()).status).toBe(200);
    expect(await writers(fork, 3)).toEqual({ n: 'w@3', last: 'k@3' });
    await req('/api/navigate/run/stop', {});
  });

  it('refuses an unknown run and a missing step', async () => {
    expect((await req('/api/runs/nope/writers?step=1')).status).toBe(404);
    const list = (await req('/api/runs')).body as Array<{ id: string }>;
    expect((await req(`/api/runs/${list[0]!.id}/writers`)).status).toBe(400);
  });
});
