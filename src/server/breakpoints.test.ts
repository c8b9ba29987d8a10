// Breakpoints through a REAL server: a data breakpoint on the demo graph pauses the run with the
// writer named, the paused state is visible in the log and the status; Resume, Step and Stop go on
// from it; a restore inside a step is refused with a reason; breakpoints can be replaced mid-run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from './test/serverProcess.testutil.ts';

let server: ServerProcess;
let ws: ReturnType<typeof tempWorkspace>;
beforeAll(async () => {
  ws = tempWorkspace();
  server = await startServer(ws.dir);
});
afterAll(async () => {
  await server?.stop();
  ws?.cleanup();
});

interface Ev {
  type: string;
  seq: number;
  data: Record<string, unknown>;
}
type SlotsOf = { states: Record<string, { value?: unknown }> };
const status = async () => (await api(server.url, 'GET', '/api/navigate/run/status')).body;
const events = async (id: string): Promise<Ev[]> =>
  (await api(server.url, 'GET', `/api/runs/${id}/events?limit=5000`)).body.events;

describe('breakpoints on a real server', () => {
  it('pauses when graph_state.step_count reaches 3, names the writer; step, resume and stop go on', async () => {
    const start = await api(server.url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(50),
      step_delay_ms: 0,
      breakpoints: [
        { id: 'bp1', kind: 'match', container: 'graph_state', slot: 'step_count', op: '>=', value: 3 },
      ],
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const id = start.body.execution_id as string;
    const paused = await waitFor(async () => {
      const s = await status();
      return s.status === 'paused' ? s : undefined;
    });
    const log = await events(id);
    const hit = log.find((e) => e.type === 'breakpoint_hit')!;
    expect(hit.data).toMatchObject({
      breakpoint_id: 'bp1',
      kind: 'match',
      container: 'graph_state',
      slot: 'step_count',
      value: 3,
      description: 'graph_state.step_count >= 3',
    });
    expect(typeof hit.data.node_id).toBe('string');
    // The write that hit is in the log before the hit, and a paused status right after it.
    const write = log.filter((e) => e.seq < hit.seq && e.type === 'state_written').at(-1)!;
    expect(write.data).toMatchObject({ slot: 'step_count', after: 3, node_id: hit.data.node_id });
    expect(log.find((e) => e.seq > hit.seq && e.type === 'nav_status')?.data.status).toBe('paused');

    // step_count is written mid-step in the demo: the run is paused inside that step.
    expect(paused.breakpoint).toMatchObject({ breakpoint_id: 'bp1' });
    // The state there travels with the hit (full values in the log) and is the step's state over
    // REST too: the write that hit is in it, though the step has no snapshot yet.
    expect(paused.step).toBe(2);
    const inStep = hit.data.state as { step: number; containers: Record<string, SlotsOf> };
    expect(inStep.step).toBe(3);
    expect(inStep.containers.graph_state!.states.step_count!.value).toBe(3);
    const rest = await api(server.url, 'GET', `/api/runs/${id}/state?step=3`);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.containers.graph_state.states.step_count.value).toBe(3);
    expect((await api(server.url, 'GET', `/api/runs/${id}/state?step=4`)).status).toBe(404);
    const restore = await api(server.url, 'POST', `/api/navigate/run/restore/1`, {});
    expect(restore.status).toBe(409);
    expect(restore.body.error.code).toBe('at-breakpoint');

    // Replace the breakpoints: from now on only step_count >= 6 pauses.
    const put = await api(server.url, 'PUT', '/api/navigate/run/breakpoints', {
      breakpoints: [
        { id: 'bp2', kind: 'match', container: 'graph_state', slot: 'step_count', op: '>=', value: 6 },
      ],
    });
    expect(put.body).toMatchObject({ ok: true, count: 1 });
    const bad = await api(server.url, 'PUT', '/api/navigate/run/breakpoints', {
      breakpoints: [{ id: 'x', kind: 'match', container: 'g', slot: 's', op: '=~', value: 1 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.path).toMatch(/breakpoints\[0\]\.op|breakpoints\.0\.op|\$\.breakpoints/);

    // Step: finishes the step in flight (or one more step) and stays paused.
    const stepped = await api(server.url, 'POST', '/api/navigate/run/step', {});
    expect(stepped.status, JSON.stringify(stepped.body)).toBe(200);
    expect(stepped.body.status).toBe('paused');
    expect((await status()).breakpoint).toBeUndefined();

    // Resume: runs on to the next hit (step_count 6).
    expect((await api(server.url, 'POST', '/api/navigate/run/resume', {})).status).toBe(200);
    await waitFor(async () => {
      const evs = await events(id);
      return evs.some((e) => e.type === 'breakpoint_hit' && e.data.breakpoint_id === 'bp2');
    });
    await waitFor(async () => (await status()).status === 'paused');

    // Stop at a breakpoint ends the run cleanly.
    expect((await api(server.url, 'POST', '/api/navigate/run/stop', {})).status).toBe(200);
    const row = await waitFor(async () => {
      const r = (await api(server.url, 'GET', `/api/runs/${id}`)).body;
      return r.status === 'stopped' ? r : undefined;
    });
    const all = await events(id);
    const seqs = all.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1)); // no hole, no duplicate
    expect(all.at(-1)!.type).toBe('run_result');
    expect(row.steps).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it('breakpoints are kept as the graph’s view settings, apart from its file', async () => {
    const id = 'folder/my graph';
    const path = `/api/views/${encodeURIComponent(id)}`;
    expect((await api(server.url, 'GET', path)).body).toEqual({ breakpoints: [] });
    const bps = [{ id: 'b', enabled: false, kind: 'clear', container: 'm', slot: 's' }];
    expect((await api(server.url, 'PUT', path, { breakpoints: bps })).status).toBe(200);
    expect((await api(server.url, 'GET', path)).body).toEqual({ breakpoints: bps });
    const bad = await api(server.url, 'PUT', path, { breakpoints: [{ id: 'x', kind: 'nope' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/kind/);
    expect((await api(server.url, 'GET', path)).body).toEqual({ breakpoints: bps }); // unchanged
    const traversal = await api(server.url, 'GET', `/api/views/${encodeURIComponent('../../etc/passwd')}`);
    expect(traversal.body).toEqual({ breakpoints: [] }); // one encoded file name, inside the views folder
  });
});
