// GET /api/runs/{id}/writers?step=N against a real server and SQLite log (the demo graph): the last
// writer per slot up to a step, a step re-run after Restore, a fork's early writers from its parent.
import { afterAll, describe, expect, it } from 'vitest';
import type { SlotWriter } from '../../domain/debug/stateDiff.ts';
import { injectServer } from '../test/injectServer.testutil.ts';
import { demoGraph, tempWorkspace } from '../test/serverProcess.testutil.ts';

const ws = tempWorkspace();
const { req, close } = injectServer(ws.dir);
afterAll(async () => {
  await close();
  ws.cleanup();
});

/** `goal` and `step_count` of the demo's blackboard: who wrote them, at which step, in which run. */
const writers = async (id: string, step: number) => {
  const all = (await req(`/api/runs/${id}/writers?step=${step}`)).body.writers as SlotWriter[];
  const of = (slot: string) => all.find((w) => w.container === 'graph_state' && w.slot === slot);
  const text = (w: SlotWriter | undefined) =>
    w && `${w.node_id}@${w.step}${w.run_id === id ? '' : ' (parent)'}`;
  return { goal: text(of('goal')), step_count: text(of('step_count')) };
};
const stepOnce = () => req('/api/navigate/run/step', {});

describe('GET /api/runs/{id}/writers', () => {
  it('names the last writer per slot up to a step, across restores and forks', async () => {
    const started = await req('/api/navigate/run', {
      loop_definition: demoGraph(),
      step_delay_ms: 0,
      paused: true,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const id = started.body.execution_id as string;
    for (let i = 0; i < 3; i++) expect((await stepOnce()).status).toBe(200);
    expect(await writers(id, 2)).toEqual({ goal: 'write_goal@1', step_count: 'policy@2' });
    expect(await writers(id, 3)).toEqual({ goal: 'write_goal@1', step_count: 'policy@3' });

    const old2 = (await req(`/api/runs/${id}/writers?step=2`)).body.writers as SlotWriter[];
    expect((await req(`/api/runs/${id}/restore`, { step: 1 })).status).toBe(200);
    expect((await stepOnce()).status).toBe(200);
    // Restored to step 1 and ran step 2 again: its writers are the new step 2's events.
    const again = (await req(`/api/runs/${id}/writers?step=2`)).body.writers as SlotWriter[];
    const count = (ws: SlotWriter[]) => ws.find((w) => w.slot === 'step_count')!;
    expect(count(again).step).toBe(2);
    expect(count(again).seq).toBeGreaterThan(count(old2).seq);

    // A fork from step 2: its own step 3, its parent's steps before.
    const forked = await req(`/api/runs/${id}/fork`, { step: 2, paused: true, step_delay_ms: 0 });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const fork = forked.body.run_id as string;
    expect(await writers(fork, 2)).toEqual({
      goal: 'write_goal@1 (parent)',
      step_count: 'policy@2 (parent)',
    });
    expect((await stepOnce()).status).toBe(200);
    expect(await writers(fork, 3)).toEqual({ goal: 'write_goal@1 (parent)', step_count: 'policy@3' });
    await req('/api/navigate/run/stop', {});
  });

  it('refuses an unknown run and a missing step', async () => {
    expect((await req('/api/runs/nope/writers?step=1')).status).toBe(404);
    const list = (await req('/api/runs')).body as Array<{ id: string }>;
    expect((await req(`/api/runs/${list[0]!.id}/writers`)).status).toBe(400);
  });
});
