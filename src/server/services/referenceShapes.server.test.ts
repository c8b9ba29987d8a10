// The reference's real wire shapes through a real `statewire serve`, with real Python services written
// with the SDK (test/fixtures/reference_shapes_service.py, echo_service.py): the manifest read function
// by function (a malformed one skipped with its JSON path, ConfigField lists as config forms with
// defaults), pushed events attached to their run and node — also one arriving after its call, with no
// execution id —, service-state previews isolated per run, a killed `url` service shown down within
// seconds and reconnected when it is back, and a run that waits for a slow-starting service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { connectClient, fullLog, waitStatus } from '../test/liveClient.testutil.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../test/serverProcess.testutil.ts';
import {
  shapesEntry,
  shapesGraph,
  startShapesByHand,
  writeServices,
} from '../test/shapesService.testutil.ts';

let ws: ReturnType<typeof tempWorkspace>;
let server: ServerProcess;

interface Status {
  name: string;
  state: string;
  pid: number | null;
  restarts: number;
  error: string | null;
  types: string[];
  issues: { path: string; message: string; function?: string }[];
}
const statusOf = async (name: string): Promise<Status | undefined> =>
  ((await api(server.url, 'GET', '/api/services')).body.services as Status[]).find((s) => s.name === name);

const oneNode = (id: string, type: string, config: Record<string, unknown> = {}): GraphDef => ({
  ...shapesGraph(),
  name: id,
  nodes: [{ id, type, label: id, config, position: { x: 0, y: 0 } }],
  edges: [],
  containers: [],
  access_grants: [],
});

async function start(graph: GraphDef, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await api(server.url, 'POST', '/api/navigate/run', { loop_definition: graph, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.execution_id as string;
}

beforeAll(async () => {
  ws = tempWorkspace();
  writeServices(ws.dir, [shapesEntry(), shapesEntry({}, 'echo_service.py')]);
  server = await startServer(ws.dir);
  for (const name of ['shapes', 'echo'])
    await waitFor(
      async () => (await statusOf(name))?.state === 'up',
      120_000,
      `service ${name}:\n${server.output()}`,
    );
}, 600_000);

afterAll(async () => {
  await server?.stop();
  ws?.cleanup();
});

describe("the reference's wire shapes through the server", () => {
  it('reads the manifest function by function; list and ui_config ConfigFields become config forms with defaults', async () => {
    const s = (await statusOf('shapes'))!;
    expect(s.types).toContain('shapes__frontier');
    expect(s.types).not.toContain('shapes__broken');
    expect(s.issues).toEqual([
      expect.objectContaining({
        function: 'shapes__broken',
        path: '$.functions[1].input_ports[0].name',
        message: expect.stringMatching(/^service 'shapes' function 'shapes__broken': function skipped/),
      }),
    ]);
    const report = (await api(server.url, 'GET', '/api/services')).body;
    expect(report.executor_url).toBe(server.url);
    const schemas = (await api(server.url, 'GET', '/api/components/node-schemas')).body as {
      type: string;
      config_schema: { properties: Record<string, unknown> };
      default_config: Record<string, unknown>;
    }[];
    const frontier = schemas.find((x) => x.type === 'shapes__frontier')!;
    expect(frontier.config_schema.properties).toMatchObject({
      min_num_prompt_points: { type: 'integer', default: 2 },
      use_lsv: { type: 'boolean', default: true },
      mode: { enum: ['fast', 'exact'], title: 'Mode', default: 'fast' },
    });
    expect(frontier.default_config).toEqual({ min_num_prompt_points: 2, use_lsv: true, mode: 'fast' });
    const source = schemas.find((x) => x.type === 'shapes__source')!;
    expect(source.config_schema.properties.text).toMatchObject({ type: 'string', title: 'Input Text' });
    expect(source.default_config).toEqual({ text: 'alpha beta gamma' });
  });

  it('pushed events reach their run and node, also one sent after the call with no execution id', async () => {
    // The shapes nodes fire in step 1; the demo graph beside them keeps the run alive after it.
    const g = shapesGraph();
    const demo = demoGraph(20);
    const id = await start(
      {
        ...g,
        nodes: [...demo.nodes, ...g.nodes],
        edges: [...demo.edges, ...g.edges],
        containers: [...demo.containers, ...g.containers],
        access_grants: [...demo.access_grants, ...g.access_grants],
        step_budget: 20,
      },
      { paused: true },
    );
    expect((await api(server.url, 'POST', '/api/navigate/run/step')).status).toBe(200);
    // The late warning (0.3 s after announce answered, no execution id) lands in the paused run.
    const late = await waitFor(
      async () =>
        (await fullLog(server.url, id)).find(
          (e) => e.type === 'error_event' && (e.data as { code: string }).code === 'SUBPROC_LOG_WARNING',
        ),
      15_000,
      'the late warning',
    );
    expect(late.data).toMatchObject({
      severity: 'warning',
      scope: { service: 'shapes', step: 1 },
      message: 'announce: a late warning from the service process',
    });
    const log = await fullLog(server.url, id);
    const onNode = log.find(
      (e) => e.type === 'error_event' && (e.data as { message: string }).message === 'announce: for this run',
    );
    expect(onNode?.data).toMatchObject({ source: 'node', scope: { node_id: 'ann', step: 1 } });
    // The granted container was written through callbacks carrying "key": null.
    const written = log.find(
      (e) => e.type === 'state_written' && (e.data as { container: string }).container === 'mem',
    );
    expect(written?.data).toMatchObject({ node_id: 'rem', slot: 'counts', after: [3] });
    await api(server.url, 'POST', '/api/navigate/run/stop');
    await waitStatus(server.url, id, ['stopped', 'done']);
  }, 60_000);

  it('isolates service-state previews per run: a run that never called the service shows none of its containers', async () => {
    const a = await start(shapesGraph());
    await waitStatus(server.url, a, ['done']);
    const echo = oneNode('echo', 'echo__echo');
    echo.nodes.push({
      id: 'k',
      type: 'constant',
      label: 'K',
      config: { value: 'hi' },
      position: { x: -200, y: 0 },
    });
    echo.edges.push({ id: 'ek', source: 'k', sourceHandle: 'value', target: 'echo', targetHandle: 'data' });
    const b = await start(echo);
    await waitStatus(server.url, b, ['done', 'error']);
    const navOf = async (id: string) =>
      (await fullLog(server.url, id)).filter((e) => e.type === 'nav_step').at(-1)!.data as {
        containers: Record<string, { owner?: string }>;
      };
    const resultOf = async (id: string) =>
      (await fullLog(server.url, id)).at(-1)!.data as { containers: Record<string, unknown> };
    expect((await navOf(a)).containers.shapes_counter?.owner).toBe('shapes');
    expect((await resultOf(a)).containers.shapes_counter).toMatchObject({ fires: expect.any(Number) });
    expect(Object.keys((await navOf(b)).containers)).not.toContain('shapes_counter');
    expect(Object.keys((await resultOf(b)).containers)).not.toContain('shapes_counter');
    const state = (await api(server.url, 'GET', `/api/runs/${b}/state?step=1`)).body;
    expect(Object.keys(state.containers ?? {})).not.toContain('shapes_counter');
  }, 60_000);

  it('a killed url service shows down within 5 s while an editor is connected, and up again when it is back', async () => {
    const byHand = await startShapesByHand(server.url, { name: 'remote' });
    const client = await connectClient(server.url);
    try {
      writeServices(ws.dir, [
        shapesEntry(),
        shapesEntry({}, 'echo_service.py'),
        { name: 'remote', url: byHand.url },
      ]);
      await api(server.url, 'POST', '/api/services/reload');
      await waitFor(async () => (await statusOf('remote'))?.state === 'up', 30_000, 'remote up');
      byHand.stop();
      const killedAt = Date.now();
      const down = await waitFor(
        async () => {
          const s = await statusOf('remote');
          return s?.state === 'down' ? s : undefined;
        },
        5_000,
        'remote down within 5 s',
      );
      expect(Date.now() - killedAt).toBeLessThan(5_000);
      expect(down.error).toMatch(/health check failed: .*cannot reach/);
      const back = await startShapesByHand(server.url, { name: 'remote', port: byHand.port });
      try {
        await waitFor(async () => (await statusOf('remote'))?.state === 'up', 15_000, 'remote up again');
      } finally {
        back.stop();
      }
    } finally {
      byHand.stop(); // again, if the test failed before it did: no process outlives the test
      client.close();
    }
  }, 90_000);

  it('a run started while a command service is still starting waits for it, with a notice', async () => {
    const client = await connectClient(server.url);
    try {
      const waiting: unknown[] = [];
      client.socket.on('services_waiting', (d: unknown) => waiting.push(d));
      writeServices(ws.dir, [
        shapesEntry(),
        shapesEntry({}, 'echo_service.py'),
        shapesEntry({
          name: 'slow',
          env: { SHAPES_NAME: 'slow' },
          command: [...shapesEntry().command, '--startup-delay', '4'],
        }),
      ]);
      const reload = api(server.url, 'POST', '/api/services/reload');
      const starting = await waitFor(
        async () => {
          const s = await statusOf('slow');
          return s?.state === 'starting' && s.pid ? s : undefined;
        },
        20_000,
        'slow starting',
      );
      // Reloading again meanwhile waits for that start: no second process.
      const again = api(server.url, 'POST', '/api/services/reload');
      const id = await start(oneNode('seed', 'slow__source', { text: 'late but there' }));
      expect(waiting).toEqual([{ graph_name: 'seed', services: ['slow'] }]);
      const end = await waitStatus(server.url, id, ['done', 'error']);
      expect(end.status).toBe('done');
      const result = (await fullLog(server.url, id)).at(-1)!;
      expect(result.type).toBe('run_result');
      await reload;
      await again;
      expect((await statusOf('slow'))!).toMatchObject({ state: 'up', pid: starting.pid, restarts: 0 });
    } finally {
      client.close();
    }
  }, 120_000);
});
