// Graph versions: the hash of the canonical save form (any edit is a new version, key order of the
// input is not), recorded for a started run, a fork of a changed graph, and a restore's branch
// (which keeps its run's version) — on an in-process server over a temp workspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraphOrThrow } from '../../domain/graph/graph.parse.ts';
import { createServer, type StatewireServer } from '../app.ts';
import { demoGraph, tempWorkspace, waitFor } from '../test/serverProcess.testutil.ts';
import { graphVersion, graphVersionOf } from './graphVersion.ts';

describe('graphVersion', () => {
  it('hashes the canonical save form: the same graph in any key order, a new version for any edit', () => {
    const g = demoGraph(5);
    const v = graphVersion(parseGraphOrThrow(g));
    expect(v).toMatch(/^[0-9a-f]{64}$/);
    const reordered = Object.fromEntries(Object.entries(g as unknown as Record<string, unknown>).reverse());
    expect(graphVersionOf(reordered)).toBe(v);
    const moved = structuredClone(g);
    moved.nodes[0]!.position = { x: 1, y: 2 };
    expect(graphVersionOf(moved)).not.toBe(v);
    expect(graphVersionOf('not a graph')).toBeNull();
  });
});

describe('versions of runs, forks and branches', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let server: StatewireServer;
  const req = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await server.app.inject({
      method,
      url,
      ...(payload ? { payload, headers: { 'content-type': 'application/json' } } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  beforeAll(async () => {
    ws = tempWorkspace();
    server = await createServer({ workspace: ws.dir, distDir: `${ws.dir}/no-dist` });
  });
  afterAll(async () => {
    await server?.close();
    ws.cleanup();
  });

  it('a run carries its graph’s version, a fork of a changed graph a new one, a branch its run’s', async () => {
    const graph = demoGraph(12);
    const started = await req('POST', '/api/navigate/run', { loop_definition: graph, step_delay_ms: 0 });
    const id = started.body.execution_id as string;
    await waitFor(
      async () => ((await req('GET', `/api/runs/${id}`)).body.status === 'done' ? true : undefined),
      30_000,
      'run done',
    );
    const version = graphVersionOf(graph);
    expect((await req('GET', `/api/runs/${id}`)).body.graph_version).toBe(version);

    const changed = structuredClone(graph);
    changed.nodes.find((n) => n.id === 'policy')!.config.epsilon = 0.5;
    const fork = await req('POST', `/api/runs/${id}/fork`, { step: 4, graph: changed, paused: true });
    expect(fork.status).toBe(201);
    const forked = (await req('GET', `/api/runs/${fork.body.run_id}`)).body;
    expect(forked.graph_version).toBe(graphVersionOf(changed));
    expect(forked.graph_version).not.toBe(version);

    // Restoring step 6 of the finished run keeps steps 7–12 as a branch of the same version.
    expect((await req('POST', `/api/runs/${id}/restore`, { step: 6 })).status).toBe(200);
    const branches = (await req('GET', `/api/runs/${id}`)).body.branches as { run_id: string }[];
    expect(branches).toHaveLength(1);
    expect((await req('GET', `/api/runs/${branches[0]!.run_id}`)).body.graph_version).toBe(version);
    const listed = (await req('GET', '/api/runs')).body as { id: string; graph_version: string | null }[];
    expect(
      listed.filter((r) => r.id === id || r.id === branches[0]!.run_id).map((r) => r.graph_version),
    ).toEqual([version, version]);
  });
});
