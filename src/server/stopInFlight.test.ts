// "Stop means stop" and numbers that lie (issue 27, item 11), on a real `statewire serve`:
// - a run whose node waits on a slow node service (a real HTTP service in this process, answering
//   after 6 s) stops at once when asked: the stop answers promptly (before: it waited for the
//   call's timeout, 40 s seen), the service sees its request aborted, the run ends `stopped` with no
//   error nor output of the cut-short node, and nothing is logged when the late answer would come;
// - `step_budget: -5` (which ran one step) is refused at the start with its JSON path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../domain/protocol/protocol.ts';
import { fullLog } from './test/liveClient.testutil.ts';
import { SLOW_GRAPH, startSlowService, type SlowService } from './test/slowService.testutil.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from './test/serverProcess.testutil.ts';

const ANSWER_AFTER_MS = 6000;
let ws: ReturnType<typeof tempWorkspace>;
let server: ServerProcess;
let service: SlowService;

beforeAll(async () => {
  ws = tempWorkspace();
  service = await startSlowService(ANSWER_AFTER_MS);
  server = await startServer(ws.dir, ['--service', `slowset=${service.url}`]);
  await waitFor(
    async () => (await api(server.url, 'GET', '/api/services')).body.services[0]?.state === 'up',
    30_000,
    'the slow service',
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
  service?.close();
  ws?.cleanup();
});

describe('stop while a node service call is in flight', () => {
  it('answers at once, aborts the call, ends `stopped`, and drops the late answer', async () => {
    const start = await api(server.url, 'POST', '/api/navigate/run', {
      loop_definition: SLOW_GRAPH,
      step_delay_ms: 0,
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const runId = start.body.execution_id as string;
    await waitFor(() => service.calls.length === 1, 10_000, 'the service call');

    const t0 = Date.now();
    const stop = await api(server.url, 'POST', '/api/navigate/run/stop');
    const stopMs = Date.now() - t0;
    expect(stop.status).toBe(200);
    console.log(`stop during a service call answering after ${ANSWER_AFTER_MS} ms: answered in ${stopMs} ms`);
    expect(stopMs).toBeLessThan(2000);
    expect((await api(server.url, 'GET', '/api/navigate/run/status')).body).toMatchObject({
      execution_id: runId,
      status: 'stopped',
    });
    await waitFor(() => service.calls[0]!.aborted, 5000, 'the service to see its caller go away');

    const logged = await fullLog(server.url, runId);
    // Past the moment the answer would have come: nothing more is logged.
    await new Promise((r) => setTimeout(r, ANSWER_AFTER_MS - (Date.now() - service.calls[0]!.at) + 500));
    const after = await fullLog(server.url, runId);
    expect(after).toEqual(logged);
    const ofWait = (e: EventEnvelope) => (e.data as { node_id?: string }).node_id === 'wait';
    expect(after.filter((e) => e.type === 'error_event')).toEqual([]);
    expect(after.filter((e) => e.type === 'exec_log' && ofWait(e))).toEqual([]);
    const statuses = after
      .filter((e) => e.type === 'node_status' && ofWait(e))
      .map((e) => (e.data as { status: string }).status);
    expect(statuses).toEqual(['idle', 'queued', 'running', 'queued']);
    expect(after.at(-1)).toMatchObject({ type: 'run_result', data: { status: 'stopped' } });
    expect((await api(server.url, 'GET', `/api/runs/${runId}`)).body).toMatchObject({ status: 'stopped' });
  }, 60_000);
});

describe('numbers that would lie', () => {
  it('refuses step_budget -5 (it ran one step) and an iterIn budget of 0, naming the JSON path', async () => {
    const neg = await api(server.url, 'POST', '/api/navigate/run', { loop_definition: demoGraph(-5) });
    expect(neg.status).toBe(400);
    expect(neg.body.error).toMatchObject({ code: 'invalid-graph', path: '$.loop_definition.step_budget' });
    expect(neg.body.error.message).toContain('step_budget must be an integer of at least 1');
    const g = demoGraph(5);
    const loop = g.nodes.findIndex((n) => n.type === 'iterIn');
    g.nodes[loop]!.config = { ...g.nodes[loop]!.config, step_budget: 0 };
    const zero = await api(server.url, 'POST', '/api/navigate/run', { loop_definition: g });
    expect(zero.status).toBe(400);
    expect(zero.body.error.path).toBe(`$.loop_definition.nodes[${loop}].config.step_budget`);
    const batch = await api(server.url, 'POST', '/api/batches', {
      loop_definition: demoGraph(0),
      episodes: 1,
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error.path).toBe('$.loop_definition.step_budget');
  });
});
