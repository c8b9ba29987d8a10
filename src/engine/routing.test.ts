// Conditional routing in the engine (docs/routing.md): the exactly-one rule, route events, features
// in snapshots/checkpoints/restore/fork, and failed routes that commit nothing of their step.
import { describe, expect, it } from 'vitest';
import type { EdgeDef, GraphDef } from '../domain/graph/graph.schema.ts';
import type { Condition, Effect } from '../domain/routing/routing.schema.ts';
import type { EngineEvent } from '../domain/protocol/protocol.ts';
import { createRun } from './createRun.ts';
import type { Checkpoint } from './run.api.ts';
import {
  collector,
  container,
  edge,
  grant,
  graph,
  loop,
  node,
  runAll,
  slot,
  testRegistry,
} from './testkit.ts';

const routed = (e: EdgeDef, condition?: Condition, effect?: Effect): EdgeDef => ({
  ...e,
  ...(condition ? { condition } : {}),
  ...(effect ? { effect } : {}),
});
const phaseIs = (v: string): Condition => ({ feature: 'phase', eq: v });

/**
 * A loop of 5 steps: `sw` proposes explore (steps 1–2), exploit (3–4), done (5); `rec` counts visits;
 * `router` sends the step to `a` (explore), `b` (exploit) or `stopper` (done), which stops the loop.
 */
function phased(over: { b?: Condition; stop?: Condition | null; init?: Effect | null } = {}): GraphDef {
  const edges: EdgeDef[] = [
    routed(
      edge('init.value', 'in.init_v', 'e_init'),
      undefined,
      over.init === null ? undefined : (over.init ?? { assign: { phase: 'explore' } }),
    ),
    edge('in.step', 'sw.trigger', 'e_sw'),
    routed(edge('sw.trigger', 'rec.value', 'e_rec'), undefined, {
      allow: {
        phase: [
          ['explore', 'exploit'],
          ['exploit', 'done'],
        ],
      },
    }),
    edge('rec.value', 'router.value', 'e_router'),
    routed(edge('router.value', 'a.value', 'e_a'), phaseIs('explore')),
    routed(edge('router.value', 'b.value', 'e_b'), over.b ?? phaseIs('exploit')),
    edge('a.value', 'out.v', 'e_a_out'),
    edge('b.value', 'out.v', 'e_b_out'),
    edge('stopper.value', 'out.v', 'e_stop_v'),
    edge('stopper.stop', 'out.stop', 'e_stop'),
  ];
  if (over.stop !== null)
    edges.push(routed(edge('router.value', 'stopper.value', 'e_done'), over.stop ?? phaseIs('done')));
  return graph({
    step_budget: 20,
    features: [{ name: 'phase', domain: { enum: ['explore', 'exploit', 'done'] } }],
    nodes: [
      node('init', 'constant', { value: 0 }),
      ...loop('in', 'out', [{ name: 'v' }], [{ name: 'v' }]),
      node('sw', 'phaseSwitch', {
        schedule: [
          { value: 'explore', until_step: 2 },
          { value: 'exploit', until_step: 4 },
          { value: 'done' },
        ],
      }),
      node('rec', 'stateWrite', { container: 'mem', state: 'seen', value: 1 }),
      node('router', 'pass'),
      node('a', 'stateWrite', { container: 'mem', state: 'a_count', value: 1 }),
      node('b', 'stateWrite', { container: 'mem', state: 'b_count', value: 1 }),
      node('stopper', 'stopAt', { n: 0 }),
    ],
    edges,
    containers: [
      container('mem', { seen: slot('counter'), a_count: slot('counter'), b_count: slot('counter') }),
    ],
    access_grants: [grant('rec', 'mem'), grant('a', 'mem'), grant('b', 'mem')],
  });
}

const opts = { runId: 'r', now: () => 0, registry: testRegistry() };

function errorOf(events: EngineEvent[], code: string) {
  const e = events.find((x) => x.type === 'error_event' && x.data.code === code);
  if (!e || e.type !== 'error_event')
    throw new Error(`no ${code} error in ${JSON.stringify(events.filter((x) => x.type === 'error_event'))}`);
  return e.data;
}

describe('routing: exactly one compatible edge', () => {
  it('routes each step along the one edge whose condition holds, and says why', async () => {
    const { run, of } = await runAll(phased(), opts);
    expect(run.status).toBe('done');
    expect(run.result().containers.mem).toEqual({ seen: 5, a_count: 2, b_count: 2 });
    const routes = of('route').filter((r) => r.node_id === 'router');
    expect(routes.map((r) => `${r.step}:${r.edge_id}`)).toEqual([
      '1:e_a',
      '2:e_a',
      '3:e_b',
      '4:e_b',
      '5:e_done',
    ]);
    expect(routes[2]).toEqual({
      step: 3,
      node_id: 'router',
      port: 'value',
      edge_id: 'e_b',
      taken: true,
      reason: 'phase == exploit with phase=exploit',
      candidates: [
        {
          edge_id: 'e_a',
          target: 'a',
          condition_holds: false,
          effect_ok: true,
          condition: 'phase == explore',
        },
        {
          edge_id: 'e_b',
          target: 'b',
          condition_holds: true,
          effect_ok: true,
          condition: 'phase == exploit',
        },
        {
          edge_id: 'e_done',
          target: 'stopper',
          condition_holds: false,
          effect_ok: true,
          condition: 'phase == done',
        },
      ],
      before: { phase: 'exploit' },
      after: { phase: 'exploit' },
    });
    // the proposer's single edge checks the transition; the init edge assigns the first value
    const sw = of('route').filter((r) => r.node_id === 'sw');
    expect(sw.map((r) => `${r.before.phase}→${r.after.phase}`)).toEqual([
      'explore→explore',
      'explore→explore',
      'explore→exploit',
      'exploit→exploit',
      'exploit→done',
    ]);
    expect(sw[2]!.reason).toBe(
      'no condition with phase=explore; effect allow phase explore→exploit | exploit→done',
    );
    expect(of('route').find((r) => r.node_id === 'init')).toMatchObject({
      step: 1,
      edge_id: 'e_init',
      before: { phase: null },
      after: { phase: 'explore' },
    });
    // features in every step's snapshot
    expect(of('nav_step').map((s) => s.features)).toEqual([
      { phase: 'explore' },
      { phase: 'explore' },
      { phase: 'exploit' },
      { phase: 'exploit' },
      { phase: 'done' },
    ]);
  });

  it('an ambiguous route stops the run naming node, edges and values; nothing of that step is committed', async () => {
    // at step 5 (phase done) both e_b and e_done hold
    const g = phased({ b: { feature: 'phase', in: ['exploit', 'done'] } });
    const { run, events, of } = await runAll(g, opts);
    expect(run.status).toBe('error');
    const err = errorOf(events, 'ROUTE_AMBIGUOUS');
    expect(err.message).toMatch(
      /^node 'router' \(type pass\) failed: node 'router' \(port 'value'\): ambiguous route — edges 'e_b', 'e_done' are all compatible with features phase=done; exactly one must be/,
    );
    expect(err.scope).toMatchObject({ node_id: 'router', step: 5 });
    expect(err.details).toMatchObject({
      node_id: 'router',
      port: 'value',
      edges: ['e_b', 'e_done'],
      features: { phase: 'done' },
    });
    // step 5 wrote `seen` before the router failed: that write is discarded with the step
    expect(
      of('state_written')
        .filter((w) => w.slot === 'seen')
        .map((w) => w.step),
    ).toEqual([1, 2, 3, 4, 5]);
    expect(run.checkpointSteps()).toEqual([1, 2, 3, 4]);
    expect(of('nav_step').map((s) => s.step)).toEqual([1, 2, 3, 4]);
    expect(run.result()).toMatchObject({
      status: 'error',
      steps: 4,
      containers: { mem: { seen: 4, b_count: 2 } },
    });
    expect(run.stateAt()).toMatchObject({ step: 4, features: { phase: 'exploit' } });
    expect(run.stateAt()!.containers.mem!.states.seen!.value).toBe(4);
    expect(of('nav_status').at(-1)).toMatchObject({ status: 'error', step: 4 });
    expect(
      of('node_status')
        .filter((s) => s.node_id === 'router')
        .at(-1),
    ).toMatchObject({ status: 'error', step: 5 });
  });

  it('a missing route stops the run the same way', async () => {
    const { run, events } = await runAll(phased({ stop: null }), opts);
    expect(run.status).toBe('error');
    const err = errorOf(events, 'ROUTE_MISSING');
    expect(err.message).toContain(
      "node 'router' (port 'value'): no compatible route among edges 'e_a', 'e_b' with features phase=done",
    );
    expect(err.message).toContain(
      "'e_a' phase == explore: does not hold; 'e_b' phase == exploit: does not hold",
    );
    expect(run.checkpointSteps()).toEqual([1, 2, 3, 4]);
    expect(run.result().containers.mem).toMatchObject({ seen: 4 });
  });

  it('reading an unset feature in a condition is an error', async () => {
    const g = phased({ init: null });
    // without the proposer the router reads phase before anything assigned it
    g.nodes = g.nodes.filter((n) => n.id !== 'sw');
    g.edges = g.edges.filter((e) => e.id !== 'e_sw' && e.id !== 'e_rec');
    g.edges.push(edge('in.step', 'router.value', 'e_direct'));
    const { run, events, of } = await runAll(g, opts);
    expect(run.status).toBe('error');
    const err = errorOf(events, 'ROUTE_UNSET_FEATURE');
    expect(err.message).toMatch(
      /edge 'e_a' \(phase == explore\): condition reads feature 'phase', which is still unset .*; features phase=unset/,
    );
    expect(run.checkpointSteps()).toEqual([]);
    expect(of('nav_step')).toEqual([]);
  });

  it('a proposal that no effect accepts is a missing route: allow cannot give a first value', async () => {
    const { run, events } = await runAll(phased({ init: null }), opts);
    expect(run.status).toBe('error');
    expect(errorOf(events, 'ROUTE_MISSING').message).toMatch(
      /node 'sw' \(port 'trigger'\): no compatible route among edges 'e_rec' with features phase=unset, proposals phase=explore .*a first value needs an assign or unconstrained effect/,
    );
  });

  it('a proposal outside the allowed transitions is refused', async () => {
    const g = phased();
    const sw = g.nodes.find((n) => n.id === 'sw')!;
    sw.config = { schedule: [{ value: 'explore', until_step: 1 }, { value: 'done' }] };
    const { run, events } = await runAll(g, opts);
    expect(run.status).toBe('error');
    expect(errorOf(events, 'ROUTE_MISSING').message).toMatch(
      /proposes phase: explore → done, not among the allowed transitions/,
    );
    expect(run.checkpointSteps()).toEqual([1]);
  });

  it('proposing outside the domain fails the node at once', async () => {
    const g = phased();
    g.nodes.find((n) => n.id === 'sw')!.config = { schedule: [{ value: 'nap' }] };
    const { run, events } = await runAll(g, opts);
    expect(run.status).toBe('error');
    expect(errorOf(events, 'NODE_EXEC_FAIL').message).toMatch(
      /node 'sw' proposes phase="nap", outside its domain \{"explore", "exploit", "done"\}/,
    );
  });

  it('slot conditions see the slot as it was before the visit', async () => {
    const g = graph({
      step_budget: 4,
      nodes: [
        ...loop('in', 'out', [{ name: 'v' }]),
        node('w', 'stateWrite', { container: 'mem', state: 'seen', value: 1 }),
        node('lo', 'pass'),
        node('hi', 'pass'),
      ],
      edges: [
        edge('in.step', 'w.value'),
        routed(edge('w.value', 'lo.value', 'e_lo'), { slot: 'mem.seen', path: '$', op: '<', value: 2 }),
        routed(edge('w.value', 'hi.value', 'e_hi'), { slot: 'mem.seen', path: '$', op: '>=', value: 2 }),
        edge('lo.value', 'out.v'),
        edge('hi.value', 'out.v'),
      ],
      containers: [container('mem', { seen: slot('counter') })],
      access_grants: [grant('w', 'mem')],
    });
    const { run, of } = await runAll(g, opts);
    expect(run.status).toBe('done');
    expect(of('route').map((r) => r.edge_id)).toEqual(['e_lo', 'e_lo', 'e_hi', 'e_hi']);
    expect(of('route')[1]!.reason).toBe('mem.seen < 2 with no features');
    expect(of('nav_step')[0]!.features).toEqual({});
  });
});

describe('routing: features are run state', () => {
  it('checkpoints, restore and fork keep features and replay the same events', async () => {
    const original = collector();
    const a = createRun(phased(), opts, original.sink);
    while (!(await a.stepOnce()).done);
    expect(a.stateAt(3)!.features).toEqual({ phase: 'exploit' });
    expect(a.stateAt(2)!.features).toEqual({ phase: 'explore' });

    // restore in the same run
    const again = collector();
    const b = createRun(phased(), opts, again.sink);
    for (let i = 0; i < 4; i++) await b.stepOnce();
    const mark = again.events.length;
    b.restore(2);
    const restored = again.events[mark]!;
    expect(restored.type === 'restored' && restored.data.features).toEqual({ phase: 'explore' });
    while (!(await b.stepOnce()).done);
    const tail = (events: EngineEvent[], k: number) =>
      JSON.parse(
        JSON.stringify(events.slice(events.findIndex((e) => e.type === 'nav_step' && e.data.step === k) + 1)),
      ) as unknown;
    expect(JSON.parse(JSON.stringify(again.events.slice(mark + 1)))).toEqual(tail(original.events, 2));

    // fork from a JSON round-tripped checkpoint
    const cp = JSON.parse(JSON.stringify(a.checkpoint(3))) as Checkpoint;
    const forked = collector();
    const f = createRun(phased(), { ...opts, fromCheckpoint: cp }, forked.sink);
    expect(f.stateAt()!.features).toEqual({ phase: 'exploit' });
    while (!(await f.stepOnce()).done);
    expect(JSON.parse(JSON.stringify(forked.events.slice(1)))).toEqual(tail(original.events, 3));
  });

  it('a checkpoint from before routing existed restores with every feature unset', async () => {
    const a = createRun(phased(), opts, collector().sink);
    await a.stepOnce();
    const cp = JSON.parse(JSON.stringify(a.checkpoint(1))) as {
      step: number;
      state: { live: Record<string, unknown> };
    };
    delete cp.state.live.features;
    const f = createRun(phased(), { ...opts, fromCheckpoint: cp }, collector().sink);
    expect(f.stateAt()!.features).toEqual({ phase: null });
  });
});
