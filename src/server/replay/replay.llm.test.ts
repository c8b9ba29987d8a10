// Replay of LLM calls through a real server (in process, real SQLite): a run of an llmCall loop and
// a fork of it replay identically over POST /api/runs/{id}/replay, answered from the recording; an
// edited prompt template is named at the first step it changes, and nothing is called for it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayVerdict } from '../../domain/protocol/replay.schema.ts';
import { createServer, type StatewireServer } from '../app.ts';
import { llmLoopGraph } from '../test/llmLoop.testutil.ts';
import { tempWorkspace, waitFor } from '../test/serverProcess.testutil.ts';

const STEPS = 6;
const graph = (template?: string) => llmLoopGraph('replay_llm', STEPS, template);

let server: StatewireServer;
let ws: ReturnType<typeof tempWorkspace>;

beforeAll(async () => {
  ws = tempWorkspace();
  server = await createServer({ workspace: ws.dir, distDir: join(ws.dir, 'no-dist') });
});
afterAll(async () => {
  await server.close();
  ws.cleanup();
});

async function call(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await server.app.inject({
    method,
    url,
    payload,
    headers: { 'content-type': 'application/json' },
  });
  return { status: res.statusCode, body: res.json() };
}
const done = (id: string) =>
  waitFor(async () => (await call('GET', `/api/runs/${id}`)).body.status === 'done', 15_000, `${id} done`);

describe('replay of recorded LLM calls', () => {
  let runId = '';

  it('a run replays identically, every LLM call answered from the recording', async () => {
    runId = (await call('POST', '/api/navigate/run', { loop_definition: graph(), step_delay_ms: 0 })).body
      .execution_id;
    await done(runId);
    const r = await call('POST', `/api/runs/${runId}/replay`, { verify: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body as ReplayVerdict).toMatchObject({
      ok: true,
      steps: STEPS,
      identical: STEPS,
      calls: { answered: STEPS, recorded: STEPS },
      message: `${STEPS} steps identical`,
    });
  });

  it('a fork replays from its fork step with its parent’s recorded answers', async () => {
    const fork = (await call('POST', `/api/runs/${runId}/fork`, { step: 2, step_delay_ms: 0 })).body
      .run_id as string;
    await done(fork);
    const r = await call('POST', `/api/runs/${fork}/replay`, { verify: true });
    expect(r.body as ReplayVerdict).toMatchObject({ ok: true, steps: STEPS - 2, identical: STEPS - 2 });
  });

  it('an edited template is named at step 1 with the request field that changed', async () => {
    const r = await call('POST', `/api/runs/${runId}/replay`, {
      verify: true,
      graph: graph('Goal: {instruction}!'),
    });
    const v = r.body as ReplayVerdict;
    expect(v.ok).toBe(false);
    expect(v.difference).toMatchObject({ kind: 'call', node_id: 'think', step: 1 });
    expect(v.message).toBe(
      `no recorded answer for node 'think' at step 1: its request differs: prompt "Goal: find the door. Next move?" → "Goal: find the door!"`,
    );
  });

  it('refuses an unknown run (404) and a bad body (400)', async () => {
    expect((await call('POST', '/api/runs/nope/replay', {})).status).toBe(404);
    expect((await call('POST', `/api/runs/${runId}/replay`, { verify: 'yes' })).status).toBe(400);
  });
});
