// Time travel with node services' state, end to end with real processes: a real `statewire serve`
// supervising the Python SDK's gridworld example (grids, RNGs and stats kept per run) and a
// reference-style service written without the SDK (no snapshot support). A fork from step 10 and a
// restore to step 10 reach exactly the original's states at steps 11–20; restoring a run that called
// the service without snapshots goes on, with a warning naming it in the run's log.
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { ensurePython, GRIDWORLD_DIR, PY_GRAPH_FILE } from '../test/pythonService.testutil.ts';
import {
  api,
  REPO,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../test/serverProcess.testutil.ts';

interface Ev {
  type: string;
  seq: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

let ws: ReturnType<typeof tempWorkspace>;
let server: ServerProcess;

/** The demo graph on a 5×5 grid (episodes end, get evicted and auto-reset within 20 steps). */
function gridGraph(budget: number): GraphDef {
  const g = JSON.parse(readFileSync(PY_GRAPH_FILE, 'utf8')) as GraphDef;
  g.step_budget = budget;
  for (const n of g.nodes) {
    if (n.id === 'reset') n.config = { size: 5, max_steps: 7 };
    // Exploration on: the policy's RNG decides actions, so a fork with the wrong RNG would diverge.
    if (n.id === 'policy') n.config = { epsilon: 0.5, seed: 3 };
  }
  return g;
}

const REF_GRAPH = {
  name: 'refsvc_pair',
  nodes: [
    { id: 'make', type: 'refsvc__make', label: 'Make', config: { h: 2, w: 3 }, position: { x: 0, y: 0 } },
    { id: 'scale', type: 'refsvc__scale', label: 'Scale', config: { factor: 2 }, position: { x: 200, y: 0 } },
  ],
  edges: [{ id: 'e1', source: 'make', sourceHandle: 'depth', target: 'scale', targetHandle: 'depth' }],
  containers: [],
  access_grants: [],
  eval_graph: false,
};

async function status() {
  return (await api(server.url, 'GET', '/api/navigate/run/status')).body;
}

async function waitEnded(id: string, atStep?: number): Promise<void> {
  await waitFor(
    async () => {
      const s = await status();
      return (
        s.execution_id === id &&
        (['done', 'error', 'stopped'].includes(s.status) ||
          (atStep !== undefined && s.status === 'paused' && s.step === atStep))
      );
    },
    90_000,
    `run ${id} to end`,
  );
}

/** Errors, and warnings about services' state, in a run's log (the service's own output lines are not). */
function problems(evs: Ev[]): string[] {
  return evs
    .filter(
      (e) =>
        e.type === 'error_event' &&
        (e.data.severity === 'error' || String(e.data.code).startsWith('service-')),
    )
    .map((e) => e.data.message);
}

async function events(id: string): Promise<Ev[]> {
  return (await api(server.url, 'GET', `/api/runs/${id}/events?limit=5000`)).body.events;
}

async function stateAt(id: string, step: number): Promise<unknown> {
  const r = await api(server.url, 'GET', `/api/runs/${id}/state?step=${step}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** What each step showed: the service's container previews and the agent's moves (nav_step). */
function stepViews(evs: Ev[], from: number, to: number): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const e of evs)
    if (e.type === 'nav_step' && e.data.step >= from && e.data.step <= to)
      out[e.data.step] = { containers: e.data.containers, nodeStates: e.data.nodeStates };
  return out;
}

beforeAll(async () => {
  ws = tempWorkspace();
  const python = ensurePython();
  writeFileSync(
    join(ws.dir, 'services.json'),
    JSON.stringify({
      services: [
        { name: 'gridworld', command: [python, 'server.py', '--port', '{port}'], cwd: GRIDWORLD_DIR },
        {
          name: 'refsvc',
          command: [python, 'reference_style_service.py', '--port', '{port}'],
          cwd: join(REPO, 'src/server/test/fixtures'),
        },
      ],
    }),
  );
  server = await startServer(ws.dir);
  const up = await waitFor(
    async () => {
      const list = (await api(server.url, 'GET', '/api/services')).body.services as {
        state: string;
      }[];
      return list.every((s) => s.state !== 'starting') ? list : undefined;
    },
    120_000,
    'the services',
  );
  expect(up.map((s) => s.state)).toEqual(['up', 'up']);
}, 600_000);

afterAll(async () => {
  await server?.stop();
  ws?.cleanup();
});

describe('time travel includes node services (real services, real server)', () => {
  let original = '';
  let originalViews: Record<number, unknown> = {};

  it('the services report whether they take snapshots', async () => {
    const list = (await api(server.url, 'GET', '/api/services')).body.services as {
      name: string;
      snapshot: boolean;
    }[];
    expect(list.map((s) => [s.name, s.snapshot])).toEqual([
      ['gridworld', true],
      ['refsvc', false],
    ]);
  });

  it('a fork from step 10 reaches exactly the original states of steps 11–20', async () => {
    const start = await api(server.url, 'POST', '/api/navigate/run', {
      loop_definition: gridGraph(20),
      step_delay_ms: 0,
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    original = start.body.execution_id;
    await waitEnded(original);
    const evs = await events(original);
    expect(problems(evs)).toEqual([]);
    // Several episodes ended (evictions, auto resets) after step 10: what a fork must reproduce.
    const resets = evs.filter((e) => e.type === 'signal' && e.data.signal === 'episode_reset');
    expect(resets.length).toBeGreaterThanOrEqual(2);
    originalViews = stepViews(evs, 11, 20);
    expect(Object.keys(originalViews)).toHaveLength(10);

    const fork = await api(server.url, 'POST', `/api/runs/${original}/fork`, {
      step: 10,
      paused: false,
      step_delay_ms: 0,
    });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    const forkId = fork.body.run_id as string;
    await waitEnded(forkId);
    const forkEvs = await events(forkId);
    expect(problems(forkEvs)).toEqual([]);
    expect(stepViews(forkEvs, 11, 20)).toEqual(originalViews);
    expect(await stateAt(forkId, 20)).toEqual(await stateAt(original, 20));
  }, 180_000);

  it('a restore to step 10 runs steps 11–20 again exactly, and the abandoned branch keeps its records', async () => {
    const r = await api(server.url, 'POST', `/api/runs/${original}/restore`, { step: 10 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await api(server.url, 'POST', '/api/navigate/run/resume', {});
    await waitEnded(original);
    const evs = await events(original);
    const restoredAt = evs.findLast(
      (e) => e.type === 'nav_status' && e.data.status === 'paused' && e.data.step === 10,
    )!;
    const afterRestore = evs.filter((e) => e.seq > restoredAt.seq);
    expect(stepViews(afterRestore, 11, 20)).toEqual(originalViews);
    expect(problems(evs)).toEqual([]);

    // The branch the restore kept (steps 11–20 as first run) can be forked at step 15 like any run.
    const branches = (await api(server.url, 'GET', `/api/runs/${original}`)).body.branches as {
      run_id: string;
    }[];
    expect(branches.length).toBe(1);
    const fork = await api(server.url, 'POST', `/api/runs/${branches[0]!.run_id}/fork`, {
      step: 15,
      paused: false,
      step_delay_ms: 0,
    });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    await waitEnded(fork.body.run_id);
    expect(stepViews(await events(fork.body.run_id), 16, 20)).toEqual(
      Object.fromEntries(Object.entries(originalViews).filter(([k]) => Number(k) >= 16)),
    );
  }, 180_000);

  it('stores the snapshots beside the checkpoints, deduplicated (bytes per step measured)', () => {
    const db = new Database(join(ws.dir, '.statewire', 'runs.db'), { readonly: true });
    try {
      const rows = db
        .prepare<[string], { step: number; services: string }>(
          'SELECT step, services FROM service_snapshots WHERE run_id = ? ORDER BY id',
        )
        .all(original);
      expect(rows.length).toBeGreaterThanOrEqual(20);
      const ids = [...new Set(rows.map((r) => (JSON.parse(r.services) as { gridworld: number }).gridworld))];
      expect(ids.every((id) => typeof id === 'number')).toBe(true);
      // The re-run after the restore reproduced the same states: the same blobs, not new ones.
      expect(ids.length).toBeLessThan(rows.length);
      const sizes = ids.map(
        (id) =>
          db.prepare<[number], { n: number }>('SELECT length(json) AS n FROM blobs WHERE id = ?').get(id)
            ?.n ?? 0,
      );
      const perStep = sizes.reduce((a, b) => a + b, 0) / 20;
      console.log(
        `service snapshots on gridworld: ${ids.length} distinct blobs for ${rows.length} step records, ` +
          `${Math.round(perStep)} bytes/step (blob sizes ${Math.min(...sizes)}–${Math.max(...sizes)} B)`,
      );
      expect(perStep).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('restoring a run that called a service without snapshots goes on, warning with its name', async () => {
    const start = await api(server.url, 'POST', '/api/navigate/run', {
      loop_definition: REF_GRAPH,
      step_delay_ms: 0,
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const id = start.body.execution_id as string;
    await waitEnded(id);
    const steps = (await api(server.url, 'GET', `/api/runs/${id}/checkpoints`)).body.steps as number[];
    const last = steps.at(-1)!;
    const r = await api(server.url, 'POST', `/api/runs/${id}/restore`, { step: last });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await status()).status).toBe('paused');
    const warnings = (await events(id)).filter(
      (e) => e.type === 'error_event' && e.data.severity === 'warning',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.data).toMatchObject({
      code: 'service-snapshot-unsupported',
      scope: { service: 'refsvc', step: last },
    });
    expect(warnings[0]!.data.message).toMatch(
      /service 'refsvc' was not put back to step \d+: it has no snapshot support/,
    );
  }, 120_000);
});
