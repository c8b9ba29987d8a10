// Adaptive group commit (runManager + liveRun), on a real server (real SQLite, real socket.io):
// back-to-back steps at step_delay_ms 0 share transactions and batches, a step that waits (on I/O, a
// timer…) first commits and publishes the finished steps staged before it, and a paced run commits
// each step before the next one starts. A workspace plugin node calls a hook the test installs on
// globalThis (the plugin runs in this process), so the test decides when a step may finish instead
// of timing anything.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { createServer, type StatewireServer } from '../app.ts';
import { batchEvents, connectClient, fullLog } from '../test/liveClient.testutil.ts';
import { api, tempWorkspace, waitFor } from '../test/serverProcess.testutil.ts';

type StepHook = (step: number) => Promise<void> | void;
const hooks = globalThis as { __groupCommitHook?: StepHook };

const PLUGIN = `export default {
  spec: { type: 'hookStep', display_name: 'Hook step', input_ports: [{ name: 'value', optional: true }],
    output_ports: [{ name: 'value' }] },
  handler: async (inputs, ctx) => {
    await globalThis.__groupCommitHook?.(ctx.step);
    return { value: inputs.value };
  },
};
`;

function graph(steps: number) {
  return {
    name: 'group-commit',
    step_budget: steps,
    eval_graph: false,
    nodes: [
      { id: 'in', type: 'iterIn', config: { version: 3, pairedWith: 'out', initPorts: [] } },
      { id: 'h', type: 'hookStep', config: {} },
      { id: 'out', type: 'iterOut', config: { pairedWith: 'in', ports: [{ name: 'v', persist: true }] } },
    ],
    edges: [
      { id: 'e1', source: 'in', target: 'h', sourceHandle: 'step', targetHandle: 'value' },
      { id: 'e2', source: 'h', target: 'out', sourceHandle: 'value', targetHandle: 'v' },
    ],
    containers: [],
    access_grants: [],
  };
}

let server: StatewireServer;
let url: string;
let ws: ReturnType<typeof tempWorkspace>;

beforeAll(async () => {
  ws = tempWorkspace();
  mkdirSync(join(ws.dir, 'nodes'), { recursive: true });
  writeFileSync(join(ws.dir, 'nodes', 'hookStep.mjs'), PLUGIN);
  // Port 0: the default port may be taken (a running `npm start`).
  server = await createServer({ workspace: ws.dir, distDir: join(ws.dir, 'no-dist'), port: 0 });
  url = (await server.listen()).url;
});
afterAll(async () => {
  hooks.__groupCommitHook = undefined;
  await server.close();
  ws.cleanup();
});

async function start(steps: number, delayMs: number): Promise<string> {
  const r = await api(url, 'POST', '/api/navigate/run', {
    loop_definition: graph(steps),
    step_delay_ms: delayMs,
  });
  expect(r.status).toBe(200);
  return r.body.execution_id as string;
}

const navSteps = (events: readonly EventEnvelope[]) =>
  events.filter((e) => e.type === 'nav_step').map((e) => (e.data as { step: number }).step);

async function runEnded(runId: string): Promise<void> {
  await waitFor(
    async () => (await api(url, 'GET', `/api/runs/${runId}`)).body.status === 'done',
    30_000,
    'run done',
  );
}

describe('adaptive group commit', () => {
  it('at step_delay_ms 0, back-to-back steps share commits: fewer batches than steps, log complete', async () => {
    hooks.__groupCommitHook = undefined; // every step runs straight through
    const client = await connectClient(url);
    let batches = 0;
    const seen: EventEnvelope[] = [];
    client.socket.on('events', (b: unknown) => {
      batches++;
      seen.push(...batchEvents(b));
    });
    await client.subscribe({ batch: true });
    const runId = await start(200, 0);
    await runEnded(runId);
    const log = await fullLog(url, runId);
    await waitFor(() => seen.length >= log.length, 10_000, 'every event');
    client.close();
    expect(navSteps(log)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(seen.map((e) => e.seq)).toEqual(log.map((e) => e.seq));
    // Grouped: a batch per commit, and a commit holds many steps.
    expect(batches).toBeLessThan(100);
  });

  it('at step_delay_ms 0, a step that waits commits and publishes the finished steps before it', async () => {
    let release: (() => void) | undefined;
    let waiting = false;
    hooks.__groupCommitHook = (step) => {
      if (step !== 6) return; // steps 1–5 finish back to back (staged for one commit)
      waiting = true;
      return new Promise<void>((r) => (release = r));
    };
    const client = await connectClient(url);
    const seen: EventEnvelope[] = [];
    client.socket.on('events', (b: unknown) => seen.push(...batchEvents(b)));
    await client.subscribe({ batch: true });
    const runId = await start(10, 0);
    try {
      await waitFor(() => waiting, 10_000, 'step 6 to wait');
      // Step 6 is still in flight: steps 1–5 must be in the log and with the viewer already.
      await waitFor(() => navSteps(seen).length === 5, 10_000, 'steps 1–5 published');
      expect(navSteps(await fullLog(url, runId))).toEqual([1, 2, 3, 4, 5]);
      expect((await api(url, 'GET', `/api/runs/${runId}`)).body.steps).toBe(5);
    } finally {
      release?.(); // never leave the run stuck for the next test
    }
    await runEnded(runId);
    const log = await fullLog(url, runId);
    await waitFor(() => seen.length >= log.length, 10_000, 'every event');
    client.close();
    // No gap, no duplicate across the early commit: the log is contiguous and the viewer saw it once.
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    expect(seen.map((e) => e.seq)).toEqual(log.map((e) => e.seq));
    expect(navSteps(log)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('a paced run commits each step before the next one starts', async () => {
    let runId = '';
    const committedAtStart: Array<{ step: number; logged: number[] }> = [];
    hooks.__groupCommitHook = async (step) => {
      if (runId === '') return;
      committedAtStart.push({ step, logged: navSteps(await fullLog(url, runId)) });
    };
    runId = await start(6, 5);
    await runEnded(runId);
    hooks.__groupCommitHook = undefined;
    const seenSteps = committedAtStart.filter((c) => c.step > 1);
    expect(seenSteps.length).toBeGreaterThan(0);
    for (const c of seenSteps) expect(c.logged).toEqual(Array.from({ length: c.step - 1 }, (_, i) => i + 1));
  });
});
