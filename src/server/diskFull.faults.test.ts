// A REAL full disk (issue 8.1): a real `statewire serve` whose workspace is on a 4 MB tmpfs that the
// test fills to the last byte. A save on a full disk must answer 507 `disk-full` and leave the old
// file byte-identical (no truncated graph renamed over it, no temp file left); a run cannot start
// (507, not SQLite's 500); a run that fills the disk mid-way ends `error` with the reason, and every
// step it committed stays inspectable and restorable once space is back.
// Needs permission to mount (root; CI runs as root). Without it one test reports why, visibly.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullLog } from './test/liveClient.testutil.ts';
import {
  api,
  DEMO_GRAPH_FILE,
  demoGraph,
  startServer,
  waitFor,
  type ServerProcess,
} from './test/serverProcess.testutil.ts';
import {
  fillDisk,
  freeBytes,
  freeSpace,
  mountTmpfs,
  tmpfsUnavailable,
  type Tmpfs,
} from './test/tmpfs.testutil.ts';

const SIZE = 4 * 1024 * 1024;
const unavailable = tmpfsUnavailable();

if (unavailable !== undefined) {
  describe('full disk (needs a tmpfs mount)', () => {
    it(`NOT RUN: cannot mount a tmpfs here (${unavailable})`, () => {
      console.warn(`diskFull.faults: not run — cannot mount a tmpfs: ${unavailable}`);
      // CI runs as root and must run these for real; only a developer without root may lack them.
      expect(process.env.CI, 'CI must be able to mount a tmpfs (run as root)').toBeFalsy();
    });
  });
} else {
  diskFullSuite();
}

function diskFullSuite(): void {
  let fs: Tmpfs;
  let ws = '';
  let graphsDir = '';
  let filler = '';
  let dbFile = '';
  let filled = 0;
  let srv: ServerProcess | undefined;

  const fill = () => (filled += fillDisk(filler));
  const freeAll = () => {
    filled = freeSpace(filler, Infinity, filled);
  };
  /** Starts a long demo run, waits until it has `steps` steps, then fills the disk; the run's id. */
  const runThenFillDisk = async (base: string, stepDelayMs: number, steps: number): Promise<string> => {
    const start = await api(base, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(100_000),
      step_delay_ms: stepDelayMs,
    });
    expect(start.status).toBe(200);
    const runId = start.body.execution_id as string;
    await waitFor(
      async () => (await api(base, 'GET', `/api/runs/${runId}`)).body.steps >= steps,
      20_000,
      `${steps} steps`,
    );
    fill();
    return runId;
  };
  const temps = () => readdirSync(graphsDir).filter((n) => n.endsWith('.tmp'));
  /** A graph file bigger than a few pages, so a nearly full disk gives a SHORT write, not ENOSPC. */
  const bigGraph = (tag: string) => ({ ...demoGraph(), description: `${tag} `.repeat(8000) });

  beforeAll(async () => {
    const mounted = mountTmpfs(SIZE);
    if ('error' in mounted) throw new Error(`cannot mount a tmpfs: ${mounted.error}`);
    fs = mounted;
    ws = join(fs.dir, 'ws');
    graphsDir = join(ws, 'graphs');
    filler = join(fs.dir, 'filler.bin');
    dbFile = join(ws, '.statewire', 'runs.db');
    mkdirSync(graphsDir, { recursive: true });
    copyFileSync(DEMO_GRAPH_FILE, join(graphsDir, 'grid_navigator.json'));
    mkdirSync(join(ws, 'dist'));
    writeFileSync(join(ws, 'dist', 'index.html'), '<!doctype html><div id="root"></div>\n');
    srv = await startServer(ws);
  });
  afterAll(async () => {
    await srv?.stop();
    fs?.unmount();
  });

  it('PUT on a full disk answers 507 disk-full; the saved graph stays byte-identical', async () => {
    const base = srv!.url;
    expect((await api(base, 'PUT', '/api/graphs/grid_navigator', bigGraph('old'))).status).toBe(200);
    const file = join(graphsDir, 'grid_navigator.json');
    const before = readFileSync(file);
    expect(before.length).toBeGreaterThan(40_000);

    fill();
    // Two free pages: the new 40 KB file starts writing, then the disk runs out (a short write).
    filled = freeSpace(filler, 8192, filled);
    expect(freeBytes(fs.dir)).toBeLessThan(before.length);
    const partial = await api(base, 'PUT', '/api/graphs/grid_navigator', bigGraph('new'));
    expect(partial.status).toBe(507);
    expect(partial.body.error.code).toBe('disk-full');
    expect(partial.body.error.message).toMatch(/disk is full/);
    expect(partial.body.error.message).not.toContain(fs.dir); // no absolute paths
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(temps()).toEqual([]);

    fill(); // not one byte left
    const none = await api(base, 'PUT', '/api/graphs/grid_navigator', bigGraph('new'));
    expect(none.status).toBe(507);
    expect(none.body.error.code).toBe('disk-full');
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(temps()).toEqual([]);
    // The file still parses and lists as the old graph.
    const got = await api(base, 'GET', '/api/graphs/grid_navigator');
    expect(got.status).toBe(200);
    expect(got.body.description).toMatch(/^old /);
  });

  it('POST on a full disk answers 507 and creates no file', async () => {
    const res = await api(srv!.url, 'POST', '/api/graphs', { ...bigGraph('x'), name: 'brand_new' });
    expect(res.status).toBe(507);
    expect(res.body.error.code).toBe('disk-full');
    expect(readdirSync(graphsDir).filter((n) => n.includes('brand_new'))).toEqual([]);
  });

  it('starting a run on a full disk answers 507 disk-full (not SQLite 500), no ghost run', async () => {
    const res = await api(srv!.url, 'POST', '/api/navigate/run', { loop_definition: demoGraph(50) });
    expect(res.status).toBe(507);
    expect(res.body.error.code).toBe('disk-full');
    expect(res.body.error.message).toMatch(/disk is full/);
    const status = (await api(srv!.url, 'GET', '/api/navigate/run/status')).body;
    expect(status.status).not.toBe('running');
  });

  it('with space back, the same save and a run succeed', async () => {
    freeAll();
    const base = srv!.url;
    const put = await api(base, 'PUT', '/api/graphs/grid_navigator', bigGraph('new'));
    expect(put.status).toBe(200);
    expect(JSON.parse(readFileSync(join(graphsDir, 'grid_navigator.json'), 'utf8')).description).toMatch(
      /^new /,
    );
    const run = await api(base, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(5),
      step_delay_ms: 0,
    });
    expect(run.status).toBe(200);
    await waitFor(
      async () => (await api(base, 'GET', `/api/runs/${run.body.execution_id}`)).body.status === 'done',
    );
  });

  it('a run that fills the disk mid-way ends error with the reason; its committed steps stay restorable', async () => {
    const base = srv!.url;
    const runId = await runThenFillDisk(base, 5, 5);
    const failed = await waitFor(
      async () => {
        const s = (await api(base, 'GET', '/api/navigate/run/status')).body;
        return s.status === 'error' ? s : undefined;
      },
      20_000,
      'the run to stop on the full disk',
    );
    expect(failed.execution_id).toBe(runId);
    expect(failed.error).toMatch(/disk is full/);
    const atFailure = (await api(base, 'GET', `/api/runs/${runId}`)).body;
    // The reason is in the log right away when the store took that small write; else at shutdown.
    console.info(`diskFull.faults: run stopped at step ${failed.step}; row ${atFailure.status} at failure`);

    freeAll();
    // With space back the server records the reason by itself (retried each second), no restart needed.
    const recorded = await waitFor(
      async () => {
        const r = (await api(base, 'GET', `/api/runs/${runId}`)).body;
        return r.status === 'error' ? r : undefined;
      },
      10_000,
      'the failure to be recorded',
    );
    expect(recorded.error).toMatch(/disk is full/);
    expect(await srv!.stop()).toBe(0);
    srv = await startServer(ws);
    const row = (await api(srv.url, 'GET', `/api/runs/${runId}`)).body;
    expect(row.status).toBe('error');
    expect(row.error).toMatch(/disk is full/);
    expect(row.steps).toBe(failed.step);
    expect(row.checkpoints).toEqual(Array.from({ length: row.steps }, (_, i) => i + 1));
    const log = await fullLog(srv.url, runId);
    expect(log.map((e) => e.seq)).toEqual(Array.from({ length: row.last_seq }, (_, i) => i + 1));
    const failure = log.find((e) => e.type === 'error_event');
    expect(failure?.data).toMatchObject({
      code: 'storage-failed',
      message: expect.stringMatching(/disk is full/),
    });
    expect(log.filter((e) => e.type === 'nav_status').at(-1)?.data).toMatchObject({ status: 'error' });
    expect(log.filter((e) => e.type === 'nav_step')).toHaveLength(row.steps);

    const db = new Database(dbFile, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();

    for (const step of [1, row.steps]) {
      const st = await api(srv.url, 'GET', `/api/runs/${runId}/state?step=${step}`);
      expect(st.status).toBe(200);
      expect(st.body.containers.graph_state.states.step_count.value).toBe(step);
    }
    const restored = await api(srv.url, 'POST', `/api/runs/${runId}/restore`, { step: row.steps });
    expect(restored.body).toEqual({ ok: true, run_id: runId, restored_to: row.steps });
    expect((await api(srv.url, 'POST', '/api/navigate/run/step')).body).toMatchObject({
      step: row.steps + 1,
    });
  });

  it('a run driven flat out (group commits between steps) ends error the same way, with no gap', async () => {
    // The group commit that hits the full disk is the one made between two steps (flushIfDue), not a
    // step's own: it used to reject the step loop's promise, which nothing awaited, and end the server.
    const base = srv!.url;
    const runId = await runThenFillDisk(base, 0, 40);
    const failed = await waitFor(
      async () => {
        const s = (await api(base, 'GET', '/api/navigate/run/status')).body;
        return s.execution_id === runId && s.status === 'error' ? s : undefined;
      },
      20_000,
      'the run to stop on the full disk',
    );
    expect(failed.error).toMatch(/disk is full/);
    freeAll();
    const row = await waitFor(
      async () => {
        const r = (await api(base, 'GET', `/api/runs/${runId}`)).body;
        return r.status === 'error' ? r : undefined;
      },
      10_000,
      'the failure to be recorded',
    );
    expect(row.error).toMatch(/disk is full/);
    expect(row.steps).toBe(failed.step);
    expect(row.checkpoints).toEqual(Array.from({ length: row.steps }, (_, i) => i + 1));
    const log = await fullLog(base, runId);
    expect(log.map((e) => e.seq)).toEqual(Array.from({ length: row.last_seq }, (_, i) => i + 1));
    expect(log.filter((e) => e.type === 'nav_step')).toHaveLength(row.steps);
    expect(log.find((e) => e.type === 'error_event')?.data).toMatchObject({ code: 'storage-failed' });
  });
}
