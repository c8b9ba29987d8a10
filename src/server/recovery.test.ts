// Crash recovery against real processes: kill -9 a server mid-run, check the database is intact,
// start a new server on the same workspace, and find the run `interrupted` with every committed step
// inspectable, restorable (and resumable) and forkable. Also: a busy port is a clear non-zero exit.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullLog, waitStatus } from './test/liveClient.testutil.ts';
import {
  api,
  demoGraph,
  REPO,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from './test/serverProcess.testutil.ts';

let ws: ReturnType<typeof tempWorkspace>;
let second: ServerProcess | undefined;

beforeAll(() => {
  ws = tempWorkspace();
});
afterAll(async () => {
  await second?.stop();
  ws.cleanup();
});

function integrity(dbFile: string): string {
  const db = new Database(dbFile, { readonly: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

describe('crash recovery', () => {
  it('kill -9 mid-run: nothing committed is lost, the run is interrupted, restorable and forkable', async () => {
    const first = await startServer(ws.dir);
    const start = await api(first.url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(2000),
      step_delay_ms: 2,
    });
    const runId = start.body.execution_id as string;
    await waitFor(
      async () => (await api(first.url, 'GET', `/api/runs/${runId}`)).body.steps >= 15,
      20_000,
      '15 steps',
    );
    await first.kill9();

    const dbFile = join(ws.dir, '.statewire', 'runs.db');
    expect(integrity(dbFile)).toBe('ok');
    // What the crashed process had committed (read straight from the file, before the restart).
    const db = new Database(dbFile, { readonly: true });
    const committed = db.prepare('SELECT steps, last_seq FROM runs WHERE id = ?').get(runId) as {
      steps: number;
      last_seq: number;
    };
    db.close();
    expect(committed.steps).toBeGreaterThanOrEqual(15);

    second = await startServer(ws.dir);
    const base = second.url;
    const row = (await api(base, 'GET', `/api/runs/${runId}`)).body;
    expect(row).toMatchObject({
      status: 'interrupted',
      steps: committed.steps,
      last_seq: committed.last_seq,
    });
    expect(row.checkpoints).toEqual(Array.from({ length: committed.steps }, (_, i) => i + 1));
    const log = await fullLog(base, runId);
    expect(log.map((e) => e.seq)).toEqual(Array.from({ length: committed.last_seq }, (_, i) => i + 1));
    expect(log.filter((e) => e.type === 'nav_step')).toHaveLength(committed.steps);

    // every committed step is inspectable
    for (const step of [1, Math.floor(committed.steps / 2), committed.steps]) {
      const st = await api(base, 'GET', `/api/runs/${runId}/state?step=${step}`);
      expect(st.status).toBe(200);
      expect(st.body.containers.graph_state.states.step_count.value).toBe(step);
    }
    expect((await api(base, 'GET', `/api/runs/${runId}/state?step=${committed.steps + 5}`)).status).toBe(404);

    // forkable
    const fork = await api(base, 'POST', `/api/runs/${runId}/fork`, { step: 3, paused: true });
    expect(fork.status).toBe(201);
    expect((await api(base, 'POST', '/api/navigate/run/step')).body).toMatchObject({
      step: 4,
      status: 'paused',
    });
    expect((await api(base, 'GET', `/api/runs/${fork.body.run_id}/state?step=4`)).body).toEqual(
      (await api(base, 'GET', `/api/runs/${runId}/state?step=4`)).body,
    );

    // restorable into a new engine, paused, and resumable from there
    const restored = await api(base, 'POST', `/api/runs/${runId}/restore`, { step: committed.steps });
    expect(restored.body).toEqual({ ok: true, run_id: runId, restored_to: committed.steps });
    expect((await api(base, 'GET', '/api/navigate/run/status')).body).toMatchObject({
      status: 'paused',
      step: committed.steps,
      execution_id: runId,
    });
    expect((await api(base, 'POST', '/api/navigate/run/step')).body).toMatchObject({
      step: committed.steps + 1,
    });
    const after = await fullLog(base, runId);
    expect(after[committed.last_seq]).toMatchObject({ seq: committed.last_seq + 1 }); // seq continues, no reuse
    expect(after.find((e) => e.seq > committed.last_seq && e.type === 'restored')).toBeDefined();
    await api(base, 'POST', '/api/navigate/run/delay', { step_delay_ms: 0 });
    await api(base, 'POST', '/api/navigate/run/resume');
    await waitFor(
      async () => (await api(base, 'GET', `/api/runs/${runId}`)).body.steps >= committed.steps + 10,
      20_000,
      '10 more steps',
    );
    await api(base, 'POST', '/api/navigate/run/stop');
    await waitStatus(base, runId, ['stopped']);

    expect(await second.stop()).toBe(0);
    second = undefined;
    expect(integrity(dbFile)).toBe('ok');
  });

  it('a second server on a busy port says so and exits non-zero', async () => {
    const running = await startServer(ws.dir);
    try {
      const port = new URL(running.url).port;
      const r = spawnSync(
        process.execPath,
        [join(REPO, 'bin/statewire.js'), 'serve', '--port', port, '--workspace', ws.dir],
        {
          cwd: REPO,
          encoding: 'utf8',
          timeout: 90_000, // a loaded machine may take long to start the second server
        },
      );
      expect(r.status).not.toBe(0);
      expect(r.status).not.toBeNull();
      expect(r.stderr).toMatch(new RegExp(`port ${port} .*already in use`));
    } finally {
      expect(await running.stop()).toBe(0);
    }
  }, 120_000);
});
