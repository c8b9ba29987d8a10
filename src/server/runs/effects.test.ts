// Recorded effects (docs/architecture.md "Run state and durability") through the server: every llmCall is stored under a stable key; a restore
// that re-executes the same node at the same step with the same inputs replays the stored response
// (`effect` event mode `replayed`), a fork reuses its parent's (mode `reused`, docs/replay.md "Re-run
// without paying twice"), unless the run asked for fresh calls.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { BlobStore } from '../db/blobStore.ts';
import { recordedCalls } from '../db/effectStore.ts';
import { createServer, type StatewireServer } from '../app.ts';
import { llmLoopGraph } from '../test/llmLoop.testutil.ts';
import { tempWorkspace, waitFor } from '../test/serverProcess.testutil.ts';

const GRAPH = llmLoopGraph('effects', 6);

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
  const headers = method === 'POST' ? { 'content-type': 'application/json' } : {};
  const res = await server.app.inject({ method, url, payload, headers });
  return { status: res.statusCode, body: res.json() };
}
const done = (id: string) =>
  waitFor(
    async () => ['done', 'error'].includes((await call('GET', `/api/runs/${id}`)).body.status),
    15_000,
    `${id} done`,
  );
async function effects(id: string): Promise<Array<{ step: number; key: string; mode: string }>> {
  const { body } = await call('GET', `/api/runs/${id}/events?type=effect&limit=5000`);
  return (body.events as EventEnvelope[]).map((e) => e.data as { step: number; key: string; mode: string });
}

describe('recorded effects', () => {
  let parent: string;
  let recorded: Array<{ step: number; key: string; mode: string }>;

  it('a first run records every llmCall durably', async () => {
    parent = (await call('POST', '/api/navigate/run', { loop_definition: GRAPH, step_delay_ms: 0 })).body
      .execution_id;
    await done(parent);
    expect((await call('GET', `/api/runs/${parent}`)).body.status).toBe('done');
    recorded = await effects(parent);
    expect(recorded).toHaveLength(6);
    expect(recorded.every((e) => e.mode === 'recorded')).toBe(true);
    expect(new Set(recorded.map((e) => e.key)).size).toBe(6);
    const db = new Database(join(ws.dir, '.statewire', 'runs.db'), { readonly: true });
    // The stored form: blob roots (content-addressed), read back through recordedCalls.
    const rows = recordedCalls(db, new BlobStore(db), parent);
    db.close();
    expect(rows.map((r) => r.key).sort()).toEqual(recorded.map((e) => e.key).sort());
    expect(rows[0]!.request).toHaveProperty('provider');
    expect(rows.map((r) => [r.kind, r.node_id])).toEqual(Array(6).fill(['llm', 'think']));
    expect(rows.map((r) => r.step).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    // Keys say where the call happened: lineage:step[.iteration]:node:n:hash.
    expect(rows.every((r) => r.key.startsWith(`${parent}:${r.step}`) && r.key.includes(':think:0:'))).toBe(
      true,
    );
    expect(rows.every((r) => r.response !== undefined)).toBe(true);
  });

  it("a fork reuses the parent's recorded answers, recorded again as its own", async () => {
    const fork = (await call('POST', `/api/runs/${parent}/fork`, { step: 2, step_delay_ms: 0 })).body.run_id;
    await done(fork);
    const reused = (await effects(fork)) as Array<{
      key: string;
      mode: string;
      from?: { run_id: string; key: string };
    }>;
    expect(reused.map((e) => e.mode)).toEqual(['reused', 'reused', 'reused', 'reused']);
    const parentKeys = recorded.filter((e) => e.step > 2).map((e) => e.key);
    expect(reused.map((e) => e.from)).toEqual(parentKeys.map((key) => ({ run_id: parent, key })));
    // Its own lineage: the same places (step, node, n, request hash) under the fork's id.
    expect(reused.map((e) => e.key)).toEqual(parentKeys.map((k) => `${fork}${k.slice(parent.length)}`));
    const db = new Database(join(ws.dir, '.statewire', 'runs.db'), { readonly: true });
    const own = recordedCalls(db, new BlobStore(db), fork);
    db.close();
    expect(own.map((c) => [c.run_id, c.reused_from?.run_id])).toEqual(Array(4).fill([fork, parent]));
    expect((await call('GET', `/api/runs/${fork}/state?step=6`)).body).toEqual(
      (await call('GET', `/api/runs/${parent}/state?step=6`)).body,
    );
  });

  it('fresh_effects: true calls again (and records again)', async () => {
    const fork = (
      await call('POST', `/api/runs/${parent}/fork`, { step: 4, step_delay_ms: 0, fresh_effects: true })
    ).body.run_id;
    await done(fork);
    expect((await effects(fork)).map((e) => e.mode)).toEqual(['recorded', 'recorded']);
  });

  it('a restore then resume replays too', async () => {
    expect((await call('POST', `/api/runs/${parent}/restore`, { step: 3 })).body).toMatchObject({
      ok: true,
      restored_to: 3,
    });
    const before = (await effects(parent)).length;
    await call('POST', '/api/navigate/run/resume');
    await done(parent);
    const after = (await effects(parent)).slice(before);
    expect(after.map((e) => e.mode)).toEqual(['replayed', 'replayed', 'replayed']);
  });
});
