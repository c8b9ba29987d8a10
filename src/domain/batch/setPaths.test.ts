import { describe, expect, it } from 'vitest';
import { parseGraphOrThrow } from '../graph/graph.parse.ts';
import { applySets, parseSet } from './setPaths.ts';

const graph = parseGraphOrThrow({
  name: 'g',
  step_budget: 200,
  nodes: [
    { id: 'env', type: 'gridEnv', config: { seed: 7, max_episode_steps: 30, sizes: [1, 2, 3] } },
    { id: 'view', type: 'textViewer' },
  ],
  containers: [{ id: 'memory', states: { trail: { type: 'accumulator', config: { max_size: 5 } } } }],
});

const ok = (sets: string[]) => {
  const r = applySets(graph, sets);
  if (!r.ok) throw new Error(r.message);
  return r.graph;
};
const fail = (sets: string[]) => {
  const r = applySets(graph, sets);
  if (r.ok) throw new Error('expected a failure');
  return r;
};

describe('parseSet', () => {
  it('reads the value as JSON, else as text', () => {
    expect(parseSet('step_budget=50')).toMatchObject({ path: ['step_budget'], value: 50 });
    expect(parseSet('a.b={"x":[1]}')).toMatchObject({ path: ['a', 'b'], value: { x: [1] } });
    expect(parseSet('name=My run = 2')).toMatchObject({ path: ['name'], value: 'My run = 2' });
    expect(parseSet('flag=true')).toMatchObject({ value: true });
    expect(parseSet('name=')).toMatchObject({ value: '' });
  });
  it('refuses text that is not path=value', () => {
    expect(parseSet('step_budget')).toMatch(/not path=value/);
    expect(parseSet('=3')).toMatch(/not path=value/);
    expect(parseSet('nodes..x=3')).toMatch(/empty segment/);
  });
});

describe('applySets', () => {
  it('sets top-level fields, node config by node id and slot config by container id', () => {
    const g = ok([
      'step_budget=50',
      'nodes.env.config.max_episode_steps=10',
      'containers.memory.states.trail.config.max_size=20',
    ]);
    expect(g.step_budget).toBe(50);
    expect(g.nodes[0]!.config.max_episode_steps).toBe(10);
    expect(g.containers[0]!.states.trail!.config.max_size).toBe(20);
    expect(graph.step_budget).toBe(200); // the input graph is not modified
  });

  it('adds a new key inside a config object, and addresses list items by index where there are no ids', () => {
    const g = ok(['nodes.view.config.title="hi"', 'nodes.env.config.sizes.1=5']);
    expect(g.nodes[1]!.config.title).toBe('hi');
    expect(g.nodes[0]!.config.sizes).toEqual([1, 5, 3]);
    // nodes have ids, so an index does not address one
    expect(fail(['nodes.0.config.seed=1']).message).toMatch(/^nodes\.0: no element "0" \(ids: env, view\)/);
    expect(fail(['nodes.env.config.sizes.3=1']).message).toMatch(
      /^nodes\.env\.config\.sizes\.3: no element "3" \(3 items\)/,
    );
  });

  it('names the path that does not exist', () => {
    expect(fail(['nodes.envx.config.seed=1'])).toMatchObject({
      index: 0,
      message: expect.stringMatching(/^nodes\.envx: no element "envx"/),
    });
    expect(fail(['step_budget=5', 'budget=5'])).toMatchObject({
      index: 1,
      message: expect.stringMatching(/^budget: no key "budget"/),
    });
    expect(fail(['containers.memory.states.nope.config.max_size=1']).message).toMatch(
      /^containers\.memory\.states\.nope: no key/,
    );
    expect(fail(['step_budget.x=1']).message).toMatch(/^step_budget\.x: step_budget is not an object/);
    expect(fail(['nodes.env=1']).message).toMatch(/^nodes\.env: replacing a whole element/);
  });

  it('refuses a value the graph format does not accept, naming the set and the schema path', () => {
    expect(fail(['step_budget="many"']).message).toMatch(
      /^step_budget="many" makes the graph invalid: \$\.step_budget/,
    );
  });
});
