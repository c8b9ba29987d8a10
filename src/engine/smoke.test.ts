import { describe, expect, it } from 'vitest';
import { container, edge, grant, graph, loop, node, runAll, slot } from './testkit.ts';

describe('smoke', () => {
  it('runs a counter loop', async () => {
    const g = graph({
      step_budget: 5,
      nodes: [node('seed', 'constant', { value: 'hi' }), ...loop('in', 'out', [{ name: 'v' }], [{ name: 'goal', persist: true }]), node('w', 'stateWrite', { container: 'm', state: 'n', value: 1 })],
      edges: [edge('seed.value', 'in.init_goal'), edge('in.init_goal', 'w.value'), edge('w.value', 'out.v')],
      containers: [container('m', { n: slot('counter'), s: slot('lastWrite', { lifetime: 'step' }) })],
      access_grants: [grant('w', 'm')],
    });
    const r = await runAll(g);
    console.log(r.events.map((e) => e.type).join(' '));
    console.log(JSON.stringify(r.of('nav_step').at(-1)));
    expect(r.run.status).toBe('done');
  });
});
