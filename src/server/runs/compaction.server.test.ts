// A run's end triggers compaction on a real `statewire serve`: while the server keeps running, the
// finished run's blobs are packed into segments and its pages re-packed; its log and its state at
// every step read the same over REST right after the end (compaction may be running), once it is
// compacted, and after a restart; a restore from the compacted run starts from the same state.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullLog } from '../test/liveClient.testutil.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../test/serverProcess.testutil.ts';

const STEPS = 40;

let ws: ReturnType<typeof tempWorkspace>;
let srv: ServerProcess | undefined;
beforeAll(() => {
  ws = tempWorkspace();
});
afterAll(async () => {
  await srv?.stop();
  ws.cleanup();
});

/** Whether the database file holds the run compacted: one blob row left, no per-step page. */
function compacted(): boolean {
  const db = new Database(join(ws.dir, '.statewire', 'runs.db'), { readonly: true });
  try {
    const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return (
      n('SELECT COUNT(*) AS n FROM blobs') <= 1 &&
      n('SELECT COUNT(*) AS n FROM blob_segments') > 0 &&
      n("SELECT COUNT(*) AS n FROM event_pages WHERE substr(data, 1, 1) != x'ff'") === 0
    );
  } finally {
    db.close();
  }
}

async function readRun(url: string, runId: string): Promise<{ log: unknown[]; states: unknown[] }> {
  const states: unknown[] = [];
  for (let step = 1; step <= STEPS; step += 3)
    states.push((await api(url, 'GET', `/api/runs/${runId}/state?step=${step}`)).body);
  return { log: await fullLog(url, runId), states };
}

describe('compaction after a run ends (statewire serve)', () => {
  it('packs the finished run in the background; REST reads and restores are unchanged', async () => {
    srv = await startServer(ws.dir);
    const start = await api(srv.url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(STEPS),
      step_delay_ms: 0,
    });
    const runId = start.body.execution_id as string;
    await waitFor(
      async () => (await api(srv!.url, 'GET', `/api/runs/${runId}`)).body.status === 'done',
      60_000,
      'the run to end',
    );
    const first = await readRun(srv.url, runId);
    expect(first.log.length).toBeGreaterThan(STEPS * 10);
    // Compacted by the running server (the end of the run triggered it), not by the shutdown.
    await waitFor(() => Promise.resolve(compacted()), 30_000, 'compaction');
    expect(await readRun(srv.url, runId)).toEqual(first);

    await srv.stop();
    srv = await startServer(ws.dir);
    expect(await readRun(srv.url, runId)).toEqual(first);
    const restored = await api(srv.url, 'POST', `/api/runs/${runId}/restore`, { step: 10 });
    expect(restored.status).toBe(200);
    const now = await api(srv.url, 'GET', `/api/runs/${runId}/state?step=10`);
    expect(now.body).toEqual(first.states[3]);
  }, 120_000);
});
