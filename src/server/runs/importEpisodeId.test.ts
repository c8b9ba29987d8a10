// An imported run never takes a batch episode's id (issue 31 item 5). A bundle whose run id is that
// of an episode still waiting in a running batch (`<batch>_e5`) used to keep it; the batch then
// found "its" run and adopted the read-only import, appending the episode's steps to it. Now the
// import gets a fresh `import_<time>_<hex>` id (its original id kept as `original_run_id`), the
// import stays exactly as imported, and episode 5 runs in a run of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StatewireServer } from '../app.ts';
import { makeBundle, nodeStatus, postBundle, TS } from '../test/bundles.testutil.ts';
import { api, demoGraph, waitFor } from '../test/serverProcess.testutil.ts';

const EPISODES = 5;
const STEPS = 12;

describe('a bundle imported under a pending batch episode id', () => {
  let server: StatewireServer;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statewire-import-ids-'));
    // One episode process: the episodes run one after another, episode 5 well after the import.
    server = await createServer({
      workspace: dir,
      port: 0,
      distDir: join(dir, 'dist'),
      maxWorkers: 1,
      distributed: null,
    });
    ({ url } = await server.listen());
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const allEvents = async (id: string) => (await api(url, 'GET', `/api/runs/${id}/events?limit=5000`)).body;

  it('gets a fresh id and is never adopted or appended to by the batch', async () => {
    const start = await api(url, 'POST', '/api/batches', {
      loop_definition: demoGraph(STEPS),
      episodes: EPISODES,
      workers: 1,
      seed: 5,
    });
    expect(start.status).toBe(202);
    const batchId = start.body.batch_id as string;
    const episodeId = `${batchId}_e5`;
    // Episode 5 has not started yet: no run of that id.
    expect((await api(url, 'GET', `/api/runs/${episodeId}`)).status).toBe(404);

    const events = [1, 2, 3].map(nodeStatus);
    const imported = await postBundle(
      url,
      makeBundle({ run: { id: episodeId, lineage: episodeId, last_seq: 3, steps: 1, ended_at: TS }, events }),
    );
    expect(imported.status).toBe(201);
    const importId = imported.body.run_id as string;
    expect(importId).toMatch(/^import_\d+_[0-9a-f]{7}$/);
    expect(imported.body.original_run_id).toBe(episodeId);
    const before = await allEvents(importId);
    expect(before.events).toHaveLength(3);
    // Still no run under the episode's id: the import did not take it.
    expect((await api(url, 'GET', `/api/runs/${episodeId}`)).status).toBe(404);

    const view = await waitFor(
      async () => {
        const r = await api(url, 'GET', `/api/batches/${batchId}`);
        return r.body.batch?.status === 'done' ? r.body : undefined;
      },
      120_000,
      'batch done',
    );
    // Episode 5 ran in its own run, from seq 1, to its end.
    const row = (
      view.episodes as Array<{ episode: number; run_id: string; status: string; steps: number }>
    ).find((r) => r.episode === 5)!;
    expect(row).toMatchObject({ run_id: episodeId, status: 'done' });
    const episodeLog = await allEvents(episodeId);
    const seqs = (episodeLog.events as Array<{ seq: number }>).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(episodeLog.events.filter((e: { type: string }) => e.type === 'restored')).toEqual([]);
    expect(episodeLog.events.at(-1).type).toBe('run_result');
    expect((await api(url, 'GET', `/api/runs/${episodeId}`)).body).toMatchObject({ status: 'done' });

    // The import is exactly as imported: nothing appended, still read-only, still done.
    expect(await allEvents(importId)).toEqual(before);
    const importRun = await api(url, 'GET', `/api/runs/${importId}`);
    expect(importRun.body).toMatchObject({ id: importId, status: 'done', last_seq: 3 });
  }, 180_000);
});
