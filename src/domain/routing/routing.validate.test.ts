import { describe, expect, it } from 'vitest';
import { parseGraphOrThrow } from '../graph/graph.parse.ts';
import { validate } from '../validate/graph.validate.ts';
import { EXTENSION_KEY } from './routing.schema.ts';

const PHASE = { name: 'phase', domain: { enum: ['explore', 'exploit', 'done'] } };

/** src → three targets on port `value`, plus an init edge that assigns phase. */
function graph(routes: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return parseGraphOrThrow({
    nodes: [
      { id: 'init', type: 'constant', config: { value: 1 } },
      { id: 'src', type: 'stateWrite', config: { container: 'mem', state: 's' } },
      { id: 'a', type: 'textViewer' },
      { id: 'b', type: 'textViewer' },
      { id: 'c', type: 'textViewer' },
    ],
    edges: [
      { id: 'e0', source: 'init', target: 'src', sourceHandle: 'value', targetHandle: 'value' },
      { id: 'ea', source: 'src', target: 'a', sourceHandle: 'value', targetHandle: 'text' },
      { id: 'eb', source: 'src', target: 'b', sourceHandle: 'value', targetHandle: 'text' },
      { id: 'ec', source: 'src', target: 'c', sourceHandle: 'value', targetHandle: 'text' },
    ],
    containers: [{ id: 'mem', states: { s: {}, score: { type: 'counter' } } }],
    access_grants: [{ id: 'g', node_id: 'src', container_id: 'mem' }],
    eval_graph: false,
    [EXTENSION_KEY]: {
      features: [PHASE, { name: 'n', domain: { int: [0, 2] } }, { name: 'flag', domain: 'bool' }],
      edges: { e0: { effect: { assign: { phase: 'explore', n: 0, flag: false } } }, ...routes },
      ...extra,
    },
  });
}

const codes = (g: ReturnType<typeof graph>) =>
  validate(g)
    .filter(
      (i) =>
        i.path.includes(EXTENSION_KEY) ||
        i.code.startsWith('route') ||
        i.code.includes('feature') ||
        i.code.includes('route'),
    )
    .map((i) => `${i.severity} ${i.code}`);

describe('routing validation', () => {
  it('a partition of the domain passes clean', () => {
    const g = graph({
      ea: { condition: { feature: 'phase', eq: 'explore' } },
      eb: { condition: { feature: 'phase', eq: 'exploit' } },
      ec: { condition: { feature: 'phase', eq: 'done' } },
    });
    expect(codes(g)).toEqual([]);
  });

  it('unknown-feature and feature-value-outside-domain name the edge, with a path into the block', () => {
    const g = graph({
      ea: { condition: { feature: 'mood', eq: 'x' } },
      eb: { condition: { feature: 'phase', in: ['explore', 'sleep'] }, effect: { assign: { n: 5 } } },
      ec: {
        condition: { not: { feature: 'phase', in: ['explore', 'exploit'] } },
        effect: { allow: { phase: [['done', 'nap']] } },
      },
    });
    const issues = validate(g).filter((i) => i.severity === 'error');
    expect(issues.map((i) => [i.code, i.path, i.edgeId])).toEqual([
      ['unknown-feature', '$["x-statewire"].edges.ea.condition.feature', 'ea'],
      ['feature-value-outside-domain', '$["x-statewire"].edges.eb.condition.in[1]', 'eb'],
      ['feature-value-outside-domain', '$["x-statewire"].edges.eb.effect.assign.n', 'eb'],
      ['feature-value-outside-domain', '$["x-statewire"].edges.ec.effect.allow.phase[0][1]', 'ec'],
    ]);
    expect(issues[0]!.message).toMatch(
      /feature 'mood', which the graph does not declare \(features: phase, n, flag\)/,
    );
    expect(issues[2]!.message).toMatch(/5 is not a value of feature 'n' \(domain int \[0, 2\]\)/);
  });

  it('feature-never-initialised: a condition on a feature no effect can assign', () => {
    const g = graph(
      { ea: { condition: { feature: 'flag', eq: true } }, eb: { condition: { feature: 'flag', eq: false } } },
      {},
    );
    g.edges[0]!.effect = { assign: { phase: 'explore' } };
    const errs = validate(g).filter((i) => i.code === 'feature-never-initialised');
    expect(errs.map((i) => i.edgeId)).toEqual(['ea', 'eb']);
    expect(errs[0]!.message).toMatch(/reads feature 'flag', but no edge's effect assigns it/);
    g.edges[0]!.effect = 'unconstrained';
    expect(validate(g).filter((i) => i.code === 'feature-never-initialised')).toEqual([]);
  });

  it('two-unconditional-routes beside a conditional edge is an error', () => {
    const g = graph({ ea: { condition: { feature: 'phase', eq: 'done' } } });
    const i = validate(g).find((x) => x.code === 'two-unconditional-routes');
    expect(i).toMatchObject({ severity: 'error', nodeId: 'src', path: '$.nodes[1]' });
    expect(i!.message).toMatch(/2 unconditional edges \('eb', 'ec'\)/);
  });

  it('routes-overlap and routes-gap name the node, the edges and an example assignment', () => {
    const g = graph({
      ea: { condition: { feature: 'phase', in: ['explore', 'exploit'] } },
      eb: {
        condition: {
          all: [
            { feature: 'phase', eq: 'exploit' },
            { feature: 'n', eq: 2 },
          ],
        },
      },
      ec: {
        condition: {
          all: [
            { feature: 'phase', eq: 'done' },
            { feature: 'flag', eq: true },
          ],
        },
      },
    });
    const found = validate(g).filter((i) => i.code.startsWith('routes-'));
    expect(found.map((i) => [i.severity, i.code, i.nodeId])).toEqual([
      ['warning', 'routes-overlap', 'src'],
      ['warning', 'routes-gap', 'src'],
    ]);
    expect(found[0]!.message).toBe(
      "routing node 'src' (port 'value'): with phase=exploit, n=2, flag=false the conditions of edges 'ea', 'eb' all hold — an ambiguous route (2 of 18 combinations overlap)",
    );
    expect(found[1]!.message).toMatch(
      /with phase=done, n=0, flag=false no condition of edges 'ea', 'eb', 'ec' holds — a missing route \(3 of 18 combinations have none\)/,
    );
  });

  it('slot comparisons are not enumerated: an info, and no finding that depends on them', () => {
    const g = graph({
      ea: { condition: { slot: 'mem.score', path: '$', op: '>=', value: 3 } },
      eb: { condition: { not: { slot: 'mem.score', path: '$', op: '>=', value: 3 } } },
      ec: {
        condition: {
          all: [
            { feature: 'phase', eq: 'done' },
            { slot: 'mem.score', path: '$', op: '<', value: 0 },
          ],
        },
      },
    });
    const found = validate(g).filter((i) => i.code.startsWith('routes-'));
    expect(found.map((i) => `${i.severity} ${i.code}`)).toEqual(['info routes-not-enumerable']);
    expect(found[0]!.message).toMatch(/slot comparisons on edges 'ea', 'eb', 'ec' are not enumerable/);
  });

  it('slot comparisons need a declared slot and a grant of the source node', () => {
    const g = graph({
      ea: { condition: { slot: 'mem.nope', path: '$', op: '==', value: 1 } },
      eb: { condition: { slot: 'other.x', path: '$', op: '==', value: 1 } },
      ec: { condition: { slot: 'mem.score', path: '$.a[b]', op: '==', value: 1 } },
    });
    g.access_grants = [];
    const errs = validate(g).filter((i) =>
      ['unknown-slot', 'condition-slot-ungranted', 'invalid-slot-path'].includes(i.code),
    );
    expect(errs.map((i) => `${i.code} ${i.edgeId}`)).toEqual([
      'unknown-slot ea',
      'unknown-slot eb',
      'invalid-slot-path ec',
      'condition-slot-ungranted ec',
    ]);
  });

  it('large domains are not enumerated (info), and duplicate features are errors', () => {
    const g = graph(
      { ea: { condition: { feature: 'big', eq: 1 } }, eb: { condition: { feature: 'big', eq: 2 } } },
      {
        features: [
          PHASE,
          { name: 'n', domain: { int: [0, 2] } },
          { name: 'flag', domain: 'bool' },
          { name: 'big', domain: { int: [0, 100000] } },
          { name: 'n', domain: 'bool' },
        ],
      },
    );
    g.edges[0]!.effect = 'unconstrained';
    const found = validate(g).filter((i) => ['routes-not-checked', 'duplicate-feature'].includes(i.code));
    expect(found.map((i) => `${i.severity} ${i.code}`)).toEqual([
      'error duplicate-feature',
      'info routes-not-checked',
    ]);
    expect(found[1]!.message).toMatch(/100001 combinations of big \(more than 4096\)/);
  });

  it('routing inside a composite subgraph is refused (not supported yet)', () => {
    const inner = graph({});
    const g = parseGraphOrThrow({ nodes: [{ id: 'comp', type: 'compositeNode' }], eval_graph: false });
    g.nodes[0]!.subgraph = inner;
    const i = validate(g).find((x) => x.code === 'routing-in-subgraph');
    expect(i).toMatchObject({ severity: 'error', path: '$.nodes[0].subgraph["x-statewire"]' });
  });
});
