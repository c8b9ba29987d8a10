// Breakpoints in the engine: a data breakpoint pauses right after the event that hits it, before the
// next node fires; a hit by a step's last event is returned by stepOnce (the host pauses between
// steps); node breakpoints pause before the node; a stop at a breakpoint fires nothing more.
import { describe, expect, it } from 'vitest';
import { BreakpointSchema, type Breakpoint, type BreakpointHit } from '../domain/debug/breakpoints.ts';
import type { EngineEvent } from '../domain/protocol/protocol.ts';
import { createRun } from './createRun.ts';
import { container, edge, grant, graph, loop, node, slot, testRegistry } from './testkit.ts';

/** A loop: in.step → w_count (m.count) → w_copy (m.copy) → out.x, five steps. */
const g = graph({
  step_budget: 5,
  nodes: [
    ...loop('in', 'out', [{ name: 'x' }]),
    node('w_count', 'stateWrite', { container: 'm', state: 'count' }),
    node('w_copy', 'stateWrite', { container: 'm', state: 'copy' }),
  ],
  edges: [
    edge('in.step', 'w_count.value'),
    edge('w_count.value', 'w_copy.value'),
    edge('w_copy.value', 'out.x'),
  ],
  containers: [
    container('m', {
      count: slot('lastWrite'),
      copy: slot('lastWrite'),
      tmp: slot('lastWrite', { lifetime: 'step' }),
    }),
  ],
  access_grants: [grant('w_count', 'm'), grant('w_copy', 'm')],
});

function setup(
  bps: object[],
  onPause: (hit: BreakpointHit, events: EngineEvent[]) => Promise<void> | void,
  graphDef = g,
) {
  const events: EngineEvent[] = [];
  const list: Breakpoint[] = bps.map((b, i) => BreakpointSchema.parse({ id: `b${i}`, ...b }));
  const pauses: BreakpointHit[] = [];
  const run = createRun(
    graphDef,
    {
      runId: 'r',
      now: () => 0,
      registry: testRegistry(),
      breakpoints: {
        list: () => list,
        pause: async (hit) => {
          pauses.push(hit);
          await onPause(hit, events);
        },
      },
    },
    (e) => events.push(e),
  );
  return { run, events, pauses, list };
}

const writes = (events: EngineEvent[], slotName: string) =>
  events
    .filter((e) => e.type === 'state_written' && e.data.slot === slotName)
    .map((e) => (e.data as { after: unknown }).after);

describe('engine breakpoints', () => {
  it('a condition on a slot pauses right after the write that meets it, before the next node fires', async () => {
    let seenAtPause: { count: unknown[]; copy: unknown[] } | undefined;
    const s = setup(
      [{ kind: 'match', container: 'm', slot: 'count', op: '>=', value: 2 }],
      (_hit, events) => {
        seenAtPause ??= { count: writes(events, 'count'), copy: writes(events, 'copy') };
      },
    );
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await s.run.stepOnce());
    expect(s.pauses).toHaveLength(3); // count = 2, 3, 4
    expect(s.pauses[0]).toMatchObject({
      kind: 'match',
      node_id: 'w_count',
      container: 'm',
      slot: 'count',
      value: 2,
    });
    // w_copy had not copied the 2 yet when the engine paused.
    expect(seenAtPause).toEqual({ count: [0, 1, 2], copy: [0, 1] });
    const first = s.events.findIndex((e) => e.type === 'breakpoint_hit');
    const hitEvent = s.events[first]!;
    expect(hitEvent.data).toMatchObject({ description: 'm.count >= 2', step: 3 });
    // The last write before the hit is the one that met the condition (then w_count's own end events).
    const before = s.events.slice(0, first).filter((e) => e.type === 'state_written');
    expect(before.at(-1)).toMatchObject({ data: { slot: 'count', after: 2 } });
    expect(outcomes.every((o) => o.breakpoint === undefined)).toBe(true);
  });

  it('a pause inside a step carries the state there: the hit’s write in, later nodes’ not yet', async () => {
    const s = setup([{ kind: 'match', container: 'm', slot: 'count', op: '>=', value: 2 }], () => undefined);
    await s.run.stepOnce();
    await s.run.stepOnce();
    await s.run.stepOnce();
    const hit = s.events.find((e) => e.type === 'breakpoint_hit')!.data as {
      step: number;
      state?: { step: number; containers: Record<string, { states: Record<string, { value?: unknown }> }> };
    };
    expect(hit.step).toBe(3);
    // Step 3 in progress: count already 2 (the write that hit), copy still step 2's 1.
    expect(hit.state?.step).toBe(3);
    expect(hit.state?.containers.m?.states.count?.value).toBe(2);
    expect(hit.state?.containers.m?.states.copy?.value).toBe(1);
    // The state the engine paused in is what the step's own snapshot then builds on.
    const nav3 = s.events.find((e) => e.type === 'nav_step' && e.data.step === 3)!.data as {
      containers: Record<string, { states: Record<string, { value?: unknown }> }>;
    };
    expect(nav3.containers.m?.states.count?.value).toBe(2);
    expect(nav3.containers.m?.states.copy?.value).toBe(2);
  });

  it('a hit at the end of a step carries no state of its own (the step’s nav_step is it)', async () => {
    const s = setup([{ kind: 'match', container: 'm', slot: 'copy', op: '==', value: 1 }], () => undefined);
    await s.run.stepOnce();
    await s.run.stepOnce();
    const hit = s.events.find((e) => e.type === 'breakpoint_hit')!;
    expect(hit.data).toMatchObject({ step: 2, slot: 'copy' });
    expect(hit.data).not.toHaveProperty('state');
  });

  it('disabled or unmatched breakpoints never pause; edits apply at once', async () => {
    const s = setup([{ kind: 'write', container: 'm', slot: 'copy', enabled: false }], () => undefined);
    await s.run.stepOnce();
    expect(s.pauses).toHaveLength(0);
    s.list[0] = { ...s.list[0]!, enabled: true };
    await s.run.stepOnce();
    expect(s.pauses.length + s.events.filter((e) => e.type === 'breakpoint_hit').length).toBeGreaterThan(0);
  });

  it('a hit by the step’s last node is handed back by stepOnce, to pause between steps', async () => {
    // w_copy is the last writer of each step: its write hits at the boundary.
    const s = setup([{ kind: 'match', container: 'm', slot: 'copy', op: '==', value: 1 }], () => undefined);
    const a = await s.run.stepOnce();
    const b = await s.run.stepOnce();
    expect(a.breakpoint).toBeUndefined();
    expect(b.breakpoint).toMatchObject({ kind: 'match', slot: 'copy', node_id: 'w_copy', value: 1 });
    expect(s.pauses).toHaveLength(0);
    expect(s.run.step).toBe(2);
  });

  it('a node breakpoint pauses before the node fires; a stop there fires nothing more', async () => {
    const s = setup([{ kind: 'node', node_id: 'w_copy' }], (_hit, events) => {
      expect(writes(events, 'copy')).toEqual([]);
      s.run.stop();
    });
    const r = await s.run.stepOnce();
    expect(r.done).toBe(true);
    expect(s.pauses).toEqual([
      expect.objectContaining({ kind: 'node', node_id: 'w_copy', description: 'before node w_copy' }),
    ]);
    expect(writes(s.events, 'copy')).toEqual([]);
    expect(s.run.status).toBe('stopped');
  });

  it('a clear breakpoint hits when a signal clears its slot', async () => {
    const withTmp = {
      ...g,
      nodes: [...g.nodes, node('w_tmp', 'stateWrite', { container: 'm', state: 'tmp' })],
      edges: [...g.edges, edge('in.step', 'w_tmp.value')],
      access_grants: [...g.access_grants, grant('w_tmp', 'm')],
    };
    const count = setup([{ kind: 'clear', container: 'm', slot: 'count' }], () => undefined, withTmp);
    await count.run.stepOnce();
    expect(count.events.some((e) => e.type === 'breakpoint_hit')).toBe(false); // forever: never cleared
    const tmp = setup([{ kind: 'clear', container: 'm', slot: 'tmp' }], () => undefined, withTmp);
    const r = await tmp.run.stepOnce();
    // step_end clears tmp (lifetime step) at the boundary: the hit comes back with the step.
    expect(r.breakpoint).toMatchObject({ kind: 'clear', container: 'm', slot: 'tmp', step: 1 });
  });
});
