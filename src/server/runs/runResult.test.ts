// The server's run log ends with one `run_result` when a run ends — completed, stopped, error — with
// the graphOut values by portName and every container's final values (real server, real SQLite).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RunResultDataSchema,
  type EventEnvelope,
  type RunResultData,
} from '../../domain/protocol/protocol.ts';
import { createServer, type StatewireServer } from '../app.ts';
import { tempWorkspace, waitFor } from '../test/serverProcess.testutil.ts';

/** Loop of 4: counts into m.n, carries the step; the final side feeds graphOut `last`. */
const GRAPH = {
  name: 'results',
  step_budget: 4,
  eval_graph: false,
  nodes: [
    { id: 'in', type: 'iterIn', config: { version: 3, pairedWith: 'out', initPorts: [] } },
    { id: 'w', type: 'stateWrite', config: { container: 'm', state: 'n', value: 1 } },
    { id: 'k', type: 'stateWrite', config: { container: 'm', state: 'seen' } },
    { id: 'out', type: 'iterOut', config: { pairedWith: 'in', ports: [{ name: 'v', persist: true }] } },
    { id: 'last', type: 'graphOut', config: { portName: 'last' } },
  ],
  edges: [
    { id: 'e1', source: 'in', target: 'w', sourceHandle: 'step', targetHandle: 'value' },
    { id: 'e2', source: 'in', target: 'k', sourceHandle: 'step', targetHandle: 'value' },
    { id: 'e3', source: 'k', target: 'out', sourceHandle: 'value', targetHandle: 'v' },
    { id: 'e4', source: 'out', target: 'last', sourceHandle: 'final_v', targetHandle: 'value' },
  ],
  containers: [
    {
      id: 'm',
      states: { n: { type: 'counter' }, seen: { type: 'accumulator', lifetime: 'run' } },
    },
  ],
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

async function call(method: 'GET' | 'POST', url: string, payload?: object) {
  const headers = method === 'POST' ? { 'content-type': 'application/json' } : {};
  const res = await server.app.inject({
    method,
    url,
    payload: payload ?? (method === 'POST' ? {} : undefined),
    headers,
  });
  return { status: res.statusCode, body: res.json() };
}

async function start(graph: object, extra: object = {}): Promise<string> {
  const r = await call('POST', '/api/navigate/run', { loop_definition: graph, step_delay_ms: 0, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.execution_id as string;
}

const ended = (id: string) =>
  waitFor(
    async () => ['done', 'error', 'stopped'].includes((await call('GET', `/api/runs/${id}`)).body.status),
    15_000,
    `${id} ended`,
  );

async function log(id: string): Promise<EventEnvelope[]> {
  const { body } = await call('GET', `/api/runs/${id}/events?limit=5000`);
  return body.events as EventEnvelope[];
}

/** The log's last event, checked to be the only run_result and to match the protocol schema. */
async function lastResult(id: string): Promise<RunResultData> {
  const events = await log(id);
  expect(events.at(-1)?.type).toBe('run_result');
  expect(events.filter((e) => e.type === 'run_result')).toHaveLength(1);
  return RunResultDataSchema.parse(events.at(-1)!.data);
}

describe('run_result in the server log', () => {
  it('a completed run: outputs by portName and final container values (run-lifetime before its clear)', async () => {
    const id = await start(GRAPH);
    await ended(id);
    expect(await lastResult(id)).toEqual({
      status: 'done',
      steps: 4,
      outputs: { last: 3 },
      containers: { m: { n: 4, seen: [0, 1, 2, 3] } },
      keyed: {},
    });
  });

  it('a run stopped while paused ends with run_result `stopped` at its step', async () => {
    const id = await start(GRAPH, { paused: true });
    expect((await call('POST', '/api/navigate/run/step')).status).toBe(200);
    expect((await call('POST', '/api/navigate/run/stop')).status).toBe(200);
    await ended(id);
    expect(await lastResult(id)).toMatchObject({
      status: 'stopped',
      steps: 1,
      outputs: { last: null },
      containers: { m: { n: 1, seen: [0] } },
    });
  });

  it('an error run ends with run_result `error` and the reason', async () => {
    const bad = {
      ...GRAPH,
      nodes: GRAPH.nodes.map((n) => (n.id === 'k' ? { ...n, config: { container: 'm', state: 'typo' } } : n)),
    };
    const id = await start(bad);
    await ended(id);
    const r = await lastResult(id);
    expect(r.status).toBe('error');
    expect(r.error).toContain("container 'm': write of undeclared slot 'typo'");
  });
});
