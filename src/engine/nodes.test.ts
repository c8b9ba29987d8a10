import { describe, expect, it } from 'vitest';
import { validate } from '../domain/validate/graph.validate.ts';
import { createRun } from './createRun.ts';
import { collector, container, edge, grant, graph, loop, node, runAll, slot } from './testkit.ts';

describe('node-local state', () => {
  it('historyLog keeps its entries in node state: visible in nav_step, checkpointed, restored', async () => {
    const g = graph({
      step_budget: 4,
      nodes: [
        ...loop('in', 'out', [{ name: 'h' }]),
        node('log', 'historyLog', { max_entries: 2, template: '#{step}:{entry}' }),
      ],
      edges: [edge('in.step', 'log.entry'), edge('log.history', 'out.h')],
    });
    const c = collector();
    const run = createRun(g, { runId: 'r' }, c.sink);
    for (let i = 0; i < 4; i++) await run.stepOnce();
    const steps = c.of('nav_step');
    expect(steps[0]!.nodeStates.log).toEqual({ entries: ['#1:0'], count: 1 });
    expect(steps[3]!.nodeStates.log).toEqual({ entries: ['#3:2', '#4:3'], count: 4 });
    run.restore(2);
    expect(run.stateAt()!.nodeStates.log).toEqual({ entries: ['#1:0', '#2:1'], count: 2 });
    await run.stepOnce();
    expect(c.of('nav_step').at(-1)!.nodeStates.log).toEqual({ entries: ['#2:1', '#3:2'], count: 3 });
  });

  it('node state is frozen: a handler cannot mutate it in place', async () => {
    const g = graph({
      nodes: [node('seed', 'constant', { value: 'x' }), node('log', 'historyLog')],
      edges: [edge('seed.value', 'log.entry')],
    });
    const r = await runAll(g);
    const st = r.run.stateAt()!.nodeStates.log as { entries: string[] };
    expect(Object.isFrozen(st.entries)).toBe(true);
  });
});

describe('built-in nodes', () => {
  it('textParse: choice, regex, json_field', async () => {
    const g = graph({
      nodes: [
        node('t', 'constant', { value: 'I think LEFT then {"move": "RIGHT"} #42' }),
        node('choice', 'textParse', {}),
        node('re', 'textParse', { mode: 'regex', pattern: '#(\\d+)' }),
        node('js', 'textParse', { mode: 'json_field', json_key: 'move' }),
        node('w', 'stateWrite', { container: 'm', state: 'out' }),
        node('w2', 'stateWrite', { container: 'm', state: 'out' }),
        node('w3', 'stateWrite', { container: 'm', state: 'out' }),
      ],
      edges: [
        edge('t.value', 'choice.text'),
        edge('t.value', 're.text'),
        edge('t.value', 'js.text'),
        edge('choice.value', 'w.value'),
        edge('re.value', 'w2.value'),
        edge('js.value', 'w3.value'),
      ],
      containers: [container('m', { out: slot('accumulator') })],
      access_grants: ['w', 'w2', 'w3'].map((n) => grant(n, 'm')),
    });
    const r = await runAll(g);
    expect(r.run.stateAt()!.containers.m!.states.out!.value).toEqual(['LEFT', '42', 'RIGHT']);
  });

  it('llmCall fills {vars} from inputs then graph_state (lists joined), writes to state, cycles scripted responses', async () => {
    const g = graph({
      step_budget: 3,
      nodes: [
        ...loop('in', 'out', [{ name: 'r' }]),
        node('echo', 'llmCall', {
          template: 'goal={goal} notes={notes} step={context}',
          write_to_state: 'last',
        }),
        node('script', 'llmCall', { responses: ['FORWARD', 'LEFT {context}'] }),
      ],
      edges: [
        edge('in.step', 'echo.context'),
        edge('echo.response', 'script.context'),
        edge('script.response', 'out.r'),
      ],
      containers: [
        container('graph_state', {
          goal: slot('lastWrite', { config: { initial_value: 'exit' } }),
          notes: slot('accumulator', { config: { initial_value: ['a', 'b'] } }),
          last: slot('lastWrite'),
        }),
      ],
      access_grants: [grant('echo', 'graph_state')],
    });
    const r = await runAll(g);
    expect(r.run.stateAt()!.containers.graph_state!.states.last!.value).toBe(
      '[offline] goal=exit notes=a\nb step=2',
    );
    const outs = r.of('exec_log').filter((l) => l.node_id === 'script');
    expect(outs).toHaveLength(3);
    expect(r.of('state_written').map((w) => w.after)).toHaveLength(3);
    const final = r.run.checkpoint(3)!.state as { live: { carry: Record<string, { r: string }> } };
    expect(final.live.carry.out!.r).toBe('FORWARD');
    const second = r.run.checkpoint(2)!.state as { live: { carry: Record<string, { r: string }> } };
    expect(second.live.carry.out!.r).toBe('LEFT [offline] goal=exit notes=a\nb step=1');
  });

  it('llmCall write_to_state without a graph_state grant fails naming the node', async () => {
    const g = graph({
      nodes: [node('s', 'constant', { value: 'x' }), node('ask', 'llmCall', { write_to_state: 'last' })],
      edges: [edge('s.value', 'ask.prompt')],
    });
    const r = await runAll(g);
    expect(r.of('error_event')[0]!.message).toContain(
      "llmCall 'ask': write_to_state 'last' needs a grant to graph_state",
    );
  });

  it('emitSignal broadcasts a custom signal that clears custom-lifetime slots', async () => {
    const g = graph({
      nodes: [
        node('s', 'constant', { value: true }),
        node('w', 'stateWrite', { container: 'm', state: 'c' }),
        node('sig', 'emitSignal', { signal: 'flush' }),
      ],
      edges: [edge('s.value', 'w.value'), edge('w.value', 'sig.trigger')],
      containers: [container('m', { c: slot('lastWrite', { lifetime: 'custom', reset_on: ['flush'] }) })],
      access_grants: [grant('w', 'm')],
    });
    const r = await runAll(g);
    const flush = r.of('signal').find((s) => s.signal === 'flush')!;
    expect(flush).toEqual({
      signal: 'flush',
      scope: '',
      payload: true,
      cleared: [{ container: 'm', slot: 'c' }],
    });
    expect(r.run.stateAt()!.containers.m!.states.c!.value).toBeNull();
  });

  it('stateRead/stateWrite with a key address a keyed partition', async () => {
    const g = graph({
      nodes: [
        node('s', 'constant', { value: 3 }),
        node('w', 'stateWrite', { container: 'm', state: 'n', key: 'ep1' }),
        node('rd', 'stateRead', { container: 'm', state: 'n', key: 'ep1' }),
        node('w2', 'stateWrite', { container: 'm', state: 'copy' }),
      ],
      edges: [edge('s.value', 'w.value'), edge('w.value', 'rd.trigger'), edge('rd.value', 'w2.value')],
      containers: [container('m', { n: slot('counter'), copy: slot('lastWrite') })],
      access_grants: [grant('w', 'm'), grant('rd', 'm'), grant('w2', 'm')],
    });
    const r = await runAll(g);
    const st = r.run.stateAt()!.containers.m!.states;
    expect(st.copy!.value).toBe(3);
    expect(st.n).toMatchObject({ value: 0, keys: 1, keyed: { ep1: 3 } });
    expect(r.of('state_written')[0]).toMatchObject({
      node_id: 'w',
      grant_id: 'ag_w_m', // the grant the write went through (the UI's step-diff attribution)
      container: 'm',
      slot: 'n',
      key: 'ep1',
      reducer: 'counter',
      before: 0,
      after: 3,
    });
  });

  it('keys from data: stateWrite/stateRead `key` inputs (a number keys as text), stateEvict drops a key', async () => {
    // Partitions '1' and '2' keyed from data; the evict of 1 (a number) drops it from every keyed
    // slot and leaves key 2 and the unkeyed value; a falsy trigger that arrives with key 2 gates it.
    const g = graph({
      nodes: [
        node('k1', 'constant', { value: 1 }),
        node('k2', 'constant', { value: '2' }),
        node('no', 'constant', { value: false }),
        node('p', 'constant', { value: 'pose' }),
        node('w1', 'stateWrite', { container: 'm', state: 'trail', value: 1 }),
        node('w2', 'stateWrite', { container: 'm', state: 'trail', value: '2' }),
        node('w3', 'stateWrite', { container: 'm', state: 'other', value: 1 }),
        node('rd', 'stateRead', { container: 'm', state: 'trail' }),
        node('copy', 'stateWrite', { container: 'm', state: 'copy' }),
        node('ev', 'stateEvict', { container: 'm' }),
        node('gated', 'stateEvict', { container: 'm' }),
      ],
      edges: [
        edge('k1.value', 'w1.key'),
        edge('p.value', 'w1.value'),
        edge('k2.value', 'w2.key'),
        edge('p.value', 'w2.value'),
        edge('k1.value', 'w3.key'),
        edge('p.value', 'w3.value'),
        // Trigger and key from one fire (a node whose inputs are all optional fires on the first).
        edge('w1.value', 'rd.trigger'),
        edge('w1.value', 'rd.key'),
        edge('rd.value', 'copy.value'),
        edge('w3.value', 'ev.key'),
        edge('no.value', 'gated.trigger'),
        edge('w2.value', 'gated.key'),
      ],
      containers: [
        container('m', {
          trail: slot('accumulator'),
          other: slot('accumulator'),
          copy: slot('lastWrite'),
        }),
      ],
      access_grants: ['w1', 'w2', 'w3', 'rd', 'copy', 'ev', 'gated'].map((id) => grant(id, 'm')),
    });
    // The ports are declared in the catalog, so the editor and `statewire check` accept these edges.
    expect(validate(g).filter((i) => i.severity !== 'info')).toEqual([]);
    const r = await runAll(g);
    expect(r.of('error_event')).toEqual([]);
    const st = r.run.stateAt()!.containers.m!.states;
    expect(st.copy!.value).toEqual([1]); // stateRead read partition '1' from its key input
    expect(st.trail!.keyed).toEqual({ '2': ['2'] });
    expect(st.trail!.value).toEqual([]);
    expect(st.other!.keyed ?? {}).toEqual({}); // evict drops the key from every keyed slot
    expect(r.of('state_written').map((w) => [w.node_id, w.key])).toEqual([
      ['w1', '1'],
      ['w2', '2'],
      ['w3', '1'],
      ['copy', undefined],
    ]);
  });

  it('stateEvict outputs the key and the slots it evicted; a non-text key is a node error', async () => {
    const g = graph({
      nodes: [
        node('k', 'constant', { value: 'ep' }),
        node('w', 'stateWrite', { container: 'm', state: 'a' }),
        node('ev', 'stateEvict', { container: 'm' }),
        node('out', 'graphOut', { portName: 'evicted' }),
        node('bad', 'constant', { value: { episode: 1 } }),
        node('ev2', 'stateEvict', { container: 'm' }),
      ],
      edges: [
        edge('k.value', 'w.key'),
        edge('k.value', 'w.value'),
        edge('w.value', 'ev.key'),
        edge('ev.evicted', 'out.value'),
        edge('bad.value', 'ev2.key'),
      ],
      containers: [container('m', { a: slot('lastWrite'), b: slot('lastWrite') })],
      access_grants: [grant('w', 'm'), grant('ev', 'm'), grant('ev2', 'm')],
    });
    const r = await runAll(g);
    expect(r.of('nav_step').at(-1)!.outputs).toMatchObject({ evicted: ['a'] });
    expect(r.of('error_event')[0]!.message).toContain(
      'stateEvict \'ev2\': key must be a string or a number, got {"episode":1}',
    );
  });

  it('stateEvict without a grant fails naming the node and the container', async () => {
    const g = graph({
      nodes: [node('k', 'constant', { value: 'ep' }), node('ev', 'stateEvict', { container: 'm' })],
      edges: [edge('k.value', 'ev.key')],
      containers: [container('m', { a: slot('lastWrite') })],
    });
    const r = await runAll(g);
    expect(r.of('error_event')[0]!.message).toContain("node 'ev' has no grant to container 'm'");
  });

  it('viewers emit viewer_data; accumulating viewers send their history', async () => {
    const g = graph({
      step_budget: 2,
      nodes: [...loop('in', 'out', [{ name: 'v' }]), node('tv', 'textViewer'), node('al', 'actionLog')],
      edges: [edge('in.step', 'tv.text'), edge('in.step', 'al.action'), edge('in.step', 'out.v')],
    });
    const r = await runAll(g);
    const v = r.of('viewer_data');
    expect(v.filter((x) => x.node_id === 'tv').map((x) => x.fields)).toEqual([{ text: 0 }, { text: 1 }]);
    expect(v.filter((x) => x.node_id === 'al').at(-1)!.fields).toEqual({ action: [0, 1] });
  });

  it('gridEnv is seeded: same seed → same episodes; it emits episode_reset when an episode starts', async () => {
    const mk = (seed: number) =>
      graph({
        step_budget: 30,
        nodes: [
          ...loop('in', 'out', [{ name: 'action' }]),
          node('env', 'gridEnv', { seed, max_episode_steps: 10 }),
          node('pol', 'gridPolicy', { seed: 3 }),
          node('log', 'textScroll'),
        ],
        edges: [
          edge('in.step', 'env.trigger'),
          edge('in.iterout_action', 'env.action'),
          edge('env.observation', 'pol.observation'),
          edge('env.pose', 'pol.pose'),
          edge('env.map', 'pol.map'),
          edge('pol.action', 'out.action'),
          edge('env.observation', 'log.text'),
        ],
      });
    const a = await runAll(mk(5));
    const b = await runAll(mk(5));
    const c = await runAll(mk(6));
    const obs = (r: typeof a) => r.of('viewer_data').at(-1)!.fields.text;
    expect(obs(a)).toEqual(obs(b));
    expect(obs(a)).not.toEqual(obs(c));
    const resets = a.of('signal').filter((s) => s.signal === 'episode_reset');
    expect(resets.length).toBeGreaterThanOrEqual(3);
    expect(resets[0]!.payload).toEqual({ episode: 1 });
    expect(a.run.stateAt()!.nodeStates.env).toMatchObject({ episode: resets.length });
  });
});

describe('bad node config and handler results fail clearly', () => {
  it('stateWrite without config.state names the node and the slots', async () => {
    const g = graph({
      nodes: [node('s', 'constant', { value: 1 }), node('w', 'stateWrite', { container: 'm' })],
      edges: [edge('s.value', 'w.value')],
      containers: [container('m', { a: slot('lastWrite') })],
      access_grants: [grant('w', 'm')],
    });
    const r = await runAll(g);
    expect(r.of('error_event')[0]!.message).toContain(
      "stateWrite 'w': set config.state to a slot of container 'm' (slots: a)",
    );
  });

  it('gridEnv clamps a degenerate size instead of hanging', async () => {
    const g = graph({
      nodes: [
        node('s', 'constant', { value: 1 }),
        node('env', 'gridEnv', { width: 0, height: -3 }),
        node('v', 'textViewer'),
      ],
      edges: [edge('s.value', 'env.trigger'), edge('env.observation', 'v.text')],
    });
    const r = await runAll(g);
    expect(r.run.status).toBe('done');
    expect(r.of('viewer_data')[0]!.fields.text).toMatch(/episode 1 t=0/);
  });

  it('a handler returning nothing is a node error saying what was expected', async () => {
    const { createRegistry } = await import('./registry.ts');
    const reg = createRegistry();
    reg.register(
      { type: 'nothing', display_name: 'n', input_ports: [{ name: 'value' }] },
      { fire: () => undefined as never },
    );
    const r = await runAll(
      graph({
        nodes: [node('s', 'constant', { value: 1 }), node('n', 'nothing')],
        edges: [edge('s.value', 'n.value')],
      }),
      { registry: reg },
    );
    expect(r.of('error_event')[0]!.message).toContain(
      "node 'n' (type nothing) failed: handler returned undefined; expected {outputs, state?}",
    );
  });
});

describe('stop while a node waits on I/O', () => {
  it('aborts ctx.signal; the cut-short fire is undone (queued again) and logs no error or output', async () => {
    const { createRegistry } = await import('./registry.ts');
    const reg = createRegistry();
    let sawAbort = false;
    let started!: () => void;
    const firing = new Promise<void>((r) => (started = r));
    reg.register(
      { type: 'slowIo', display_name: 's', output_ports: [{ name: 'value' }] },
      {
        fire: (_inputs, ctx) =>
          new Promise((_resolve, reject) => {
            started();
            ctx.signal.addEventListener('abort', () => {
              sawAbort = true;
              reject(new Error('request aborted'));
            });
          }),
      },
    );
    const c = collector();
    const run = createRun(
      graph({
        nodes: [node('io', 'slowIo'), node('log', 'historyLog')],
        edges: [edge('io.value', 'log.entry')],
      }),
      { runId: 'test', now: () => 0, registry: reg },
      c.sink,
    );
    const step = run.stepOnce();
    await firing;
    run.stop();
    expect(await step).toEqual({ done: true });
    expect(sawAbort).toBe(true);
    expect(run.status).toBe('stopped');
    expect(c.of('error_event')).toEqual([]);
    expect(c.of('exec_log')).toEqual([]);
    expect(
      c
        .of('node_status')
        .filter((s) => s.node_id === 'io')
        .map((s) => s.status),
    ).toEqual(['idle', 'queued', 'running', 'queued']);
  });
});
