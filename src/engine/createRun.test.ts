import { describe, expect, it } from 'vitest';
import { createRun } from './createRun.ts';
import { BuildError } from './errors.ts';
import { collector, container, edge, graph, loop, node, slot } from './testkit.ts';

describe('createRun', () => {
  it('a removed value type fails the build with a BuildError before any event', () => {
    const c = collector();
    const g = graph({
      nodes: [node('a', 'constant')],
      containers: [container('mem', { frames: slot('lastWrite', { value_type: 'DEPTH' }) })],
    });
    expect(() => createRun(g, { runId: 'r' }, c.sink)).toThrow(BuildError);
    try {
      createRun(g, { runId: 'r' }, c.sink);
    } catch (e) {
      expect((e as BuildError).where).toEqual({ container: 'mem', slot: 'frames' });
    }
    expect(c.events).toEqual([]);
  });

  it('an unknown node type fails the build naming the node', () => {
    expect(() =>
      createRun(graph({ nodes: [node('x', 'nodeset__thing')] }), { runId: 'r' }, () => undefined),
    ).toThrow(/node 'x': unknown node type 'nodeset__thing'/);
  });

  it('status goes idle → running → done; stepOnce after the end stays done', async () => {
    const g = graph({
      step_budget: 2,
      nodes: loop('in', 'out', [{ name: 'v' }]),
      edges: [edge('in.step', 'out.v')],
    });
    const run = createRun(g, { runId: 'r' }, () => undefined);
    expect(run.status).toBe('idle');
    expect(await run.stepOnce()).toEqual({ done: false });
    expect(run.status).toBe('running');
    expect(run.step).toBe(1);
    expect(await run.stepOnce()).toEqual({ done: true });
    expect(run.status).toBe('done');
    expect(await run.stepOnce()).toEqual({ done: true });
  });

  it('stop() ends the run as stopped at the next fire', async () => {
    const c = collector();
    const g = graph({
      step_budget: 100,
      nodes: loop('in', 'out', [{ name: 'v' }]),
      edges: [edge('in.step', 'out.v')],
    });
    const run = createRun(g, { runId: 'r' }, c.sink);
    await run.stepOnce();
    run.stop();
    expect(await run.stepOnce()).toEqual({ done: true });
    expect(run.status).toBe('stopped');
    expect(c.of('nav_status').at(-1)).toEqual({ status: 'stopped', step: 1 });
  });

  it('restore after the end makes the run resumable (paused) and emits `restored` with the state', async () => {
    const c = collector();
    const g = graph({
      step_budget: 3,
      nodes: [
        ...loop('in', 'out', [{ name: 'v' }]),
        node('w', 'stateWrite', { container: 'm', state: 'n', value: 1 }),
      ],
      edges: [edge('in.step', 'w.value'), edge('w.value', 'out.v')],
      containers: [container('m', { n: slot('counter') })],
      access_grants: [{ id: 'g', node_id: 'w', container_id: 'm' }],
    });
    const run = createRun(g, { runId: 'r' }, c.sink);
    while (!(await run.stepOnce()).done);
    run.restore(1);
    expect(run.status).toBe('paused');
    expect(run.step).toBe(1);
    expect(c.of('restored').at(-1)).toMatchObject({
      restored_to: 1,
      step: 1,
      containers: { m: { states: { n: { value: 1 } } } },
    });
    while (!(await run.stepOnce()).done);
    expect(run.stateAt()!.containers.m!.states.n!.value).toBe(3);
  });
});

describe('node_status lifecycle', () => {
  it('every node is reported idle at start, then queued → running → done, in that order', async () => {
    const c = collector();
    const g = graph({
      eval_graph: false,
      nodes: [node('a', 'constant', { value: 1 }), node('b', 'stateWrite', { container: 'm', state: 's' })],
      edges: [edge('a.value', 'b.value')],
      containers: [container('m', { s: slot('lastWrite') })],
      access_grants: [{ id: 'g', node_id: 'b', container_id: 'm' }],
    });
    const run = createRun(g, { runId: 'r' }, c.sink);
    while (!(await run.stepOnce()).done) {
      /* drive to the end */
    }
    const statuses = (id: string) =>
      c
        .of('node_status')
        .filter((d) => d.node_id === id)
        .map((d) => d.status);
    expect(statuses('a')).toEqual(['idle', 'queued', 'running', 'done']);
    expect(statuses('b')).toEqual(['idle', 'queued', 'running', 'done']);
  });
});
