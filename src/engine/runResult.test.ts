// run_result: a run's outputs by graphOut portName and every container's final values, in one object.
import { describe, expect, it } from 'vitest';
import type { GraphDef, NodeDef } from '../domain/graph/graph.schema.ts';
import { RunResultDataSchema } from '../domain/protocol/protocol.ts';
import { createRun } from './createRun.ts';
import { container, edge, grant, graph, loop, node, runAll, slot, testRegistry } from './testkit.ts';

const composite = (id: string, sub: GraphDef): NodeDef => ({ ...node(id, 'compositeNode'), subgraph: sub });

/** Loop of 3: writes `step` into a run-lifetime accumulator and a step-keyed slot; final side → graphOut. */
function looped(): GraphDef {
  return graph({
    step_budget: 3,
    nodes: [
      node('seed', 'constant', { value: 'go' }),
      ...loop('in', 'out', [{ name: 'n' }], [{ name: 'g', persist: true }]),
      node('w_hist', 'stateWrite', { container: 'm', state: 'hist' }),
      node('w_key', 'stateWrite', { container: 'm', state: 'by_step' }),
      node('last', 'graphOut', { portName: 'last' }),
      node('never', 'graphOut', { portName: 'never' }),
      node('nothing', 'nullSource'),
    ],
    edges: [
      edge('seed.value', 'in.init_g'),
      edge('in.step', 'w_hist.value'),
      edge('w_hist.value', 'out.n'),
      edge('in.step', 'w_key.key'),
      edge('in.init_g', 'w_key.value'),
      edge('out.final_n', 'last.value'),
      edge('nothing.value', 'never.trigger'),
    ],
    containers: [
      container('m', {
        hist: slot('accumulator', { lifetime: 'run' }),
        by_step: slot('lastWrite'),
        untouched: slot('counter', { config: { initial_value: 7 } }),
      }),
    ],
    access_grants: [grant('w_hist', 'm'), grant('w_key', 'm')],
  });
}

describe('run_result', () => {
  it('has the graphOut values by portName and final container values (keyed slots as {key: value})', async () => {
    const r = await runAll(looped(), { registry: testRegistry() });
    const result = r.run.result();
    expect(RunResultDataSchema.parse(result)).toEqual(result);
    expect(result).toEqual({
      status: 'done',
      steps: 3,
      outputs: { last: 2, never: null },
      containers: {
        // `hist` has lifetime run: its value as the run ended, before run_end cleared it.
        m: { hist: [0, 1, 2], by_step: { '0': 'go', '1': 'go', '2': 'go' }, untouched: 7 },
      },
      keyed: { m: ['by_step'] },
    });
    expect(r.run.stateAt()!.containers.m!.states.hist!.value).toEqual([]);
  });

  it("leaves out a composite's inner graphOut (its port is the composite's output, not the graph's)", async () => {
    const sub = graph({
      nodes: [
        node('gi', 'graphIn'),
        ...loop('in', 'out', [{ name: 'v' }], [{ name: 'x' }], { step_budget: 3 }),
        node('inc', 'inc'),
        node('go', 'graphOut', { portName: 'inner' }),
      ],
      edges: [
        edge('gi.value', 'in.init_x'),
        edge('in.step', 'inc.value'),
        edge('inc.value', 'out.v'),
        edge('out.final_v', 'go.value'),
      ],
    });
    const top = graph({
      nodes: [node('seed', 'constant', { value: 0 }), composite('comp', sub), node('answer', 'graphOut')],
      edges: [edge('seed.value', 'comp.input'), edge('comp.inner', 'answer.value')],
    });
    const r = await runAll(top, { registry: testRegistry() });
    expect(r.run.result().outputs).toEqual({ output: 3 });
  });

  it('an error run says so with the reason; a host may override the status (stopped before any step)', async () => {
    const g = graph({
      nodes: [node('seed', 'constant', { value: 1 }), node('b', 'boom', { message: 'kaput' })],
      edges: [edge('seed.value', 'b.value')],
    });
    const r = await runAll(g, { registry: testRegistry() });
    expect(r.run.result()).toMatchObject({ status: 'error', steps: 1, error: "node 'b': kaput" });

    const idle = createRun(looped(), { runId: 'idle', registry: testRegistry() }, () => undefined);
    expect(idle.result({ status: 'interrupted' })).toMatchObject({
      status: 'interrupted',
      steps: 0,
      containers: { m: { hist: [], by_step: null, untouched: 7 } },
      keyed: {},
    });
    // Not finished and no override: it did not end by itself, so it was stopped.
    await idle.stepOnce();
    expect(idle.result({ stepLimit: 1 })).toMatchObject({ status: 'stopped', steps: 1, stepLimit: 1 });
  });
});
