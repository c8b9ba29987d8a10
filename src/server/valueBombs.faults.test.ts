// Values that expand on the server (issue 27, items 7 and 11), against real `statewire serve`
// processes while a worker thread keeps asking `/api/health`:
// - at import: a 3 KB bundle whose blob k is {"a": blob k+1, "b": blob k+1} (30 levels: 2^29 leaves)
//   once answered 201 and then hung every reader; a blob that contains itself; a run that descends
//   from itself. Each is refused with a 4xx naming what and where, and nothing is written;
// - already in a database (imported before the limit existed): every reader refuses (413) or puts
//   an `error_event` in the bomb's place (same seq) instead of expanding it; a parent chain that
//   loops is a 409, not "Maximum call stack size exceeded"; SIGTERM still stops the server.
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../domain/protocol/protocol.ts';
import { closeDatabase, openDatabase } from './db/database.ts';
import { RunStore } from './db/runStore.ts';
import {
  bombBlobs,
  bombValue,
  makeBundle,
  navStep,
  nodeStatus,
  postBundle,
  TS,
} from './test/bundles.testutil.ts';
import { connectClient } from './test/liveClient.testutil.ts';
import { dbCounts, probeHealth } from './test/serverWatch.testutil.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from './test/serverProcess.testutil.ts';

/** A one-event run whose nav_step holds `nodeStates` (blob references allowed). */
const withNodeStates = (nodeStates: Record<string, unknown>, blobs: [number, string][], run = {}) =>
  makeBundle({ run, events: [[1, 'nav_step', TS, navStep(1, nodeStates)]], blobs });

describe('bundles whose values would expand on the server', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let server: ServerProcess;

  beforeAll(async () => {
    ws = tempWorkspace();
    server = await startServer(ws.dir);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    ws?.cleanup();
  });

  it('refuses a blob DAG that expands past 64 MB with 413 naming the path; health answers; nothing is written', async () => {
    const before = dbCounts(ws.dir);
    const probe = await probeHealth(server.url);
    for (const levels of [22, 30]) {
      const bundle = withNodeStates({ bomb: { $sw: 1 } }, bombBlobs(levels));
      expect(bundle.length).toBeLessThan(4096);
      const r = await postBundle(server.url, bundle);
      expect(r.status, JSON.stringify(r.body)).toBe(413);
      expect(r.body.error.code).toBe('value-too-large');
      // The deepest part that alone is still over the limit: a few levels below the reference.
      expect(r.body.error.path).toMatch(/^\$\.events\[0\]\.data\.nodeStates\.bomb(\.a)+$/);
      expect(r.body.error.message).toContain('64 MB');
      expect(r.body.error.message).toContain('--max-value-mb');
    }
    const health = await probe.stop();
    console.log(`DAG bombs (22, 30 levels) refused: health ${JSON.stringify(health)}`);
    expect(health.failures).toBe(0);
    expect(health.answers).toBeGreaterThan(0);
    expect(health.maxMs).toBeLessThan(1000);
    expect(dbCounts(ws.dir)).toEqual(before);
    expect((await api(server.url, 'GET', '/api/runs')).body).toEqual([]);
  });

  it('refuses a gzip bomb (170 MB of zeros in ~170 KB) with 413 before inflating it all', async () => {
    const bomb = gzipSync(Buffer.alloc(170 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const probe = await probeHealth(server.url);
    const r = await postBundle(server.url, bomb);
    const health = await probe.stop();
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('bundle-too-large');
    expect(health.maxMs).toBeLessThan(1000);
  });

  it('refuses a blob that contains itself (directly or through another) with 400 naming the blob', async () => {
    const before = dbCounts(ws.dir);
    for (const blobs of [
      [[1, '{"a":{"$sw":1},"pad":"this blob is its own child"}']],
      [
        [1, '{"next":{"$sw":2},"pad":"one half of a loop of two"}'],
        [2, '{"next":{"$sw":1},"pad":"the other half of the loop"}'],
      ],
    ] as [number, string][][]) {
      const r = await postBundle(server.url, withNodeStates({ loop: { $sw: 1 } }, blobs));
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error.code).toBe('blob-cycle');
      expect(r.body.error.path).toMatch(/^\$\.blobs\[[12]\]$/);
      expect(r.body.error.message).toContain('$.events[0].data');
    }
    expect(dbCounts(ws.dir)).toEqual(before);
  });

  it('refuses a run that descends from itself (its own parent, or A → B → A) with 400', async () => {
    const before = dbCounts(ws.dir);
    const self = await postBundle(
      server.url,
      withNodeStates({}, [], { id: 'selfish', parent_run_id: 'selfish', parent_step: 1 }),
    );
    expect(self.status, JSON.stringify(self.body)).toBe(400);
    expect(self.body.error).toMatchObject({ code: 'parent-cycle', path: '$.header.run.parent_run_id' });

    const a = await postBundle(
      server.url,
      withNodeStates({}, [], { id: 'loop_a', parent_run_id: 'loop_b', parent_step: 1 }),
    );
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const b = await postBundle(
      server.url,
      withNodeStates({}, [], { id: 'loop_b', parent_run_id: 'loop_a', parent_step: 1 }),
    );
    expect(b.status, JSON.stringify(b.body)).toBe(400);
    expect(b.body.error.code).toBe('parent-cycle');
    expect(b.body.error.message).toContain('loop_b → loop_a → loop_b');
    const after = dbCounts(ws.dir);
    expect(after.runs).toBe(before.runs! + 1);
    expect((await api(server.url, 'GET', '/api/runs')).body.map((r: { id: string }) => r.id)).toEqual([
      'loop_a',
    ]);
    // loop_a's parent is not here: its state comes from its own log.
    expect((await api(server.url, 'GET', '/api/runs/loop_a/state?step=1')).status).toBe(200);
  });
});

describe('expanding values already in a database', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let server: ServerProcess;

  beforeAll(async () => {
    ws = tempWorkspace();
    // Written as an older server would have stored them: no limit on the way in.
    const db = openDatabase(join(ws.dir, '.statewire', 'runs.db'));
    const store = new RunStore(db);
    const run = (id: string, parent: string | null) =>
      store.createRun({
        id,
        graphName: 'Grid Navigator',
        graph: demoGraph(5),
        status: 'done',
        startedAt: TS,
        parentRunId: parent,
        parentStep: parent ? 3 : null,
        lineage: id,
        freshEffects: false,
        stepDelayMs: 0,
      });
    const env = (runId: string, seq: number, type: string, data: unknown) =>
      ({ runId, seq, type, ts: TS, data }) as EventEnvelope;
    run('bomb_run', null);
    const bomb = bombValue(30);
    store.commit('bomb_run', {
      events: [
        env('bomb_run', 1, 'nav_status', { status: 'running', step: 0 }),
        env('bomb_run', 2, 'nav_step', navStep(1, { bomb })),
        env('bomb_run', 3, 'node_status', nodeStatus(3)[3]),
      ],
      checkpoint: { step: 1, state: { nodeStates: { bomb } } },
      steps: 1,
    });
    // 16 levels: ~3.6 MB expanded, over the 1 MB this server is started with (--max-value-mb 1).
    run('mid_run', null);
    store.commit('mid_run', { events: [env('mid_run', 1, 'nav_step', navStep(1, { big: bombValue(16) }))] });
    run('loop_a', 'loop_b');
    run('loop_b', 'loop_a');
    for (const id of ['loop_a', 'loop_b'])
      store.commit(id, { events: [env(id, 1, 'nav_step', navStep(1, {}))], steps: 1 });
    closeDatabase(db);
    server = await startServer(ws.dir, ['--max-value-mb', '1']);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    ws?.cleanup();
  });

  it('REST: the bomb event reads as an error_event at its seq; its state, restore and fork are 413', async () => {
    const probe = await probeHealth(server.url);
    const events = await api(server.url, 'GET', '/api/runs/bomb_run/events?limit=100');
    expect(events.status).toBe(200);
    expect(events.body.events.map((e: EventEnvelope) => [e.seq, e.type])).toEqual([
      [1, 'nav_status'],
      [2, 'error_event'],
      [3, 'node_status'],
    ]);
    expect(events.body.events[1].data).toMatchObject({
      code: 'value-too-large',
      severity: 'error',
      details: { event_type: 'nav_step', limit_bytes: 1024 * 1024 },
    });
    expect(events.body.events[1].data.message).toContain('event 2 (nav_step) of run bomb_run');
    // --max-value-mb 1 holds for a value the default would let through.
    const mid = await api(server.url, 'GET', '/api/runs/mid_run/events');
    expect(mid.body.events[0]).toMatchObject({ type: 'error_event', data: { code: 'value-too-large' } });

    const state = await api(server.url, 'GET', '/api/runs/bomb_run/state?step=1');
    expect(state.status).toBe(413);
    expect(state.body.error.code).toBe('value-too-large');
    expect(state.body.error.message).toContain('bomb_run');
    const restore = await api(server.url, 'POST', '/api/runs/bomb_run/restore', { step: 1 });
    expect(restore.status).toBe(413);
    expect(restore.body.error.message).toContain('checkpoint of step 1 of run bomb_run');
    const fork = await api(server.url, 'POST', '/api/runs/bomb_run/fork', { step: 1 });
    expect(fork.status).toBe(413);
    const health = await probe.stop();
    expect(health.failures).toBe(0);
    expect(health.maxMs).toBeLessThan(1000);
    // Nothing was made current, forked or restored.
    expect((await api(server.url, 'GET', '/api/runs')).body).toHaveLength(4);
  });

  it('socket.io: a subscribe replays the run with the error_event in the bomb’s place', async () => {
    const probe = await probeHealth(server.url);
    const client = await connectClient(server.url);
    try {
      const ack = (await client.subscribe({ runId: 'bomb_run', afterSeq: 0, fullValues: true })) as {
        ok: boolean;
        lastSeq: number;
      };
      expect(ack).toMatchObject({ ok: true, lastSeq: 3 });
      await waitFor(() => client.events.length >= 3, 10_000, 'the replay');
      expect(client.events.map((e) => [e.seq, e.type])).toEqual([
        [1, 'nav_status'],
        [2, 'error_event'],
        [3, 'node_status'],
      ]);
    } finally {
      client.close();
    }
    const health = await probe.stop();
    expect(health.maxMs).toBeLessThan(1000);
  });

  it('a parent chain that loops is a 409 naming the loop, not a stack overflow', async () => {
    const r = await api(server.url, 'GET', '/api/runs/loop_a/state?step=1');
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('parent-cycle');
    expect(r.body.error.message).toContain('loop_a → loop_b → loop_a');
    const writers = await api(server.url, 'GET', '/api/runs/loop_a/writers?step=1');
    expect(writers.status).toBe(200);
  });

  it('SIGTERM still stops the server at once', async () => {
    const t0 = Date.now();
    expect(await server.stop()).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });
});
