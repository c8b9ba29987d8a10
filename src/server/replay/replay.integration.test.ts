// Offline replay end to end with real parts: a real `statewire serve` supervising the Python SDK's
// gridworld service runs python_gridworld; the run is replayed over REST, exported as a bundle, then
// the server and its service are stopped and the real `statewire replay` binary replays the stored
// run and the bundle with nothing to call. An edited policy config is named at the step where the
// replay parts from the recording; a version 1 bundle (no recorded calls) still imports.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { ReplayVerdict } from '../../domain/protocol/replay.schema.ts';
import { closeDatabase, openDatabase } from '../db/database.ts';
import { RunStore } from '../db/runStore.ts';
import { importBundle, ImportedRuns } from '../runs/bundleImport.ts';
import { containerStart, readContainer, record, RECORD } from '../runs/bundleFormat.ts';
import { runStatewire } from '../test/cli.testutil.ts';
import { PY_GRAPH_FILE, writeGridworldServices } from '../test/pythonService.testutil.ts';
import {
  api,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../test/serverProcess.testutil.ts';

const STEPS = 12;
let ws: ReturnType<typeof tempWorkspace>;
let server: ServerProcess | undefined;
let runId = '';
let bundleFile = '';
let elsewhere = '';

function gridGraph(): GraphDef {
  const g = JSON.parse(readFileSync(PY_GRAPH_FILE, 'utf8')) as GraphDef;
  g.step_budget = STEPS;
  for (const n of g.nodes) if (n.id === 'reset') n.config = { size: 5, max_steps: 7 };
  return g;
}

/** The graph with the policy's epsilon changed (0.15 in the example graph). */
function editedGraph(epsilon: number): string {
  const g = gridGraph();
  const policy = g.nodes.find((n) => n.id === 'policy')!;
  expect(policy.config.epsilon).toBe(0.15);
  policy.config = { ...policy.config, epsilon };
  const file = join(ws.dir, `edited-${epsilon}.json`);
  writeFileSync(file, JSON.stringify(g));
  return file;
}

beforeAll(async () => {
  ws = tempWorkspace();
  elsewhere = mkdtempSync(join(tmpdir(), 'statewire-replay-'));
  writeGridworldServices(ws.dir);
  server = await startServer(ws.dir);
  const up = await waitFor(
    async () => {
      const list = (await api(server!.url, 'GET', '/api/services')).body.services as { state: string }[];
      return list.every((s) => s.state !== 'starting') ? list : undefined;
    },
    180_000,
    'the gridworld service',
  );
  expect(up.map((s) => s.state)).toEqual(['up']);
  const start = await api(server.url, 'POST', '/api/navigate/run', {
    loop_definition: gridGraph(),
    step_delay_ms: 0,
  });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  runId = start.body.execution_id as string;
  await waitFor(
    async () => {
      const s = (await api(server!.url, 'GET', '/api/navigate/run/status')).body;
      return s.execution_id === runId && ['done', 'error', 'stopped'].includes(s.status);
    },
    120_000,
    'the run to end',
  );
}, 600_000);

afterAll(async () => {
  await server?.stop();
  ws?.cleanup();
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('statewire replay (real gridworld service)', () => {
  it('replays and verifies over REST while the server runs', async () => {
    const r = await api(server!.url, 'POST', `/api/runs/${runId}/replay`, { verify: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const v = r.body as ReplayVerdict;
    expect(v).toMatchObject({ ok: true, verified: true, steps: STEPS, identical: STEPS, difference: null });
    expect(v.message).toBe(`${STEPS} steps identical`);
    expect(v.calls.answered).toBeGreaterThan(STEPS * 2);
    expect(v.calls.recorded).toBeGreaterThanOrEqual(v.calls.answered);
  }, 120_000);

  it('names an edited config over REST at the step where the replay parts', async () => {
    const g = JSON.parse(readFileSync(editedGraph(0.6), 'utf8')) as unknown;
    const r = await api(server!.url, 'POST', `/api/runs/${runId}/replay`, { verify: true, graph: g });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ ok: false, difference: { kind: 'call', node_id: 'policy', step: 1 } });
  }, 120_000);

  it('exports a bundle that carries the recorded calls, then the server and its service stop', async () => {
    const res = await fetch(`${server!.url}/api/runs/${runId}/bundle`);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    const kinds = [...readContainer(gunzipSync(bytes))].map((r) => r.kind);
    expect(kinds).toContain(RECORD.calls);
    bundleFile = join(elsewhere, 'run.swrun');
    writeFileSync(bundleFile, bytes);
    expect(await server!.stop()).toBe(0);
    server = undefined;
  }, 60_000);

  it('replay RUN --verify passes with the service stopped', async () => {
    const r = await runStatewire(['replay', runId, '--workspace', ws.dir, '--verify'], elsewhere);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain(`${STEPS} steps identical`);
  }, 120_000);

  it('replay FILE.swrun --verify passes anywhere (a bundle imported into memory)', async () => {
    const r = await runStatewire(['replay', bundleFile, '--verify', '--json'], elsewhere);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const v = JSON.parse(r.stdout) as ReplayVerdict;
    expect(v).toMatchObject({ ok: true, identical: STEPS, difference: null });
  }, 120_000);

  it('a changed policy config is named at the step where it diverges (exit 1)', async () => {
    const file = editedGraph(0.6);
    const r = await runStatewire(
      ['replay', runId, '--workspace', ws.dir, '--graph', file, '--verify'],
      elsewhere,
    );
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(r.stdout).toContain(
      "no recorded answer for node 'policy' at step 1: its config differs: epsilon 0.15 → 0.6",
    );
    const j = await runStatewire(['replay', bundleFile, '--graph', file, '--verify', '--json'], elsewhere);
    expect(j.code).toBe(1);
    expect((JSON.parse(j.stdout) as ReplayVerdict).difference).toMatchObject({
      kind: 'call',
      node_id: 'policy',
      step: 1,
    });
  }, 120_000);

  it('bad arguments and unknown runs exit 2 naming the problem', async () => {
    const unknown = await runStatewire(['replay', 'no_such_run', '--workspace', ws.dir], elsewhere);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no run "no_such_run"');
    const none = await runStatewire(['replay'], elsewhere);
    expect(none.code).toBe(2);
  }, 60_000);

  it('a version 1 bundle (no recorded calls) still imports; its replay names the missing answer', async () => {
    const container = gunzipSync(readFileSync(bundleFile));
    const parts = [containerStart(1)];
    for (const r of readContainer(container)) {
      if (r.kind === RECORD.calls) continue;
      if (r.kind === RECORD.header || r.kind === RECORD.end) {
        const v = JSON.parse(r.payload.toString('utf8')) as Record<string, unknown>;
        if (r.kind === RECORD.header) v.version = 1;
        else delete v.calls;
        parts.push(record(r.kind, Buffer.from(JSON.stringify(v))));
      } else parts.push(record(r.kind, r.payload));
    }
    const v1 = gzipSync(Buffer.concat(parts));
    // The exporter writes each blob before the first record using it, and the calls last: every
    // record after the last checkpoint page is what the recording adds (its pages and new blobs).
    const records = [...readContainer(container)];
    const lastCheckpoint = records.findLastIndex((r) => r.kind === RECORD.checkpoints);
    const added = records
      .slice(lastCheckpoint + 1)
      .filter((r) => r.kind !== RECORD.end)
      .reduce((n, r) => n + 5 + r.payload.length, 0);
    console.log(
      `python_gridworld, ${STEPS} steps: the recorded calls add ${added} B to a ${container.length} B container ` +
        `(${readFileSync(bundleFile).length} B gzipped)`,
    );
    expect(added).toBeGreaterThan(0);
    const store = new RunStore(openDatabase(':memory:'));
    try {
      const r = await importBundle(store, new ImportedRuns(store.db), v1, {
        maxUncompressed: 1 << 30,
        maxValueBytes: Infinity,
      });
      expect(r).toMatchObject({ ok: true, steps: STEPS, calls: 0 });
    } finally {
      closeDatabase(store.db);
    }
    const file = join(elsewhere, 'v1.swrun');
    writeFileSync(file, v1);
    const replay = await runStatewire(['replay', file, '--verify'], elsewhere);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(
      /no recorded answer for node '\w+' at step \d+: the recorded run made no service call/,
    );
  }, 120_000);
});
