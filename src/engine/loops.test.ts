import { describe, expect, it } from 'vitest';
import type { GraphDef } from '../domain/graph/graph.schema.ts';
import { container, edge, grant, graph, loop, node, runAll, slot, testRegistry } from './testkit.ts';

const acc = () => slot('accumulator');
const write = (id: string, state: string, c = 'm') => node(id, 'stateWrite', { container: c, state });
const run = (g: GraphDef) => runAll(g, { registry: testRegistry() });
const valueOf = async (g: GraphDef, s: string, c = 'm') => {
  const r = await run(g);
  return { ...r, value: r.run.stateAt()!.containers[c]!.states[s]!.value };
};

/** A loop whose body writes the iteration index into m.steps and carries it on `x`. */
function base(parts: {
  initPorts?: { name: string; persist?: boolean }[];
  carries?: { name: string; persist?: boolean }[];
  nodes?: GraphDef['nodes'];
  edges?: GraphDef['edges'];
  budget?: number;
}): GraphDef {
  return graph({
    step_budget: parts.budget ?? 3,
    nodes: [
      node('seed', 'constant', { value: 'S' }),
      ...loop('in', 'out', parts.carries ?? [{ name: 'x' }], parts.initPorts ?? []),
      write('w_step', 'steps'),
      write('w_seen', 'seen'),
      ...(parts.nodes ?? []),
    ],
    edges: [edge('in.step', 'w_step.value'), edge('w_step.value', 'out.x'), ...(parts.edges ?? [])],
    containers: [
      container('m', { steps: acc(), seen: acc(), after: acc(), sink: acc(), latched: acc(), final: acc() }),
    ],
    access_grants: ['w_step', 'w_seen', 'w_after', 'w_after2', 'w_sink', 'w_latch', 'w_final'].map((n) =>
      grant(n, 'm'),
    ),
  });
}

describe('iterIn port configurations (persist/writer matrix)', () => {
  it('run-constant feeds every iteration with the seed', async () => {
    const g = base({
      initPorts: [{ name: 'g', persist: true }],
      edges: [edge('seed.value', 'in.init_g'), edge('in.init_g', 'w_seen.value')],
    });
    expect((await valueOf(g, 'seen')).value).toEqual(['S', 'S', 'S']);
  });

  it('one-shot feeds iteration 0 only', async () => {
    const g = base({
      initPorts: [{ name: 'g' }],
      edges: [edge('seed.value', 'in.init_g'), edge('in.init_g', 'w_seen.value')],
    });
    expect((await valueOf(g, 'seen')).value).toEqual(['S']);
  });

  it('loop-carried starts at iteration 1', async () => {
    const g = base({ edges: [edge('in.iterout_x', 'w_seen.value')] });
    const r = await valueOf(g, 'seen');
    expect(r.value).toEqual([0, 1]);
    expect(r.run.stateAt()!.containers.m!.states.steps!.value).toEqual([0, 1, 2]);
  });

  it('pure feedback behaves like loop-carried within one run', async () => {
    const g = base({
      carries: [{ name: 'x', persist: true }],
      edges: [edge('in.iterout_x', 'w_seen.value')],
    });
    expect((await valueOf(g, 'seen')).value).toEqual([0, 1]);
  });

  it('seeded+refreshed sees the refreshed value when the refresh edge is declared later', async () => {
    const g = base({
      initPorts: [{ name: 'x', persist: true }],
      edges: [
        edge('seed.value', 'in.init_x'),
        edge('in.init_x', 'w_seen.value'),
        edge('in.iterout_x', 'w_seen.value'),
      ],
    });
    expect((await valueOf(g, 'seen')).value).toEqual(['S', 0, 1]);
  });

  it('reversed edge order freezes on the seed (documented hazard)', async () => {
    const g = base({
      initPorts: [{ name: 'x', persist: true }],
      edges: [
        edge('seed.value', 'in.init_x'),
        edge('in.iterout_x', 'w_seen.value'),
        edge('in.init_x', 'w_seen.value'),
      ],
    });
    expect((await valueOf(g, 'seen')).value).toEqual(['S', 'S', 'S']);
  });

  it('a null loop input is not forwarded: a nullSource into a persistent port fires nothing downstream', async () => {
    const g = base({
      initPorts: [{ name: 'g', persist: true }],
      nodes: [node('nothing', 'nullSource')],
      edges: [edge('nothing.value', 'in.init_g'), edge('in.init_g', 'w_seen.value')],
    });
    const r = await valueOf(g, 'seen');
    expect(r.value).toEqual([]);
    expect(r.of('exec_log').some((l) => l.node_id === 'w_seen')).toBe(false);
    // The loop itself still runs every step (its counters are not null).
    expect(r.run.stateAt()!.containers.m!.states.steps!.value).toEqual([0, 1, 2]);
    expect(r.of('nav_step').map((s) => s.step)).toEqual([1, 2, 3]);
  });

  it('a null carry is not forwarded either (iterout_x holding null fires nothing)', async () => {
    // The body reads a never-written lastWrite slot (null) each step and carries it.
    const nullCarry = graph({
      step_budget: 3,
      nodes: [
        ...loop('in', 'out', [{ name: 'x' }]),
        node('rd', 'stateRead', { container: 'm', state: 'empty' }),
        write('w_seen', 'seen'),
      ],
      edges: [edge('in.step', 'rd.trigger'), edge('rd.value', 'out.x'), edge('in.iterout_x', 'w_seen.value')],
      containers: [container('m', { seen: acc(), empty: slot('lastWrite') })],
      access_grants: [grant('w_seen', 'm'), grant('rd', 'm')],
    });
    const r = await run(nullCarry);
    expect(r.run.stateAt()!.containers.m!.states.seen!.value).toEqual([]);
    expect(r.run.step).toBe(3);
  });

  it('an unwired init port is never auto-filled with null', async () => {
    const g = base({
      initPorts: [
        { name: 'g', persist: true },
        { name: 'h', persist: true },
      ],
      edges: [edge('seed.value', 'in.init_g'), edge('in.init_h', 'w_seen.value')],
    });
    const r = await valueOf(g, 'seen');
    expect(r.value).toEqual([]);
    expect(r.of('exec_log').some((l) => l.node_id === 'w_seen')).toBe(false);
  });
});

describe('executor: steps, budgets, final side, after-loop band', () => {
  it('the step counter advances per iteration and the budget ends the loop', async () => {
    const r = await run(base({ budget: 4 }));
    expect(r.of('nav_step').map((s) => s.step)).toEqual([1, 2, 3, 4]);
    expect(r.run.status).toBe('done');
    expect(r.of('nav_complete')).toEqual([{ step: 4, metrics: {}, terminated: true }]);
  });

  it('a loop without init wires still starts (iterIn with no incoming edge is an entry)', async () => {
    const r = await run(base({ budget: 2 }));
    expect(r.run.stateAt()!.containers.m!.states.steps!.value).toEqual([0, 1]);
  });

  it('the final side carries the terminal value once; the after-loop band fires once in chain order', async () => {
    const g = base({
      nodes: [write('w_after', 'after'), write('w_after2', 'final')],
      edges: [edge('out.final_x', 'w_after.value'), edge('w_after.value', 'w_after2.value')],
    });
    const r = await run(g);
    const m = r.run.stateAt()!.containers.m!.states;
    expect(m.after!.value).toEqual([2]);
    expect(m.final!.value).toEqual([2]);
    const order = r
      .of('exec_log')
      .map((l) => l.node_id)
      .filter((id) => id.startsWith('w_after'));
    expect(order).toEqual(['w_after', 'w_after2']);
    // The band runs after the last root step.
    expect(r.of('exec_log').find((l) => l.node_id === 'w_after')!.step).toBe(3);
  });

  it('a truthy stop ends the run before the budget, and final_stop is emitted', async () => {
    const g = base({
      budget: 50,
      nodes: [node('stopper', 'stopAt', { n: 2 }), write('w_after', 'after')],
      edges: [
        edge('in.step', 'stopper.value'),
        edge('stopper.stop', 'out.stop'),
        edge('out.final_stop', 'w_after.value'),
      ],
    });
    const r = await run(g);
    expect(r.run.step).toBe(3);
    expect(r.run.stateAt()!.containers.m!.states.after!.value).toEqual([true]);
  });

  it('in a single loop `iteration` counts like `step` (0, 1, 2)', async () => {
    const g = base({ nodes: [write('w_sink', 'sink')], edges: [edge('in.iteration', 'w_sink.value')] });
    expect((await valueOf(g, 'sink')).value).toEqual([0, 1, 2]);
  });

  it('a sibling sink fires on the terminal step too', async () => {
    const g = base({ nodes: [write('w_sink', 'sink')], edges: [edge('in.step', 'w_sink.value')] });
    expect((await valueOf(g, 'sink')).value).toEqual([0, 1, 2]);
  });

  it('a DAG run is one step and emits one nav_step with its containers', async () => {
    const g = graph({
      nodes: [node('seed', 'constant', { value: 5 }), write('w', 'n')],
      edges: [edge('seed.value', 'w.value')],
      containers: [container('m', { n: slot('counter'), s: slot('lastWrite', { lifetime: 'step' }) })],
      access_grants: [grant('w', 'm')],
    });
    const r = await run(g);
    const steps = r.of('nav_step');
    expect(steps).toHaveLength(1);
    expect(steps[0]!.step).toBe(1);
    expect(steps[0]!.containers.m!.states.n!.value).toBe(5);
    expect(r.run.status).toBe('done');
  });
});

describe('executor: nested scopes', () => {
  /** outer loop (budget 3) runs an inner loop (budget 2) per iteration. */
  function nested(
    extra: {
      innerCfg?: Record<string, unknown>;
      nodes?: GraphDef['nodes'];
      edges?: GraphDef['edges'];
      outerBudget?: number;
    } = {},
  ): GraphDef {
    return graph({
      step_budget: extra.outerBudget ?? 3,
      nodes: [
        ...loop('o_in', 'o_out', [{ name: 'v' }]),
        ...loop('i_in', 'i_out', [{ name: 'v' }], [{ name: 'k' }], { step_budget: 2, ...extra.innerCfg }),
        write('w_inner', 'inner', 'mi'),
        write('w_outer', 'outer', 'mo'),
        ...(extra.nodes ?? []),
      ],
      edges: [
        edge('o_in.step', 'i_in.init_k'),
        edge('i_in.iteration', 'w_inner.value'),
        edge('w_inner.value', 'i_out.v'),
        edge('i_out.final_v', 'w_outer.value'),
        edge('w_outer.value', 'o_out.v'),
        ...(extra.edges ?? []),
      ],
      containers: [
        container('mi', { inner: acc(), per_step: slot('lastWrite', { lifetime: 'step' }), latched: acc() }),
        container('mo', { outer: acc(), per_step: slot('lastWrite', { lifetime: 'step' }) }),
      ],
      access_grants: [grant('w_inner', 'mi'), grant('w_outer', 'mo'), grant('w_latch', 'mi')],
    });
  }

  it('inner loops run per outer iteration with independent budgets', async () => {
    const r = await run(nested());
    const st = r.run.stateAt()!.containers;
    expect(st.mi!.states.inner!.value).toEqual([0, 1, 0, 1, 0, 1]);
    expect(st.mo!.states.outer!.value).toEqual([1, 1, 1]);
    expect(r.of('nav_step').map((s) => s.step)).toEqual([1, 2, 3]);
  });

  it('per-scope budgets come from iterIn config (5 inner / 50 outer)', async () => {
    const g = nested({ innerCfg: { step_budget: 5 }, outerBudget: 50 });
    g.nodes = g.nodes.map((n) => (n.id === 'o_in' ? { ...n, config: { ...n.config, step_budget: 2 } } : n));
    const r = await run(g);
    expect(r.run.step).toBe(2);
    expect(r.run.stateAt()!.containers.mi!.states.inner!.value).toEqual([0, 1, 2, 3, 4, 0, 1, 2, 3, 4]);
  });

  it('an inner stop does not end the outer loop', async () => {
    const g = nested({
      innerCfg: { step_budget: 10 },
      nodes: [node('stopper', 'stopAt', { n: 1 })],
      edges: [edge('i_in.iteration', 'stopper.value'), edge('stopper.stop', 'i_out.stop')],
    });
    const r = await run(g);
    expect(r.run.step).toBe(3);
    expect(r.run.stateAt()!.containers.mi!.states.inner!.value).toEqual([0, 1, 0, 1, 0, 1]);
  });

  it('step_end is scoped: inner boundaries clear only the inner container', async () => {
    const r = await run(nested());
    const ends = r.of('signal').filter((s) => s.signal === 'step_end');
    const inner = ends.filter((s) => s.scope === 'i_in');
    const outer = ends.filter((s) => s.scope === 'o_in');
    expect(inner).toHaveLength(6);
    expect(outer).toHaveLength(3);
    expect(inner.every((s) => s.cleared.every((c) => c.container === 'mi'))).toBe(true);
    expect(outer.every((s) => s.cleared.every((c) => c.container === 'mo'))).toBe(true);
    expect(outer[0]!.cleared).toEqual([{ container: 'mo', slot: 'per_step' }]);
    expect(inner[0]!.cleared).toEqual([{ container: 'mi', slot: 'per_step' }]);
  });

  it('an inner loop’s `step` is the root step count (reference ctx.step): memory keyed by step gets root step numbers', async () => {
    const g = nested({
      nodes: [node('w_key', 'stateWrite', { container: 'mi', state: 'by_step' })],
      edges: [edge('i_in.step', 'w_key.key'), edge('i_in.iteration', 'w_key.value')],
    });
    g.containers[0]!.states.by_step = acc();
    g.access_grants.push(grant('w_key', 'mi'));
    const r = await run(g);
    const bySt = r.run.stateAt()!.containers.mi!.states.by_step!;
    // Outer budget 3, inner budget 2: two inner iterations per root step, keyed 0, 1, 2 — not 0, 1.
    expect(bySt.keyed).toEqual({ '0': [0, 1], '1': [0, 1], '2': [0, 1] });
    const keys = r.of('state_written').filter((w) => w.slot === 'by_step');
    expect(keys.map((w) => w.key)).toEqual(['0', '0', '1', '1', '2', '2']);
  });

  it('an inner graphOut latches its value until the inner scope terminates', async () => {
    const g = nested({
      nodes: [node('go', 'graphOut', { portName: 'inner_last' }), write('w_latch', 'latched', 'mi')],
      edges: [edge('w_inner.value', 'go.value'), edge('go.value', 'w_latch.value')],
    });
    const r = await run(g);
    expect(r.run.stateAt()!.containers.mi!.states.latched!.value).toEqual([1, 1, 1]);
  });
});

describe('executor: errors', () => {
  it('a node exception is recorded with its id, the final side still comes, and the run ends in error', async () => {
    const g = graph({
      step_budget: 10,
      nodes: [
        ...loop('in', 'out', [{ name: 'x' }]),
        node('f', 'failAt', { n: 2 }),
        write('w_final', 'final'),
      ],
      edges: [edge('in.step', 'f.value'), edge('f.value', 'out.x'), edge('out.final_x', 'w_final.value')],
      containers: [container('m', { final: acc() })],
      access_grants: [grant('w_final', 'm')],
    });
    const r = await run(g);
    expect(r.run.status).toBe('error');
    const errs = r.of('error_event');
    expect(errs[0]).toMatchObject({ code: 'NODE_EXEC_FAIL', source: 'node', scope: { node_id: 'f' } });
    expect(errs[0]!.message).toContain("node 'f' (type failAt) failed: failed at 2");
    expect(errs.at(-1)).toMatchObject({ code: 'NODE_ERRORS' });
    expect(r.run.stateAt()!.containers.m!.states.final!.value).toEqual([1]);
    expect(r.of('nav_status').at(-1)).toMatchObject({ status: 'error' });
    expect(r.of('nav_status').at(-1)!.error).toContain("node 'f'");
  });

  it('an exception routes {error} along `error` edges only', async () => {
    const g = graph({
      nodes: [
        node('seed', 'constant', { value: 1 }),
        node('b', 'boom', { message: 'kaput' }),
        write('w_err', 'errors'),
        write('w_val', 'values'),
      ],
      edges: [edge('seed.value', 'b.value'), edge('b.error', 'w_err.value'), edge('b.value', 'w_val.value')],
      containers: [container('m', { errors: acc(), values: acc() })],
      access_grants: [grant('w_err', 'm'), grant('w_val', 'm')],
    });
    const r = await run(g);
    const st = r.run.stateAt()!.containers.m!.states;
    expect(st.errors!.value).toEqual(['kaput']);
    expect(st.values!.value).toEqual([]);
    expect(r.run.status).toBe('error');
  });

  it('a returned error convicts the run; a node declaring an `error` port is not convicted', async () => {
    const mk = (type: string) =>
      graph({
        nodes: [node('seed', 'constant', { value: 1 }), node('n', type)],
        edges: [edge('seed.value', 'n.value')],
      });
    const convicted = await run(mk('errResult'));
    expect(convicted.run.status).toBe('error');
    expect(convicted.of('error_event')[0]).toMatchObject({
      code: 'NODE_RESULT_ERROR',
      scope: { node_id: 'n' },
    });
    const declared = await run(mk('softFail'));
    expect(declared.run.status).toBe('done');
    expect(declared.of('error_event')).toEqual([]);
  });

  it('ungranted container access fails the node naming node and container', async () => {
    const g = graph({
      nodes: [
        node('seed', 'constant', { value: 1 }),
        node('w', 'stateWrite', { container: 'secret', state: 'x' }),
      ],
      edges: [edge('seed.value', 'w.value')],
      containers: [container('secret', { x: slot('lastWrite') }), container('mine', {})],
      access_grants: [grant('w', 'mine')],
    });
    const r = await run(g);
    expect(r.of('error_event')[0]!.message).toContain(
      "node 'w' has no grant to container 'secret' (granted: mine)",
    );
  });

  it('an undeclared slot write fails the node naming container, slot and declared slots', async () => {
    const g = graph({
      nodes: [
        node('seed', 'constant', { value: 1 }),
        node('w', 'stateWrite', { container: 'm', state: 'typo' }),
      ],
      edges: [edge('seed.value', 'w.value')],
      containers: [container('m', { real: slot('lastWrite') })],
      access_grants: [grant('w', 'm')],
    });
    const r = await run(g);
    expect(r.of('error_event')[0]!.message).toContain(
      "container 'm': write of undeclared slot 'typo' (declared slots: real)",
    );
  });

  it('a runaway cycle hits the cap and ends in error', async () => {
    const g = graph({
      step_budget: 2,
      nodes: [node('seed', 'constant', { value: 1 }), node('a', 'pass'), node('b', 'pass')],
      edges: [edge('seed.value', 'a.value'), edge('a.value', 'b.value'), edge('b.value', 'a.trigger')],
    });
    const r = await run(g);
    expect(r.run.status).toBe('error');
    expect(r.of('error_event').at(-1)!.message).toMatch(/runaway cap reached/);
  });
});
