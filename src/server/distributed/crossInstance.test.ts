// Many viewers on many server instances: two in-process servers A and B in distributed mode (real
// Redis, real PostgreSQL) and one REAL `statewire worker` process. A batch is started through A's
// REST API; socket.io clients connected to B subscribe to an episode's run from seq 0 while the
// worker executes it and must receive every event of its log exactly once, in seq order, up to its
// run_result — the first part replayed from PostgreSQL, the rest relayed live from the worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { withoutFullValues } from '../socket/compact.ts';
import { batchEvents, connectClient, type RecordingClient } from '../test/liveClient.testutil.ts';
import { hasPostgres } from '../test/pgServer.ts';
import { hasRedis } from '../test/redisServer.ts';
import { api, demoGraph, waitFor } from '../test/serverProcess.testutil.ts';
import { startTeam, type Team } from '../test/teamServers.testutil.ts';
import { startWorkerProcess, type WorkerProcess } from '../test/workerProcess.testutil.ts';
import { wholeLog } from './remoteRuns.plugin.ts';
import { redactUrl } from './config.ts';

const STEPS = 150;

describe.skipIf(!hasRedis() || !hasPostgres())('a viewer on another server instance', () => {
  let team: Team;
  let worker: WorkerProcess | undefined;
  const clients: RecordingClient[] = [];

  const startInstance = async (name: string) => {
    const instance = await team.startInstance(name);
    // What `statewire serve` prints about the mode.
    expect(instance.server.distributed).toEqual({
      redis: redactUrl(team.redis.url),
      postgres: redactUrl(team.pg.url),
    });
    return instance;
  };

  beforeAll(async () => {
    team = await startTeam();
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await worker?.kill9();
    await team?.close();
  }, 120_000);

  it('follows an episode executed by a worker started through instance A, with no gap and no duplicate', async () => {
    const [a, b] = [await startInstance('a'), await startInstance('b')];
    expect((await api(a.url, 'GET', '/api/health')).body).toMatchObject({
      ok: true,
      mode: 'distributed',
      sqlite: 'up',
      redis: 'up',
      postgres: 'up',
      checks: { sqlite: { status: 'up' }, redis: { status: 'up' }, postgres: { status: 'up' } },
    });

    // Viewers on B before the batch exists: per-event previews (the app's client), full values, batches.
    const previews = await connectClient(b.url);
    const full = await connectClient(b.url);
    const batched = await connectClient(b.url);
    clients.push(previews, full, batched);
    const batches: EventEnvelope[][] = [];
    batched.socket.on('events', (batch: unknown, ack?: () => void) => {
      const list = batchEvents(batch);
      if (list.length > 0) batches.push(list);
      ack?.();
    });

    const start = await api(a.url, 'POST', '/api/batches', {
      loop_definition: demoGraph(STEPS),
      episodes: 2,
      seed: 3,
    });
    expect(start.status).toBe(202);
    const batchId = start.body.batch_id as string;
    const runId = `${batchId}_e1`;
    // The worker starts after the jobs are queued: episode 1 is taken as soon as it is ready.
    worker = await startWorkerProcess({ redisUrl: team.redis.url, databaseUrl: team.pg.url }, 'wx');

    // B does not have the run in its SQLite: it answers from PostgreSQL once the worker created it.
    const running = await waitFor(
      async () => {
        const r = await api(b.url, 'GET', `/api/runs/${runId}`);
        return r.status === 200 && r.body.last_seq > 0 && r.body.status === 'running' ? r.body : undefined;
      },
      60_000,
      'episode 1 running',
    );
    expect(running.id).toBe(runId);

    const acks = await Promise.all([
      previews.subscribe({ runId, afterSeq: 0 }),
      full.subscribe({ runId, afterSeq: 0, fullValues: true }),
      batched.subscribe({ runId, afterSeq: 0, batch: true }),
    ]);
    for (const ack of acks) expect(ack).toMatchObject({ ok: true, runId });
    const ackedSeq = (acks[0] as { lastSeq: number }).lastSeq;

    const ended = (events: EventEnvelope[]) => events.some((e) => e.type === 'run_result');
    await waitFor(
      () => ended(previews.events) && ended(full.events) && ended(batches.flat()),
      90_000,
      'run_result on every viewer',
    );
    const stored = await wholeLog(team.log, runId);
    const lastSeq = stored[stored.length - 1]!.seq;
    // Part of it really came live: the run was still going when the viewers subscribed.
    expect(ackedSeq).toBeLessThan(lastSeq);
    expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));

    // Every event exactly once, in order, as the log has it (previews: nav_step without full values).
    expect(full.events).toEqual(stored);
    expect(previews.events).toEqual(stored.map(withoutFullValues));
    expect(batches.flat()).toEqual(stored.map(withoutFullValues));
    expect(previews.errors).toEqual([]);

    // The run routes of B fall back to PostgreSQL for it.
    const events = await api(b.url, 'GET', `/api/runs/${runId}/events?after=10&limit=25`);
    expect(events.status).toBe(200);
    expect(events.body).toMatchObject({ run_id: runId, last_seq: lastSeq, next_after: 35 });
    expect(events.body.events).toEqual(stored.slice(10, 35));
    const state = await api(b.url, 'GET', `/api/runs/${runId}/state?step=5`);
    expect(state.status).toBe(200);
    const nav5 = stored.find((e) => e.type === 'nav_step' && (e.data as { step: number }).step === 5)!;
    expect(state.body).toMatchObject({
      step: 5,
      containers: (nav5.data as { containers: unknown }).containers,
    });
    expect((await api(b.url, 'GET', `/api/runs/${runId}/graph`)).body.name).toBe(demoGraph().name);
    // Who wrote each slot by step 5: the last state_written of each slot at or before it.
    const writers = await api(b.url, 'GET', `/api/runs/${runId}/writers?step=5`);
    expect(writers.status).toBe(200);
    const lastWrites = new Map<string, EventEnvelope>();
    for (const e of stored) {
      const d = e.data as { step: number; container: string; slot: string; key?: string };
      if (e.type === 'state_written' && d.step <= 5)
        lastWrites.set(`${d.container}/${d.slot}/${d.key ?? ''}`, e);
    }
    expect(lastWrites.size).toBeGreaterThan(0);
    for (const e of lastWrites.values()) {
      const d = e.data as { container: string; slot: string; key?: string; node_id: string };
      const w = (writers.body.writers as Array<Record<string, unknown>>).find(
        (x) => x.container === d.container && x.slot === d.slot && x.key === d.key,
      );
      // A later lifetime clear (a signal) may be the slot's "writer"; otherwise it is this node.
      if (w && w.signal === undefined) expect(w).toMatchObject({ node_id: d.node_id, seq: e.seq });
      else expect(w?.signal).toBeDefined();
    }
    expect((await api(b.url, 'GET', '/api/runs/no_such_run/events')).status).toBe(404);

    // Unknown everywhere: the hub's answer.
    expect(await previews.subscribe({ runId: 'no_such_run' })).toMatchObject({
      ok: false,
      error: { code: 'unknown-run' },
    });

    // The batch ends on A; B reads the same batch from PostgreSQL.
    await waitFor(
      async () => (await api(a.url, 'GET', `/api/batches/${batchId}`)).body.batch?.status === 'done',
      90_000,
      'batch done',
    );
    const onB = await api(b.url, 'GET', `/api/batches/${batchId}`);
    expect(onB.body.batch.status).toBe('done');
    expect(onB.body.episodes.map((r: { episode: number; status: string }) => [r.episode, r.status])).toEqual([
      [1, 'done'],
      [2, 'done'],
    ]);
    expect(await worker.stop()).toBe(0);
  }, 240_000);
});
