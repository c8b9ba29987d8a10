// Runs started anywhere, against real `statewire serve` processes: DELETE /api/runs/{id} (409 while
// live, the log gone afterwards), restore keeps the abandoned steps as a branch run, and
// `statewire run FILE --server URL` runs a graph in a server's history.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  demoGraph,
  REPO,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../test/serverProcess.testutil.ts';

let ws: ReturnType<typeof tempWorkspace>;
let srv: ServerProcess;

beforeAll(async () => {
  ws = tempWorkspace();
  srv = await startServer(ws.dir);
}, 40_000);
afterAll(async () => {
  await srv.stop();
  ws.cleanup();
});

const status = async () => (await api(srv.url, 'GET', '/api/navigate/run/status')).body;
const untilStatus = (want: string) =>
  waitFor(async () => ((await status()).status === want ? true : undefined), 20_000, `status ${want}`);
const navSteps = async (runId: string) => {
  const r = await api(srv.url, 'GET', `/api/runs/${runId}/events?after=0&limit=5000&type=nav_step`);
  return (r.body.events as { data: { step: number } }[]).map((e) => e.data.step);
};

describe('DELETE /api/runs/{id}', () => {
  it('refuses the live run with 409, then deletes a finished run with its events and checkpoints', async () => {
    const started = await api(srv.url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(5),
      step_delay_ms: 0,
      paused: true,
    });
    const id = started.body.execution_id as string;
    const live = await api(srv.url, 'DELETE', `/api/runs/${id}`, {});
    expect(live.status).toBe(409);
    expect(live.body.error.code).toBe('run-live');
    await api(srv.url, 'POST', '/api/navigate/run/resume', {});
    await untilStatus('done');
    expect((await api(srv.url, 'GET', `/api/runs/${id}/checkpoints`)).body.steps.length).toBeGreaterThan(0);
    const del = await api(srv.url, 'DELETE', `/api/runs/${id}`, {});
    expect(del.status).toBe(200);
    expect(del.body.deleted_events).toBeGreaterThan(5);
    expect(del.body.deleted_checkpoints).toBeGreaterThan(0);
    expect((await api(srv.url, 'GET', `/api/runs/${id}`)).status).toBe(404);
    expect((await api(srv.url, 'GET', `/api/runs/${id}/events`)).status).toBe(404);
    const list = (await api(srv.url, 'GET', '/api/runs')).body as { id: string }[];
    expect(list.some((r) => r.id === id)).toBe(false);
    expect((await api(srv.url, 'DELETE', `/api/runs/${id}`, {})).status).toBe(404);
  });

  it('filters the run list by graph name and status', async () => {
    const other = { ...demoGraph(2), name: 'other graph' };
    await api(srv.url, 'POST', '/api/navigate/run', { loop_definition: other, step_delay_ms: 0 });
    await untilStatus('done');
    const byGraph = (await api(srv.url, 'GET', `/api/runs?graph=${encodeURIComponent('other graph')}`))
      .body as { graph_name: string; status: string; kind: string }[];
    expect(byGraph.length).toBeGreaterThan(0);
    expect(byGraph.every((r) => r.graph_name === 'other graph' && r.kind === 'run')).toBe(true);
    const done = (await api(srv.url, 'GET', '/api/runs?status=done')).body as { status: string }[];
    expect(done.length).toBeGreaterThan(0);
    expect(done.every((r) => r.status === 'done')).toBe(true);
  });
});

describe('restore keeps the abandoned steps as a branch', () => {
  it('restoring step 20 of a 55-step run keeps steps 21–55 in a branch run that stays intact', async () => {
    const started = await api(srv.url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(55),
      step_delay_ms: 0,
    });
    const id = started.body.execution_id as string;
    await untilStatus('done');
    const before = await api(srv.url, 'GET', `/api/runs/${id}/state?step=40`);
    expect(before.status).toBe(200);
    const restored = await api(srv.url, 'POST', '/api/navigate/run/restore/20', {});
    expect(restored.body.restored_to).toBe(20);
    const info = (await api(srv.url, 'GET', `/api/runs/${id}`)).body;
    expect(info.branches).toHaveLength(1);
    const branch = info.branches[0] as {
      run_id: string;
      at_step: number;
      from_step: number;
      to_step: number;
    };
    expect(branch).toMatchObject({ of_run: id, at_step: 20, from_step: 21, to_step: 55 });
    // The branch is an ordinary run: listed (kind branch), its steps 21..55 in order, its state readable.
    const list = (await api(srv.url, 'GET', '/api/runs')).body as {
      id: string;
      kind: string;
      parent_run_id: string;
    }[];
    expect(list.find((r) => r.id === branch.run_id)).toMatchObject({ kind: 'branch', parent_run_id: id });
    expect(await navSteps(branch.run_id)).toEqual(Array.from({ length: 35 }, (_, i) => 21 + i));
    const at40 = await api(srv.url, 'GET', `/api/runs/${branch.run_id}/state?step=40`);
    expect(at40.body.containers).toEqual(before.body.containers);
    // Steps up to the branch point are the original's.
    expect((await api(srv.url, 'GET', `/api/runs/${branch.run_id}/state?step=10`)).status).toBe(200);
    const branchInfo = (await api(srv.url, 'GET', `/api/runs/${branch.run_id}`)).body;
    expect(branchInfo.branch_of).toMatchObject({ of_run: id, at_step: 20 });
    // Resume: the run re-runs 21..55; the branch is untouched.
    await api(srv.url, 'POST', '/api/navigate/run/resume', {});
    await untilStatus('done');
    expect(await navSteps(branch.run_id)).toHaveLength(35);
    // Restoring at the last step abandons nothing: no new branch.
    await api(srv.url, 'POST', '/api/navigate/run/restore/55', {});
    expect((await api(srv.url, 'GET', `/api/runs/${id}`)).body.branches).toHaveLength(1);
    // A second restore branches only what the current line abandons (the rerun 31..55).
    await api(srv.url, 'POST', '/api/navigate/run/restore/30', {});
    const two = (await api(srv.url, 'GET', `/api/runs/${id}`)).body.branches as { run_id: string }[];
    expect(two).toHaveLength(2);
    const second = two.find((b) => b.run_id !== branch.run_id)!;
    expect(await navSteps(second.run_id)).toEqual(Array.from({ length: 25 }, (_, i) => 31 + i));
    await api(srv.url, 'POST', '/api/navigate/run/stop', {});
  }, 60_000);
});

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [join(REPO, 'bin/statewire.js'), 'run', ...args], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('statewire run FILE --server URL', () => {
  it('runs the graph on the server: --json prints its log in seq order, the run is in the history', async () => {
    const file = join(ws.dir, 'graphs', 'cli_demo.json');
    writeFileSync(file, JSON.stringify({ ...demoGraph(), name: 'cli demo' }));
    const r = await cli([file, '--server', srv.url, '--json', '--steps', '7']);
    expect(r.code, r.err).toBe(0);
    const events = r.out
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            type: string;
            runId: string;
            seq: number;
            data: { step?: number; status?: string };
          },
      );
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === 'nav_step').map((e) => e.data.step)).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run_result', data: { status: 'stopped', steps: 7 } });
    const runId = events[0]!.runId;
    const row = (await api(srv.url, 'GET', `/api/runs/${runId}`)).body;
    expect(row).toMatchObject({ graph_name: 'cli demo', status: 'stopped', steps: 7 });
  }, 60_000);

  it('to the end without --json prints a line per step; exit 0; an invalid graph exits 2 with its issues', async () => {
    const file = join(ws.dir, 'graphs', 'cli_short.json');
    writeFileSync(file, JSON.stringify(demoGraph(4)));
    const ok = await cli([file, '--server', srv.url]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/^step 1 \|/m);
    expect(ok.out).toMatch(/run done after 4 steps/);
    const bad = join(ws.dir, 'graphs', 'cli_bad.json');
    const g = demoGraph(4);
    g.edges = [...g.edges, { ...g.edges[0]!, id: 'e_bad', target: 'nope' }];
    writeFileSync(bad, JSON.stringify(g));
    const refused = await cli([bad, '--server', srv.url]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('cli_bad.json: error');
    const unreachable = await cli([file, '--server', 'http://127.0.0.1:9']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toContain('cannot reach');
  }, 60_000);
});
