// The routing demo (workspace/graphs/router_demo.json): it checks clean, runs explore → exploit →
// done with exactly one route per step, and the same graph with overlapping conditions is flagged by
// the static checker and stops the run at the first ambiguous step without committing it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGraph } from '../domain/graph/graph.parse.ts';
import type { GraphDef } from '../domain/graph/graph.schema.ts';
import { validate } from '../domain/validate/graph.validate.ts';
import { runAll } from './testkit.ts';

function demo(): GraphDef {
  const text = readFileSync(new URL('../../workspace/graphs/router_demo.json', import.meta.url), 'utf8');
  const r = parseGraph(JSON.parse(text));
  if (!r.ok) throw new Error('router demo does not parse');
  return r.graph;
}

describe('router demo', () => {
  it('validates without errors, overlaps or gaps', () => {
    const issues = validate(demo());
    expect(issues.filter((i) => i.severity !== 'info')).toEqual([]);
  });

  it('takes one observation route per step: explore ×4, exploit ×5, then the stop branch', async () => {
    const { run, of } = await runAll(demo());
    expect(run.status).toBe('done');
    expect(run.step).toBe(10);
    const taken = of('route').filter((r) => r.node_id === 'env');
    expect(taken.map((r) => r.edge_id)).toEqual([
      ...Array<string>(4).fill('e_explore'),
      ...Array<string>(5).fill('e_exploit'),
      'e_stop',
    ]);
    expect(
      taken.every((r) => r.candidates.filter((c) => c.condition_holds && c.effect_ok).length === 1),
    ).toBe(true);
    expect(of('nav_step').map((s) => s.features?.phase)).toEqual([
      'explore',
      'explore',
      'explore',
      'explore',
      'exploit',
      'exploit',
      'exploit',
      'exploit',
      'exploit',
      'done',
    ]);
    expect(run.result().containers.graph_state).toMatchObject({
      explore_steps: 4,
      exploit_steps: 5,
      stopped: true,
    });
  });

  it('overlapping conditions: the checker names node, edges and an example; the run stops uncommitted', async () => {
    const g = demo();
    g.edges.find((e) => e.id === 'e_exploit')!.condition = { feature: 'phase', in: ['explore', 'exploit'] };
    const overlap = validate(g).find((i) => i.code === 'routes-overlap');
    expect(overlap?.message).toBe(
      "routing node 'env' (port 'observation'): with phase=explore the conditions of edges 'e_explore', 'e_exploit' all hold — an ambiguous route (1 of 3 combinations overlap)",
    );
    const { run, of } = await runAll(g);
    expect(run.status).toBe('error');
    expect(run.checkpointSteps()).toEqual([]);
    expect(of('nav_step')).toEqual([]);
    const err = of('error_event').find((e) => e.code === 'ROUTE_AMBIGUOUS');
    expect(err?.message).toMatch(
      /edges 'e_explore', 'e_exploit' are all compatible with features phase=explore/,
    );
  });
});
