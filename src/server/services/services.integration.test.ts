// Node services end to end with real processes: the Python SDK's gridworld example service, started
// and supervised by a real `statewire serve`, called over msgpack and JSON, calling back into the
// executor's internal endpoints; and `statewire run --service` against the same service.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { isNdArray } from '../../domain/services/ndarray.ts';
import { PY_GRAPH_FILE, writeGridworldServices } from '../test/pythonService.testutil.ts';
import {
  api,
  REPO,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../test/serverProcess.testutil.ts';
import { ServiceClient } from './serviceClient.ts';

interface Ev {
  type: string;
  seq: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

let ws: ReturnType<typeof tempWorkspace>;
let server: ServerProcess;
let serviceUrl = '';

/** The demo graph, shrunk: a 4×4 grid so episodes end within a few steps. */
function smallGraph(budget: number): GraphDef {
  const g = JSON.parse(readFileSync(PY_GRAPH_FILE, 'utf8')) as GraphDef;
  g.step_budget = budget;
  for (const n of g.nodes) if (n.id === 'reset') n.config = { size: 4, max_steps: 12 };
  return g;
}

async function services() {
  return (await api(server.url, 'GET', '/api/services')).body.services[0];
}

async function runToEnd(graph: GraphDef, stepDelayMs = 0): Promise<{ id: string; events: Ev[] }> {
  const start = await api(server.url, 'POST', '/api/navigate/run', {
    loop_definition: graph,
    step_delay_ms: stepDelayMs,
  });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const id = start.body.execution_id as string;
  await waitFor(
    async () => {
      const s = (await api(server.url, 'GET', '/api/navigate/run/status')).body;
      return s.execution_id === id && ['done', 'error', 'stopped'].includes(s.status);
    },
    90_000,
    'the run to end',
  );
  return { id, events: (await api(server.url, 'GET', `/api/runs/${id}/events?limit=5000`)).body.events };
}

beforeAll(async () => {
  ws = tempWorkspace();
  writeGridworldServices(ws.dir);
  server = await startServer(ws.dir);
  const s = await waitFor(
    async () => {
      const svc = await services();
      return svc?.state === 'up' ? svc : svc?.state === 'down' ? svc : undefined;
    },
    120_000,
    'the gridworld service',
  );
  expect(s.state, `${s.error}\n${server.output()}`).toBe('up');
  serviceUrl = s.url;
}, 600_000);

afterAll(async () => {
  await server?.stop();
  ws?.cleanup();
});

describe('node services (real Python service, real server)', () => {
  it('registers one node type per manifest function with its ports and config schema', async () => {
    const s = await services();
    expect(s).toMatchObject({ managed: true, encoding: 'msgpack', version: '0.1.0', restarts: 0 });
    expect(s.types).toEqual(
      expect.arrayContaining([
        'gridworld__reset',
        'gridworld__step',
        'gridworld__policy',
        'gridworld__record_reward',
      ]),
    );
    expect(s.containers.map((c: { id: string }) => c.id)).toEqual(['gridworld_stats']);
    const schemas = (await api(server.url, 'GET', '/api/components/node-schemas')).body;
    const list = (Array.isArray(schemas) ? schemas : (schemas.schemas ?? Object.values(schemas))) as {
      type: string;
    }[];
    const step = JSON.stringify(list).includes('gridworld__step');
    expect(step).toBe(true);
  });

  it('runs the demo graph: pictures, the service-owned container, a granted container written from Python', async () => {
    const { id, events } = await runToEnd(smallGraph(14));
    const errors = events.filter((e) => e.type === 'error_event' && e.data.severity === 'error');
    expect(errors.map((e) => e.data.message)).toEqual([]);

    const frame = events.find((e) => e.type === 'viewer_data' && e.data.node_id === 'camera')!;
    expect(frame.data.fields.image.$ndarray).toMatchObject({ dtype: 'uint8', kind: 'image' });
    expect(frame.data.fields.image.$ndarray.png).toMatch(/^data:image\/png;base64,/);

    const navs = events.filter((e) => e.type === 'nav_step');
    const owned = navs.at(-1)!.data.containers.gridworld_stats;
    expect(owned.owner).toBe('gridworld');
    expect(owned.states.episodes.value).toBeGreaterThanOrEqual(1);
    const depth = navs.at(-1)!.data.containers.episode_log.states.depth;
    expect(JSON.stringify(depth)).toContain('"kind":"depth"');

    // record_reward writes through ctx → /api/internal/containers → the node's own grant.
    const writes = events.filter(
      (e) => e.type === 'state_written' && e.data.node_id === 'record' && e.data.slot === 'rewards',
    );
    expect(writes.length).toBeGreaterThanOrEqual(10);
    expect(writes[0]!.data).toMatchObject({
      container: 'episode_log',
      reducer: 'accumulator',
      grant_id: 'ag_record_log',
    });
    // Its pushed event (POST /api/internal/events) is in the log, on the node.
    const pushed = events.find((e) => e.type === 'error_event' && e.data.code === 'EPISODE_DONE');
    expect(pushed?.data).toMatchObject({ severity: 'info', scope: { node_id: 'record' } });
    expect(pushed?.data.details.service).toBe('gridworld');
    // An episode_reset evicts the ended episode's key in the service.
    const resets = events.filter((e) => e.type === 'signal' && e.data.signal === 'episode_reset');
    expect(resets[0]?.data.payload).toMatch(/^ep\d+$/);

    const result = events.at(-1)!;
    expect(result.type).toBe('run_result');
    expect(typeof result.data.outputs.episode_return).toBe('number');
    expect(result.data.containers.episode_log.frame.$ndarray.shape).toEqual([64, 64, 3]);

    // Checkpoints hold the arrays as binary blobs: restoring a step rebuilds the engine from them.
    const restored = await api(server.url, 'POST', `/api/runs/${id}/restore`, { step: 5 });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    const st = (await api(server.url, 'GET', '/api/navigate/run/status')).body;
    expect(st).toMatchObject({ status: 'paused', step: 5 });
    await api(server.url, 'POST', '/api/navigate/run/stop');
  }, 120_000);

  it('msgpack and JSON encodings carry the same arrays bit-exactly (float32 depth, uint8 image as PNG)', async () => {
    const pack = new ServiceClient('gridworld', serviceUrl, 'msgpack', 10_000);
    const json = new ServiceClient('gridworld', serviceUrl, 'json', 10_000);
    const none = new Set<string>();
    const img = new Set(['observation']);
    const a = await pack.call(
      'gridworld__reset',
      { inputs: {}, config: { size: 5, max_steps: 9 } },
      none,
      img,
    );
    const b = await json.call(
      'gridworld__reset',
      { inputs: {}, config: { size: 5, max_steps: 9 } },
      none,
      img,
    );
    for (const port of ['depth', 'observation']) {
      const x = a.outputs[port];
      const y = b.outputs[port];
      expect(isNdArray(x) && isNdArray(y)).toBe(true);
      if (!isNdArray(x) || !isNdArray(y)) return;
      expect([y.dtype, y.shape]).toEqual([x.dtype, x.shape]);
      expect(Buffer.from(y.data).equals(Buffer.from(x.data))).toBe(true);
    }
    expect((a.outputs.depth as { dtype: string }).dtype).toBe('float32');
    // A service error names the service, the function and the service's own message.
    await expect(
      pack.call('gridworld__reset', { inputs: {}, config: { size: 99 } }, none, img),
    ).rejects.toThrow(/service 'gridworld' function 'gridworld__reset': HTTP 400: .*size/);
  });

  it('internal endpoints: a stale execution id is 409, events of an unknown execution are dropped', async () => {
    const { encode } = await import('@msgpack/msgpack');
    const stale = await fetch(`${server.url}/api/internal/containers/exec_gone/episode_log/read`, {
      method: 'POST',
      headers: { 'content-type': 'application/msgpack' },
      body: Buffer.from(encode({ name: 'rewards' })),
    });
    expect(stale.status).toBe(409);
    expect(JSON.stringify(await stale.json())).toContain('stale-execution');
    const events = await api(server.url, 'POST', '/api/internal/events', {
      events: [{ severity: 'info', message: 'late', execution_id: 'exec_gone' }],
    });
    expect(events.status).toBe(200);
    expect(events.body).toMatchObject({ accepted: 0, dropped: 1 });
  });

  it('statewire run --service streams a headless run and ends with run_result', () => {
    const file = join(ws.dir, 'graphs', 'small.json');
    writeFileSync(file, JSON.stringify(smallGraph(6)));
    const r = spawnSync(
      process.execPath,
      [join(REPO, 'bin/statewire.js'), 'run', file, '--json', '--service', `gridworld=${serviceUrl}`],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Ev);
    const last = lines.at(-1)!;
    expect(last.type).toBe('run_result');
    expect(last.data).toMatchObject({ status: 'done', steps: 6 });
    expect(last.data.containers.episode_log.frame.$ndarray.kind).toBe('image');
    // Without the internal endpoints (no server), ctx writes fail and say so as node errors.
    expect(lines.some((l) => l.type === 'viewer_data')).toBe(true);
  });

  it('a killed service becomes a node error naming it, and Statewire restarts it once', async () => {
    const before = await services();
    const start = await api(server.url, 'POST', '/api/navigate/run', {
      loop_definition: smallGraph(400),
      step_delay_ms: 100,
    });
    expect(start.status).toBe(200);
    const id = start.body.execution_id as string;
    await waitFor(
      async () => (await api(server.url, 'GET', '/api/navigate/run/status')).body.step >= 2,
      30_000,
      'two steps',
    );
    process.kill(before.pid, 'SIGKILL');
    const failed = await waitFor(
      async () => {
        const evs = (await api(server.url, 'GET', `/api/runs/${id}/events?limit=5000&type=error_event`)).body
          .events as Ev[];
        return evs.find((e) => e.data.severity === 'error');
      },
      30_000,
      'a node error',
    );
    expect(failed.data.message).toMatch(
      /node '(policy|env_step|record)' \(type gridworld__\w+\) failed: service 'gridworld'/,
    );
    await api(server.url, 'POST', '/api/navigate/run/stop');
    const after = await waitFor(
      async () => {
        const s = await services();
        return s.state === 'up' && s.restarts === 1 ? s : undefined;
      },
      90_000,
      'the restarted service',
    );
    expect(after.pid).not.toBe(before.pid);
  }, 180_000);
});
