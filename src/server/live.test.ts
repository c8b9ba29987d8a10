// Integration: a REAL `statewire serve` process, real socket.io clients, the demo graph. Run control
// (pause/step/restore/resume/stop/queue), fork, replay after reconnect compared with the log, two
// clients at once, and malformed REST bodies / socket messages.
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../domain/protocol/protocol.ts';
import {
  assertMatchesLog,
  connectClient,
  fullLog,
  waitStatus,
  type RecordingClient,
} from './test/liveClient.testutil.ts';
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
let base: string;
const clients: RecordingClient[] = [];

beforeAll(async () => {
  ws = tempWorkspace();
  server = await startServer(ws.dir);
  base = server.url;
});
afterEach((ctx) => {
  // On failure, show what the server process said (its stderr is otherwise invisible).
  if (ctx.task.result?.state === 'fail') console.error(`--- server output ---\n${server.output()}`);
});
afterAll(async () => {
  for (const c of clients) c.close();
  const code = await server?.stop();
  ws?.cleanup();
  expect(code).toBe(0);
});

async function client(): Promise<RecordingClient> {
  const c = await connectClient(base);
  clients.push(c);
  return c;
}

async function startRun(body: Record<string, unknown>, query = ''): Promise<string> {
  const res = await api(base, 'POST', `/api/navigate/run${query}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.execution_id as string;
}

const ofRun = (c: RecordingClient, runId: string) => c.events.filter((e) => e.runId === runId);

type Containers = Record<string, { states: Record<string, { lifetime: string }> }>;
/** Step-lifetime slots differ between a nav_step (before step_end) and a checkpoint (after it). */
function withoutStepSlots(containers: Containers): Containers {
  const out: Containers = {};
  for (const [id, c] of Object.entries(containers))
    out[id] = {
      ...c,
      states: Object.fromEntries(Object.entries(c.states).filter(([, s]) => s.lifetime !== 'step')),
    };
  return out;
}

describe('live run over socket.io', () => {
  it('serves the built app and the demo graph', async () => {
    const page = await api(base, 'GET', '/');
    expect(page.status).toBe(200);
    expect(String(page.body)).toMatch(/<html/i);
    const graphs = await api(base, 'GET', '/api/graphs');
    expect(graphs.body.map((g: { _id: string }) => g._id)).toContain('grid_navigator');
  });

  it('tells every client when graph files change on disk (graphs_changed)', async () => {
    const c = await client();
    let notices = 0;
    c.socket.on('graphs_changed', () => notices++);
    writeFileSync(join(ws.dir, 'graphs', 'dropped_in.json'), JSON.stringify({ name: 'dropped in' }));
    await waitFor(() => notices > 0, 10_000, 'graphs_changed');
    expect((await api(base, 'GET', '/api/graphs/dropped_in')).body.name).toBe('dropped in');
  });

  it('streams a whole run to two clients; each stream matches the log (no gaps, no duplicates)', async () => {
    const a = await client();
    const b = await client();
    expect(await a.subscribe({})).toMatchObject({ ok: true });
    const runId = await startRun({ loop_definition: demoGraph(40), step_delay_ms: 0 });
    expect(await b.subscribe({ runId, afterSeq: 0, fullValues: true })).toMatchObject({ ok: true, runId });
    await waitStatus(base, runId, ['done']);
    for (const c of [a, b])
      await waitFor(() => ofRun(c, runId).some((e) => e.type === 'nav_complete'), 10_000, 'nav_complete');
    const log = await fullLog(base, runId);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    expect(log.filter((e) => e.type === 'nav_step')).toHaveLength(40);
    assertMatchesLog(ofRun(a, runId), log);
    assertMatchesLog(ofRun(b, runId), log);
    // previews by default, full values on request
    const navA = ofRun(a, runId).find((e) => e.type === 'nav_step')?.data as {
      containers: Record<string, { states: Record<string, Record<string, unknown>> }>;
    };
    const navB = ofRun(b, runId).find((e) => e.type === 'nav_step')?.data as typeof navA;
    expect(navA.containers.memory?.states.trail).toMatchObject({
      lifetime: 'episode',
      size: expect.any(Number),
    });
    expect(navA.containers.memory?.states.trail).not.toHaveProperty('value');
    expect(Array.isArray(navB.containers.memory?.states.trail?.value)).toBe(true);
  });

  it('a client that reconnects with afterSeq gets exactly the rest of the log', async () => {
    const runId = await startRun({ loop_definition: demoGraph(60), step_delay_ms: 5 });
    const first = await client();
    await first.subscribe({ runId });
    await waitFor(() => first.events.filter((e) => e.runId === runId).length >= 150, 15_000, '150 events');
    first.close();
    const seen = ofRun(first, runId);
    const lastSeq = seen[seen.length - 1]?.seq ?? 0;
    const second = await client();
    await second.subscribe({ runId, afterSeq: lastSeq });
    await waitStatus(base, runId, ['done']);
    await waitFor(() => ofRun(second, runId).some((e) => e.type === 'nav_complete'), 10_000, 'nav_complete');
    const log = await fullLog(base, runId);
    const combined: EventEnvelope[] = [...seen, ...ofRun(second, runId)];
    assertMatchesLog(combined, log);
    expect(ofRun(second, runId)[0]?.seq).toBeGreaterThan(lastSeq);
  });

  it('pause, step, restore (broadcast `restored`), resume to the end', async () => {
    const watcher = await client();
    const runId = await startRun({ loop_definition: demoGraph(30), step_delay_ms: 40 });
    await watcher.subscribe({ runId });
    await waitFor(
      async () => (await api(base, 'GET', '/api/navigate/run/status')).body.step >= 4,
      15_000,
      'step 4',
    );
    expect((await api(base, 'POST', '/api/navigate/run/restore/2', {})).status).toBe(400); // still running
    expect((await api(base, 'POST', '/api/navigate/run/pause', {})).body).toEqual({ ok: true });
    const paused = await waitFor(async () => {
      const s = (await api(base, 'GET', '/api/navigate/run/status')).body;
      return s.status === 'paused' ? s : undefined;
    });
    await new Promise((r) => setTimeout(r, 120));
    const stillAt = (await api(base, 'GET', '/api/navigate/run/status')).body.step;
    expect(stillAt).toBe(paused.step); // paused really stops stepping

    const stepped = await api(base, 'POST', '/api/navigate/run/step');
    expect(stepped.body).toMatchObject({ ok: true, step: paused.step + 1, status: 'paused' });
    const cps = (await api(base, 'GET', '/api/navigate/run/checkpoints')).body.steps as number[];
    expect(cps).toEqual(expect.arrayContaining([1, 2, paused.step + 1]));

    const restored = await api(base, 'POST', '/api/navigate/run/restore/2');
    expect(restored.body).toEqual({ ok: true, restored_to: 2 });
    expect((await api(base, 'GET', '/api/navigate/run/status')).body).toMatchObject({
      status: 'paused',
      step: 2,
    });
    const ev = await waitFor(
      () => ofRun(watcher, runId).find((e) => e.type === 'restored'),
      5000,
      'restored event',
    );
    const state2 = (await api(base, 'GET', `/api/runs/${runId}/state?step=2`)).body;
    expect((ev.data as { restored_to: number }).restored_to).toBe(2);
    expect(withoutStepSlots((ev.data as { containers: Containers }).containers)).toEqual(
      withoutStepSlots(state2.containers),
    );
    expect(state2.containers.graph_state.states.last_obs.value).toMatch(/t=1/); // nav_step view: what step 2 wrote
    expect(state2.containers.graph_state.states.step_count.value).toBe(2);

    expect((await api(base, 'POST', '/api/navigate/run/resume', {})).body).toMatchObject({
      ok: true,
      status: 'running',
    });
    const done = await waitStatus(base, runId, ['done']);
    expect(done.steps).toBe(30);
    // the re-run steps replaced the old ones: step 3's state is the one computed after the restore
    const log = await fullLog(base, runId);
    const restoredSeq = log.find((e) => e.type === 'restored')?.seq ?? 0;
    const nav3 = log.filter((e) => e.type === 'nav_step' && (e.data as { step: number }).step === 3);
    expect(nav3).toHaveLength(2);
    expect(nav3[1]?.seq).toBeGreaterThan(restoredSeq);
    const state3 = (await api(base, 'GET', `/api/runs/${runId}/state?step=3`)).body;
    expect(state3.containers).toEqual((nav3[1]?.data as { containers: unknown }).containers);
    // deterministic graph: re-running 3.. from the restored step reproduces the same state
    expect(state3.containers).toEqual((nav3[0]?.data as { containers: unknown }).containers);
  });

  it('fork from a step: same state, runs on; a graph whose containers differ is refused with 409', async () => {
    const parent = await startRun({ loop_definition: demoGraph(12), step_delay_ms: 0 });
    await waitStatus(base, parent, ['done']);
    const fork = await api(base, 'POST', `/api/runs/${parent}/fork`, { step: 5, paused: true });
    expect(fork.status).toBe(201);
    const child = fork.body.run_id as string;
    expect((await api(base, 'GET', `/api/runs/${child}`)).body).toMatchObject({
      parent_run_id: parent,
      parent_step: 5,
      status: 'paused',
    });
    const parent5 = (await api(base, 'GET', `/api/runs/${parent}/state?step=5`)).body;
    expect((await api(base, 'GET', `/api/runs/${child}/state?step=5`)).body).toEqual(parent5);
    expect((await api(base, 'POST', '/api/navigate/run/step')).body).toMatchObject({ step: 6 });
    expect((await api(base, 'POST', '/api/navigate/run/resume')).status).toBe(200);
    await waitStatus(base, child, ['done']);
    expect((await api(base, 'GET', `/api/runs/${child}/state?step=12`)).body).toEqual(
      (await api(base, 'GET', `/api/runs/${parent}/state?step=12`)).body,
    );
    expect((await api(base, 'GET', `/api/runs/${child}/graph`)).body.name).toBe('Grid Navigator');

    const changed = demoGraph(12);
    changed.containers = changed.containers.filter((c) => c.id !== 'memory');
    const refused = await api(base, 'POST', `/api/runs/${parent}/fork`, { step: 5, graph: changed });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('containers-differ');
    expect(refused.body.error.message).toContain("container 'memory'");
    const relabeled = demoGraph(12);
    relabeled.nodes[0]!.label = 'Renamed';
    const ok = await api(base, 'POST', `/api/runs/${parent}/fork`, {
      step: 5,
      graph: relabeled,
      paused: true,
    });
    expect(ok.status).toBe(201);
    expect((await api(base, 'GET', `/api/runs/${ok.body.run_id}/graph`)).body.nodes[0].label).toBe('Renamed');
    expect((await api(base, 'POST', `/api/runs/${parent}/fork`, { step: 999 })).status).toBe(404);
  });

  it('a new run stops the running one cleanly; ?queue=1 waits for it instead', async () => {
    const first = await startRun({ loop_definition: demoGraph(500), step_delay_ms: 30 });
    await waitFor(async () => (await api(base, 'GET', `/api/runs/${first}`)).body.steps >= 1);
    const second = await startRun({ loop_definition: demoGraph(500), step_delay_ms: 30 });
    expect((await api(base, 'GET', `/api/runs/${first}`)).body.status).toBe('stopped');
    const firstLog = await fullLog(base, first);
    expect(firstLog.at(-2)).toMatchObject({ type: 'nav_status', data: { status: 'stopped' } });
    expect(firstLog.at(-1)).toMatchObject({ type: 'run_result', data: { status: 'stopped' } });
    const third = (
      await api(base, 'POST', '/api/navigate/run?queue=1', {
        loop_definition: demoGraph(3),
        step_delay_ms: 0,
      })
    ).body;
    expect(third).toMatchObject({ ok: true, queued: true });
    expect((await api(base, 'GET', `/api/runs/${second}`)).body.status).toBe('running');
    await api(base, 'POST', '/api/navigate/run/stop', {});
    expect((await waitStatus(base, third.execution_id, ['done'])).steps).toBe(3);
    expect((await api(base, 'GET', `/api/runs/${second}`)).body.status).toBe('stopped');
  });
});

describe('concurrency', () => {
  it('two starts at once leave exactly one run running', async () => {
    const body = { loop_definition: demoGraph(500), step_delay_ms: 30 };
    const ids = await Promise.all([startRun(body), startRun(body)]);
    const statuses = await Promise.all(
      ids.map(async (id) => (await api(base, 'GET', `/api/runs/${id}`)).body.status as string),
    );
    expect([...statuses].sort()).toEqual(['running', 'stopped']);
    expect((await api(base, 'GET', '/api/navigate/run/status')).body.execution_id).toBe(
      ids[statuses.indexOf('running')],
    );
    await api(base, 'POST', '/api/navigate/run/stop');
  });
});

describe('bad input never crashes the server', () => {
  it('malformed socket messages each get an error_event naming the problem', async () => {
    const c = await client();
    const bad: Array<[unknown, RegExp]> = [
      [{ afterSeq: -1 }, /afterSeq/],
      [{ runId: 42 }, /runId/],
      ['not an object', /expected object/],
      [{ runId: 'no-such-run' }, /no run "no-such-run"/],
      [{ follow: true }, /follow/],
    ];
    for (const [msg, why] of bad) {
      const ack = (await c.subscribe(msg)) as { ok: boolean; error: { message: string } };
      expect(ack.ok).toBe(false);
      expect(ack.error.message).toMatch(why);
    }
    c.socket.emit('bogus', { x: 1 });
    await waitFor(() => c.errors.length >= bad.length + 1, 5000, 'error_events');
    expect(c.errors.map((e) => (e.data as { code: string }).code)).toEqual([
      'invalid-subscribe',
      'invalid-subscribe',
      'invalid-subscribe',
      'unknown-run',
      'invalid-subscribe',
      'unknown-message',
    ]);
    expect((c.errors[0]?.data as { message: string }).message).toMatch(/\$\.afterSeq/);
    expect(await c.subscribe({})).toMatchObject({ ok: true });
  });

  it('malformed REST bodies and params get 4xx with {error:{code,message,path}}', async () => {
    const cases: Array<[string, string, unknown, number, string, string?]> = [
      ['POST', '/api/navigate/run', {}, 400, 'invalid-body', '$.loop_definition'],
      [
        'POST',
        '/api/navigate/run',
        { loop_definition: { nodes: 5 } },
        400,
        'invalid-graph',
        '$.loop_definition.nodes',
      ],
      [
        'POST',
        '/api/navigate/run',
        { loop_definition: {}, step_delay_ms: 'fast' },
        400,
        'invalid-body',
        '$.step_delay_ms',
      ],
      ['POST', '/api/navigate/run', '{"loop_definition":', 400, 'invalid-json'],
      [
        'POST',
        '/api/navigate/run',
        {
          loop_definition: {
            eval_graph: false,
            nodes: [{ id: 'a', type: 'constant' }],
            edges: [{ id: 'e', source: 'a', target: 'ghost' }],
          },
        },
        400,
        'invalid-graph',
        '$.loop_definition.edges[0].target',
      ],
      ['POST', '/api/navigate/run/restore/abc', {}, 400, 'invalid-params', '$.params.step'],
      ['POST', '/api/navigate/run/pause', { surprise: 1 }, 400, 'invalid-body'],
      ['GET', '/api/runs/nope/events', undefined, 404, 'not-found'],
      ['GET', '/api/runs/nope/state?step=1', undefined, 404, 'not-found'],
      ['POST', '/api/runs/nope/fork', { step: 1 }, 404, 'not-found'],
    ];
    for (const [method, path, body, status, code, where] of cases) {
      const res = await api(base, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(res.body.error.code, `${method} ${path}`).toBe(code);
      if (where) expect(res.body.error.path, `${method} ${path}`).toBe(where);
    }
    const runs = (await api(base, 'GET', '/api/runs')).body;
    const anyRun = runs[0].id as string;
    expect((await api(base, 'GET', `/api/runs/${anyRun}/events?limit=0`)).body.error.path).toBe(
      '$.query.limit',
    );
    expect((await api(base, 'GET', `/api/runs/${anyRun}/state?step=-1`)).status).toBe(400);
    expect((await api(base, 'POST', `/api/runs/${anyRun}/fork`, { step: 1, extra: true })).status).toBe(400);
  });

  it('raw path traversal on /api/graphs is refused with 400', async () => {
    const { hostname, port } = new URL(base);
    for (const path of [
      '/api/graphs/../../etc/passwd',
      '/api/graphs/a/../../../secret',
      '/api/graphs/..%2f..%2fsecret',
    ]) {
      const status = await new Promise<number>((res, rej) => {
        const req = request({ host: hostname, port, path, method: 'GET' }, (r) => {
          r.resume();
          res(r.statusCode ?? 0);
        });
        req.on('error', rej);
        req.end();
      });
      expect(status, path).toBe(400);
    }
  });
});
