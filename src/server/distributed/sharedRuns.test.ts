// One store when distributed (issue 31 item 1): two in-process server instances A and B on a real
// PostgreSQL and a real Redis. An interactive run started on A is forwarded to PostgreSQL
// (runForwarder.ts) with the same envelopes and checkpoints, so B lists it (filters and keyset
// paging), reads its events and state, follows it live, exports its bundle and forks it — the fork
// runs on B and A lists it. And PostgreSQL stopped in the middle of a run on A: once it is back,
// the run's PostgreSQL copy catches up to exactly A's log.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { PgRunLog } from '../db/pgRunLog.ts';
import { connectClient, fullLog, waitStatus, type RecordingClient } from '../test/liveClient.testutil.ts';
import { hasPostgres } from '../test/pgServer.ts';
import { hasRedis } from '../test/redisServer.ts';
import { api, demoGraph, waitFor } from '../test/serverProcess.testutil.ts';
import { startTeam, type Team, type TeamInstance } from '../test/teamServers.testutil.ts';
import { wholeLog } from './remoteRuns.plugin.ts';

describe.skipIf(!hasRedis() || !hasPostgres())('one store when distributed', () => {
  let team: Team;
  let log: PgRunLog;
  const clients: RecordingClient[] = [];
  let a: TeamInstance;
  let b: TeamInstance;

  const startRun = async (base: string, graph: unknown, stepDelayMs: number): Promise<string> => {
    const r = await api(base, 'POST', '/api/navigate/run', {
      loop_definition: graph,
      step_delay_ms: stepDelayMs,
    });
    expect(r.status).toBeLessThan(300);
    return r.body.execution_id as string;
  };

  /** Until PostgreSQL's copy of a run has A's last seq and status. */
  const forwarded = (runId: string, ms = 30_000) =>
    waitFor(
      async () => {
        const [local, remote] = [
          (await api(a.url, 'GET', `/api/runs/${runId}`)).body,
          await log.getRun(runId),
        ];
        return remote && remote.last_seq === local.last_seq && remote.status === local.status
          ? remote
          : undefined;
      },
      ms,
      `run ${runId} forwarded to PostgreSQL`,
    );

  /** Until PostgreSQL's copy of a run has at least `steps` steps. */
  const stepsInPostgres = (runId: string, steps: number) =>
    waitFor(
      async () => ((await log.getRun(runId))?.steps ?? 0) >= steps,
      20_000,
      'a few steps in PostgreSQL',
    );

  beforeAll(async () => {
    team = await startTeam(['a', 'b']);
    ({ log } = team);
    [a, b] = team.instances as [TeamInstance, TeamInstance];
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await team?.close();
  }, 120_000);

  it('a run started on A is listed, read, followed live, exported and forked on B', async () => {
    const graph = { ...demoGraph(40), name: 'shared_runs_demo' };
    // Viewer on B subscribed while the run is still going: part replayed, the rest live.
    const viewer = await connectClient(b.url);
    clients.push(viewer);
    const runId = await startRun(a.url, graph, 40);
    await waitFor(async () => (await log.getRun(runId))?.last_seq, 20_000, 'the run in PostgreSQL');
    const ack = (await viewer.subscribe({ runId, afterSeq: 0, fullValues: true })) as {
      ok: boolean;
      lastSeq: number;
    };
    expect(ack.ok).toBe(true);
    await waitStatus(a.url, runId, ['done'], 60_000);
    const local = await fullLog(a.url, runId);
    const lastSeq = local[local.length - 1]!.seq;
    expect(ack.lastSeq).toBeLessThan(lastSeq); // it really was followed while running
    await forwarded(runId);

    // PostgreSQL has the same envelopes (same seqs) and checkpoints as A's SQLite.
    expect(await wholeLog(log, runId)).toEqual(local);
    const cpA = (await api(a.url, 'GET', `/api/runs/${runId}/checkpoints`)).body.steps as number[];
    expect(cpA.length).toBeGreaterThan(0);
    expect(await log.checkpointSteps(runId)).toEqual(cpA);
    const stateA = (await api(a.url, 'GET', `/api/runs/${runId}/state?step=5`)).body;
    expect((await log.checkpoint(runId, 5))?.state).toBeDefined();

    // B's viewer got every event once, in order, up to the end.
    await waitFor(() => viewer.events.some((e) => e.type === 'run_result'), 20_000, 'run_result on B');
    expect(viewer.events).toEqual(local);

    // B reads it: row, events, state at a step, graph.
    const row = (await api(b.url, 'GET', `/api/runs/${runId}`)).body;
    expect(row).toMatchObject({ id: runId, status: 'done', last_seq: lastSeq, graph_name: graph.name });
    const page = (await api(b.url, 'GET', `/api/runs/${runId}/events?after=10&limit=20`)).body;
    expect(page.events as EventEnvelope[]).toEqual(local.slice(10, 30));
    expect((await api(b.url, 'GET', `/api/runs/${runId}/state?step=5`)).body).toEqual(stateA);
    expect((await api(b.url, 'GET', `/api/runs/${runId}/graph`)).body.name).toBe(graph.name);

    // Listed on B, with filters and keyset pages (a second run of another graph on A first).
    const other = await startRun(a.url, { ...demoGraph(3), name: 'shared_runs_other' }, 0);
    await waitStatus(a.url, other, ['done'], 30_000);
    await forwarded(other);
    const list = async (q: string) =>
      (await api(b.url, 'GET', `/api/runs${q}`)).body as Array<Record<string, unknown>>;
    const all = await list('');
    expect(all.map((r) => r.id)).toEqual(expect.arrayContaining([runId, other]));
    expect(all.find((r) => r.id === runId)).toMatchObject({ kind: 'run', batch: null, status: 'done' });
    expect((await list(`?graph=${graph.name}`)).map((r) => r.id)).toEqual([runId]);
    expect((await list('?graph=shared_runs_other&status=done')).map((r) => r.id)).toEqual([other]);
    expect(await list('?status=no_such_status')).toEqual([]);
    const first = await list('?limit=1');
    expect(first.map((r) => r.id)).toEqual([other]); // newest first
    const second = await list(`?limit=1&before=${encodeURIComponent(first[0]!.cursor as string)}`);
    expect(second.map((r) => r.id)).toEqual([runId]);
    const bad = await api(b.url, 'GET', '/api/runs?limit=501');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('$.query.limit');
    const badCursor = await api(b.url, 'GET', '/api/runs?before=nonsense');
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.message).toContain('$.query.before');
    expect((await api(b.url, 'GET', '/api/runs?kind=sideways')).status).toBe(400);

    // Exported from B (from PostgreSQL): importing that bundle on A gives back the same log.
    const res = await fetch(`${b.url}/api/runs/${runId}/bundle`);
    expect(res.status).toBe(200);
    const bundle = Buffer.from(await res.arrayBuffer());
    expect(gunzipSync(bundle).length).toBeGreaterThan(0);
    const imported = await fetch(`${a.url}/api/runs/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.statewire.bundle' },
      body: bundle,
    });
    expect(imported.status).toBe(201);
    const importedId = ((await imported.json()) as { run_id: string }).run_id;
    expect(importedId).not.toBe(runId); // A has the id: renamed
    expect((await fullLog(a.url, importedId)).map(({ runId: _r, ...e }) => e)).toEqual(
      local.map(({ runId: _r, ...e }) => e),
    );
    expect((await api(a.url, 'GET', `/api/runs/${importedId}/checkpoints`)).body.steps).toEqual(cpA);
    // The import on A reaches PostgreSQL as one too.
    await forwarded(importedId);
    expect((await list('?kind=imported')).map((r) => r.id)).toContain(importedId);

    // Forked on B: B copies the run from PostgreSQL, the fork runs on B, and A lists it.
    const fork = await api(b.url, 'POST', `/api/runs/${runId}/fork`, { step: 5, step_delay_ms: 0 });
    expect(fork.status).toBe(201);
    const forkId = fork.body.run_id as string;
    await waitStatus(b.url, forkId, ['done'], 60_000);
    const forkRow = await waitFor(
      async () => {
        const r = await api(a.url, 'GET', `/api/runs?kind=fork`);
        return (r.body as Array<{ id: string; status: string }>).find(
          (x) => x.id === forkId && x.status === 'done',
        );
      },
      30_000,
      'the fork listed on A',
    );
    expect(forkRow).toMatchObject({ parent_run_id: runId, parent_step: 5, kind: 'fork' });
    const forkLog = await fullLog(b.url, forkId);
    expect((await api(a.url, 'GET', `/api/runs/${forkId}/events?after=0&limit=5000`)).body.events).toEqual(
      forkLog,
    );
    // The copy on B is no new run: PostgreSQL's original is untouched and B still reads it from there.
    expect((await log.getRun(runId))?.last_seq).toBe(lastSeq);
    expect((await api(b.url, 'GET', `/api/runs/${runId}`)).body.last_seq).toBe(lastSeq);
    // One writer per run: B does not restore A's run.
    expect((await api(b.url, 'POST', `/api/runs/${runId}/restore`, { step: 5 })).status).toBe(409);
  }, 240_000);

  it('PostgreSQL stopped in the middle of a run on A: its copy catches up to exactly A’s log', async () => {
    const runId = await startRun(a.url, { ...demoGraph(60), name: 'shared_runs_outage' }, 30);
    await stepsInPostgres(runId, 3);
    await team.pg.halt('fast');
    // The run goes on in A's SQLite meanwhile.
    const before = (await api(a.url, 'GET', `/api/runs/${runId}`)).body.last_seq as number;
    await waitFor(
      async () => ((await api(a.url, 'GET', `/api/runs/${runId}`)).body.last_seq as number) > before + 20,
      20_000,
      'the run going on while PostgreSQL is down',
    );
    await team.pg.start();
    await waitStatus(a.url, runId, ['done'], 60_000);
    await forwarded(runId, 60_000);
    const local = await fullLog(a.url, runId);
    expect(await wholeLog(log, runId)).toEqual(local);
    expect(await log.checkpointSteps(runId)).toEqual(
      (await api(a.url, 'GET', `/api/runs/${runId}/checkpoints`)).body.steps,
    );
  }, 180_000);

  it('an instance stopped while PostgreSQL was down forwards what it lacks when it starts again', async () => {
    const runId = await startRun(a.url, { ...demoGraph(30), name: 'shared_runs_restart' }, 20);
    await stepsInPostgres(runId, 2);
    await team.pg.halt('immediate');
    await waitStatus(a.url, runId, ['done'], 60_000);
    const local = await fullLog(a.url, runId);
    await a.server.close(); // with the run's last steps in SQLite only
    await team.pg.start();
    expect((await log.getRun(runId))?.last_seq ?? 0).toBeLessThan(local[local.length - 1]!.seq);
    a = await team.startInstance({ name: 'a', workspace: a.dir });
    await forwarded(runId, 60_000);
    expect(await wholeLog(log, runId)).toEqual(local);
    expect((await log.getRun(runId))?.status).toBe('done');
  }, 180_000);
});
