// Re-run without paying twice (docs/replay.md), on a real `statewire serve` calling a real HTTP node
// service in this process that counts what reaches it (test/tallyService.testutil.ts): a run of 6
// steps calls `tick` every step and `late` from step 4. A fork from step 1 (a loop's first checkpoint) whose graph changes only
// late's config is previewed (reused count, live from step 4, the config change named) and then run:
// exactly the previewed calls are answered from the recording — none of them reaches the service —
// the first step that differs runs live as a whole, and every call after it, the fork's log marks the reused calls with where
// they came from, and the fork replays and verifies on its own. A fork with the graph unchanged
// reuses every call: nothing reaches the service.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { ForkPreview } from '../../domain/protocol/replay.schema.ts';
import { waitStatus } from '../test/liveClient.testutil.ts';
import { startTallyService, tallyGraph, type TallyService } from '../test/tallyService.testutil.ts';
import {
  api,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../test/serverProcess.testutil.ts';

const STEPS = 6;
let ws: ReturnType<typeof tempWorkspace>;
let server: ServerProcess;
let service: TallyService;
let parent = '';
let parentCalls = 0;

type Effect = {
  step: number;
  node_id: string;
  key: string;
  mode: string;
  from?: { run_id: string; key: string };
};

/** Until the run has ended, whichever way. */
const ended = (runId: string) => waitStatus(server.url, runId, ['done', 'error', 'stopped'], 60_000);
/** What a fork of `runId` from `body.step` would reuse (it calls nothing). */
const previewFork = (body: object, runId = parent) =>
  api(server.url, 'POST', `/api/runs/${runId}/fork/preview`, body);
async function effects(runId: string): Promise<Effect[]> {
  const { body } = await api(server.url, 'GET', `/api/runs/${runId}/events?type=effect&limit=5000`);
  return (body.events as EventEnvelope[]).map((e) => e.data as Effect);
}
async function forkAndRun(body: object): Promise<string> {
  const r = await api(server.url, 'POST', `/api/runs/${parent}/fork`, { ...body, step_delay_ms: 0 });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const id = r.body.run_id as string;
  await ended(id);
  expect((await api(server.url, 'GET', `/api/runs/${id}`)).body.status).toBe('done');
  return id;
}

beforeAll(async () => {
  ws = tempWorkspace();
  service = await startTallyService();
  writeFileSync(
    join(ws.dir, 'services.json'),
    JSON.stringify({ services: [{ name: 'tally', url: service.url, encoding: 'json' }] }),
  );
  server = await startServer(ws.dir);
  await waitFor(
    async () => (await api(server.url, 'GET', '/api/services')).body.services[0]?.state === 'up',
    30_000,
    'the tally service',
  );
  const start = await api(server.url, 'POST', '/api/navigate/run', {
    loop_definition: tallyGraph(STEPS),
    step_delay_ms: 0,
  });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  parent = start.body.execution_id as string;
  await ended(parent);
  parentCalls = service.calls.length;
}, 90_000);
afterAll(async () => {
  await server?.stop();
  service?.close();
  ws?.cleanup();
});

describe('a fork reuses its parent recorded calls until the first that differs', () => {
  it('the run calls tick every step and late from step 4', async () => {
    const recorded = await effects(parent);
    expect(recorded.map((e) => `${e.step}:${e.node_id}`)).toEqual([
      '1:tick',
      '2:tick',
      '3:tick',
      '4:tick',
      '4:late',
      '5:tick',
      '5:late',
      '6:tick',
      '6:late',
    ]);
    expect(recorded.every((e) => e.mode === 'recorded')).toBe(true);
    expect(parentCalls).toBe(9);
  });

  it('late with another k, forked from step 1: the preview says 2 reused, live from step 4, and the fork does that', async () => {
    const body = { step: 1, graph: tallyGraph(STEPS, 3) };
    const preview = (await previewFork(body)) as {
      status: number;
      body: ForkPreview;
    };
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({
      run_id: parent,
      step: 1,
      reused: 2,
      recorded: 8,
      recorded_until_step: 6,
      live_from_step: 4,
      node_id: 'late',
      reason: "node 'late': its config differs: k 2 → 3",
      message: "2 calls reused, from step 4 live: node 'late': its config differs: k 2 → 3",
    });
    // The preview called nothing.
    expect(service.calls.length).toBe(parentCalls);

    const fork = await forkAndRun(body);
    const reached = service.calls.slice(parentCalls);
    console.log(
      `fork with late.k edited: preview ${preview.body.reused} reused / live from step ${preview.body.live_from_step}; ${reached.length} calls reached the service`,
    );
    // Steps 2–3's ticks never reach the service; step 4, the first that differs, runs live as a whole.
    expect(reached.map((c) => `${c.step}:${c.node_id}`)).toEqual([
      '4:tick',
      '4:late',
      '5:tick',
      '5:late',
      '6:tick',
      '6:late',
    ]);
    // The live step meets the service's state as the parent left it after step 3 (put back before
    // step 4: the reused steps never reached the service), so tick@4 counts as the parent's did.
    expect(reached[0]!.count).toBe(4);
    expect(service.calls.find((c) => c.step === 4 && c.node_id === 'tick')!.count).toBe(4);
    const log = await effects(fork);
    const reused = log.filter((e) => e.mode === 'reused');
    expect(reused.length).toBe(preview.body.reused);
    expect(reused.map((e) => `${e.step}:${e.node_id}`)).toEqual(['2:tick', '3:tick']);
    const parentKeys = new Map((await effects(parent)).map((e) => [`${e.step}:${e.node_id}`, e.key]));
    expect(reused.map((e) => e.from)).toEqual(
      reused.map((e) => ({ run_id: parent, key: parentKeys.get(`${e.step}:${e.node_id}`) })),
    );
    // tick@4 and tick@5 ask the same as the parent's, but from the differing step on nothing is reused.
    expect(log.filter((e) => e.mode !== 'reused').map((e) => [`${e.step}:${e.node_id}`, e.mode])).toEqual([
      ['4:tick', 'recorded'],
      ['4:late', 'recorded'],
      ['5:tick', 'recorded'],
      ['5:late', 'recorded'],
      ['6:tick', 'recorded'],
      ['6:late', 'recorded'],
    ]);
    // The fork's own recording answers its own replay: it verifies with nothing called.
    const before = service.calls.length;
    const verdict = await api(server.url, 'POST', `/api/runs/${fork}/replay`, { verify: true });
    expect(verdict.body, JSON.stringify(verdict.body)).toMatchObject({ ok: true, calls: { answered: 8 } });
    expect(service.calls.length).toBe(before);
  }, 60_000);

  it('a fork with the graph unchanged reuses every call: nothing reaches the service', async () => {
    const preview = (await previewFork({ step: 1 })).body as ForkPreview;
    expect(preview).toMatchObject({
      reused: 8,
      recorded: 8,
      live_from_step: null,
      message: '8 calls reused: every recorded call after step 1 is unchanged',
    });
    const before = service.calls.length;
    const fork = await forkAndRun({ step: 1 });
    const log = await effects(fork);
    console.log(
      `unchanged fork: ${log.filter((e) => e.mode === 'reused').length} reused, ${service.calls.length - before} calls reached the service`,
    );
    expect(service.calls.length - before).toBe(0);
    expect(log.map((e) => e.mode)).toEqual(Array(8).fill('reused'));
    expect((await api(server.url, 'GET', `/api/runs/${fork}/state?step=6`)).body).toEqual(
      (await api(server.url, 'GET', `/api/runs/${parent}/state?step=6`)).body,
    );
  }, 60_000);

  it('a fork from a later step reuses only what comes after it; fresh_effects reuses nothing', async () => {
    const preview = (await previewFork({ step: 4 })).body as ForkPreview;
    expect(preview).toMatchObject({ reused: 4, recorded: 4, live_from_step: null });
    const before = service.calls.length;
    await forkAndRun({ step: 4 });
    expect(service.calls.length - before).toBe(0);
    await forkAndRun({ step: 4, fresh_effects: true });
    expect(service.calls.slice(before).map((c) => `${c.step}:${c.node_id}`)).toEqual([
      '5:tick',
      '5:late',
      '6:tick',
      '6:late',
    ]);
  }, 60_000);

  it('a run with no recorded calls after the step, an unknown run, a graph with other containers', async () => {
    const none = (await previewFork({ step: 6 })).body as ForkPreview;
    expect(none).toMatchObject({
      reused: 0,
      recorded: 0,
      recorded_until_step: null,
      live_from_step: null,
      message: 'no recorded calls after step 6: every call of the fork is live',
    });
    const unknown = await previewFork({ step: 1 }, 'nope');
    expect(unknown.status).toBe(404);
    const g = tallyGraph(STEPS);
    (g.containers as unknown[]).push({ id: 'extra', states: {} });
    const other = await previewFork({ step: 1, graph: g });
    expect(other.status).toBe(409);
    expect(other.body.error.message).toContain("container 'extra' is new");
  }, 60_000);
});
