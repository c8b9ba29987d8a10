// Loop-scope validation, mirroring docs/reference-system.md §6 "Scope analysis" and "iterOut contract".
import { describe, expect, it } from 'vitest';
import { emptyGraph, type EdgeDef, type GraphDef, type NodeDef } from '../graph/graph.schema.ts';
import { validate } from './graph.validate.ts';
import type { Issue } from './issues.ts';
import { parseGraphText } from '../graph/graph.parse.ts';
import { FIXTURES } from '../graph/fixtures/loadFixtures.testutil.ts';

const node = (
  id: string,
  type: string,
  config: Record<string, unknown> = {},
  subgraph?: GraphDef,
): NodeDef => ({
  id,
  type,
  label: id,
  position: { x: 0, y: 0 },
  config,
  ...(subgraph ? { subgraph } : {}),
});
/** `edge('id', 'a.out', 'b.in')`. */
const edge = (id: string, from: string, to: string): EdgeDef => {
  const [source, sourceHandle = ''] = from.split('.') as [string, string?];
  const [target, targetHandle = ''] = to.split('.') as [string, string?];
  return { id, source, target, sourceHandle, targetHandle };
};
const loop = (i: string, o: string): NodeDef[] => [
  node(i, 'iterIn', { version: 3, pairedWith: o }),
  node(o, 'iterOut', { pairedWith: i, ports: [{ name: 'v' }] }),
];
const graph = (nodes: NodeDef[], edges: EdgeDef[], extra: Partial<GraphDef> = {}): GraphDef => ({
  ...emptyGraph('t'),
  eval_graph: false,
  nodes,
  edges,
  ...extra,
});
const errors = (g: GraphDef): Issue[] => validate(g).filter((i) => i.severity === 'error');
const codes = (g: GraphDef): string[] => errors(g).map((i) => i.code);

/** seed → iter_in → body → iter_out → sink: the single-scope shape every rule starts from. */
const single = (): { nodes: NodeDef[]; edges: EdgeDef[] } => ({
  nodes: [
    node('seed', 'constant'),
    ...loop('iter_in', 'iter_out'),
    node('body', 'pass'),
    node('sink', 'textViewer'),
  ],
  edges: [
    edge('e1', 'seed.value', 'iter_in.init_x'),
    edge('e2', 'iter_in.step', 'body.value'),
    edge('e3', 'body.value', 'iter_out.v'),
    edge('e4', 'iter_out.final_v', 'sink.text'),
  ],
});

/** Outer loop o_in/o_out running inner loop i_in/i_out with body `b` between them. */
const nested = (): { nodes: NodeDef[]; edges: EdgeDef[] } => ({
  nodes: [...loop('o_in', 'o_out'), ...loop('i_in', 'i_out'), node('b', 'pass'), node('after', 'pass')],
  edges: [
    edge('n1', 'o_in.step', 'i_in.init_k'),
    edge('n2', 'i_in.step', 'b.value'),
    edge('n3', 'b.value', 'i_out.v'),
    edge('n4', 'i_out.final_v', 'after.value'),
    edge('n5', 'after.value', 'o_out.v'),
  ],
});

describe('validate: scope analysis (docs/reference-system.md §6)', () => {
  it('an empty graph and a seeds-only graph have no scope errors', () => {
    expect(errors(graph([], []))).toEqual([]);
    expect(
      errors(graph([node('a', 'constant'), node('b', 'textViewer')], [edge('e', 'a.value', 'b.text')])),
    ).toEqual([]);
  });

  it('a single scope with seed and sink in the graph scope passes; stop wires stay in scope', () => {
    const { nodes, edges } = single();
    expect(errors(graph(nodes, edges))).toEqual([]);
    nodes.push(node('stopper', 'stopAt'));
    edges.push(edge('s1', 'body.value', 'stopper.value'), edge('s2', 'stopper.stop', 'iter_out.stop'));
    expect(errors(graph(nodes, edges))).toEqual([]);
  });

  it('nested loops wired through the pivots pass; two peer roots pass', () => {
    const { nodes, edges } = nested();
    expect(errors(graph(nodes, edges))).toEqual([]);
    const peers = graph(
      [...loop('a_in', 'a_out'), ...loop('b_in', 'b_out')],
      [edge('p1', 'a_in.step', 'a_out.v'), edge('p2', 'b_in.step', 'b_out.v')],
    );
    expect(errors(peers)).toEqual([]);
  });

  it('graphIn/graphOut inside a composite bind to the inner scope: no cross-scope error', () => {
    const { nodes, edges } = nested();
    nodes.push(node('gi', 'graphIn', { portName: 'x' }), node('go', 'graphOut', { portName: 'y' }));
    edges.push(edge('g1', 'gi.value', 'b.extra'), edge('g2', 'b.value', 'go.value'));
    const parent = graph([node('comp', 'compositeNode', {}, graph(nodes, edges))], []);
    expect(errors(parent)).toEqual([]);
  });

  it('a graphIn feeding both loop bodies is bound to the inner scope, so its wire into the outer body crosses scopes', () => {
    const { nodes, edges } = nested();
    nodes.push(node('gi', 'graphIn', { portName: 'x' }));
    edges.push(edge('g1', 'gi.value', 'b.extra'), edge('g2', 'gi.value', 'after.extra'));
    expect(errors(graph(nodes, edges))).toEqual([
      expect.objectContaining({ code: 'cross-scope-edge', edgeId: 'g2', nodeId: 'after' }),
    ]);
  });

  it('a wire between two loop scopes that skips the pivots is an error (with JSON path and ids)', () => {
    const { nodes, edges } = nested();
    nodes.push(node('x', 'pass'));
    // x sits in the outer scope (it feeds o_out); b → x leaves the inner scope without i_out.
    edges.push(edge('bad', 'b.value', 'x.value'), edge('n6', 'x.value', 'o_out.v'));
    const found = errors(graph(nodes, edges));
    expect(found).toEqual([
      expect.objectContaining({
        code: 'cross-scope-edge',
        severity: 'error',
        path: '$.edges[5]',
        edgeId: 'bad',
        nodeId: 'x',
      }),
    ]);
    expect(found[0]!.message).toMatch(/'b' in loop scope 'i_in' to 'x' in loop scope 'o_in'/);
  });

  it('a wire from the outer body straight into the inner body is an error; through the iterIn it is not', () => {
    const { nodes, edges } = nested();
    edges.push(edge('direct', 'o_in.step', 'b.more'));
    expect(errors(graph(nodes, edges))).toEqual([
      expect.objectContaining({ code: 'cross-scope-edge', edgeId: 'direct' }),
    ]);
  });

  it('wires between the graph scope and a loop scope are always allowed', () => {
    const { nodes, edges } = single();
    nodes.push(node('const', 'constant'), node('view', 'textViewer'));
    edges.push(edge('c1', 'const.value', 'body.extra'), edge('c2', 'body.value', 'view.text'));
    expect(codes(graph(nodes, edges))).not.toContain('cross-scope-edge');
  });

  it('duplicate pairedWith and an unpaired iterIn are errors', () => {
    const { nodes, edges } = single();
    nodes.push(node('iter_out2', 'iterOut', { pairedWith: 'iter_in', ports: [{ name: 'v' }] }));
    expect(errors(graph(nodes, edges))).toContainEqual(
      expect.objectContaining({
        code: 'duplicate-pairing',
        nodeId: 'iter_out2',
        path: '$.nodes[5].config.pairedWith',
      }),
    );
    const lonely = graph([node('in', 'iterIn', { version: 3 })], []);
    expect(errors(lonely)).toEqual([expect.objectContaining({ code: 'iterin-unpaired', nodeId: 'in' })]);
  });

  it('partially overlapping scopes are an error on the later iterIn', () => {
    const g = graph(
      [...loop('a_in', 'a_out'), ...loop('b_in', 'b_out'), node('x', 'pass')],
      [
        edge('o1', 'a_in.step', 'x.value'),
        edge('o2', 'b_in.step', 'x.value'),
        edge('o3', 'x.value', 'a_out.v'),
        edge('o4', 'x.value', 'b_out.v'),
      ],
    );
    expect(errors(g)).toContainEqual(
      expect.objectContaining({ code: 'scope-overlap', nodeId: 'b_in', path: '$.nodes[2]' }),
    );
  });

  it('checks subgraphs recursively with nested paths', () => {
    const { nodes, edges } = nested();
    nodes.push(node('x', 'pass'));
    edges.push(edge('bad', 'b.value', 'x.value'), edge('n6', 'x.value', 'o_out.v'));
    const parent = graph(
      [node('pre', 'constant'), node('comp', 'compositeNode', {}, graph(nodes, edges))],
      [],
    );
    expect(errors(parent)).toEqual([
      expect.objectContaining({
        code: 'cross-scope-edge',
        path: '$.nodes[1].subgraph.edges[5]',
        edgeId: 'bad',
      }),
    ]);
  });
});

describe('validate: iterOut contract (docs/reference-system.md §6)', () => {
  it('a valid loop passes', () => {
    const { nodes, edges } = single();
    expect(errors(graph(nodes, edges))).toEqual([]);
  });

  it('termination is rejected with a hint mentioning stop', () => {
    const { nodes, edges } = single();
    nodes.push(node('term', 'termination'));
    const [issue] = errors(graph(nodes, edges));
    expect(issue).toMatchObject({ code: 'removed-node-type', nodeId: 'term' });
    expect(issue!.message).toMatch(/stop/);
  });

  it('edges from iterOut are final-side only; final_v and final_stop are accepted', () => {
    const { nodes, edges } = single();
    edges.push(edge('fs', 'iter_out.final_stop', 'sink.done'));
    expect(errors(graph(nodes, edges))).toEqual([]);
    edges.push(edge('bad', 'iter_out.v', 'sink.more'));
    expect(errors(graph(nodes, edges))).toEqual([
      expect.objectContaining({ code: 'iterout-final-side-only', edgeId: 'bad' }),
    ]);
  });

  it('an unknown handle into the iterOut is rejected', () => {
    const { nodes, edges } = single();
    edges.push(edge('bad', 'body.value', 'iter_out.nope'));
    expect(errors(graph(nodes, edges))).toEqual([
      expect.objectContaining({ code: 'unknown-handle', edgeId: 'bad' }),
    ]);
  });

  it('an after-loop band fed from the loop body is rejected ("ride the pivot")', () => {
    const { nodes, edges } = single();
    edges.push(edge('leak', 'body.value', 'sink.extra'));
    const found = errors(graph(nodes, edges));
    expect(found).toEqual([
      expect.objectContaining({
        code: 'band-input-off-pivot',
        path: '$.edges[4]',
        edgeId: 'leak',
        nodeId: 'sink',
      }),
    ]);
    expect(found[0]!.message).toMatch(/Verdict inputs must ride the pivot/);
  });

  it('a band node fed from a graph-scope seed is rejected too; a chain inside the band is not', () => {
    const { nodes, edges } = single();
    nodes.push(node('judge', 'pass'), node('k', 'constant'));
    edges.push(edge('chain', 'sink.text', 'judge.value'), edge('seed2', 'k.value', 'judge.threshold'));
    expect(errors(graph(nodes, edges))).toEqual([
      expect.objectContaining({ code: 'band-input-off-pivot', edgeId: 'seed2' }),
    ]);
  });

  it('an after-loop band that runs into a loop scope is rejected ("must be graph-scope")', () => {
    const { nodes, edges } = single();
    nodes.push(...loop('l2_in', 'l2_out'));
    edges.push(edge('chain', 'sink.text', 'l2_in.init_a'), edge('l2', 'l2_in.step', 'l2_out.v'));
    const found = errors(graph(nodes, edges));
    expect(found).toEqual([
      expect.objectContaining({ code: 'after-loop-band-in-scope', nodeId: 'l2_in', path: '$.nodes[5]' }),
    ]);
    expect(found[0]!.message).toMatch(/the after-loop band must be graph-scope/);
  });

  it('an eval graphOut(metrics) fed from the body is rejected; fed from final_v it passes', () => {
    const { nodes, edges } = single();
    nodes.push(node('m', 'graphOut', { portName: 'metrics' }));
    const fromFinal = graph(nodes, [...edges, edge('ok', 'iter_out.final_v', 'm.value')], {
      eval_graph: true,
    });
    expect(errors(fromFinal)).toEqual([]);
    const fromBody = graph(nodes, [...edges, edge('bad', 'body.value', 'm.value')], { eval_graph: true });
    const found = errors(fromBody);
    expect(found).toEqual([
      expect.objectContaining({
        code: 'eval-output-from-body',
        path: '$.edges[4]',
        edgeId: 'bad',
        nodeId: 'm',
      }),
    ]);
    expect(found[0]!.message).toMatch(/eval outputs must come from the after-loop band/);
  });

  it('graphOut(success) fed indirectly from the body is rejected; other portNames and kind node are exempt', () => {
    const { nodes, edges } = single();
    nodes.push(node('fmt', 'pass'), node('s', 'graphOut', { portName: 'success' }));
    edges.push(edge('f1', 'body.value', 'fmt.value'), edge('f2', 'fmt.value', 's.value'));
    expect(errors(graph(nodes, edges))).toEqual([
      expect.objectContaining({ code: 'eval-output-from-body', edgeId: 'f2' }),
    ]);
    expect(errors(graph(nodes, edges, { kind: 'node' }))).toEqual([]);
    const other = nodes.map((n) => (n.id === 's' ? node('s', 'graphOut', { portName: 'trace' }) : n));
    expect(errors(graph(other, edges))).toEqual([]);
  });

  it('an eval graphOut fed from a constant (not the loop) passes', () => {
    const { nodes, edges } = single();
    nodes.push(node('k', 'constant'), node('m', 'graphOut', { portName: 'metrics' }));
    edges.push(edge('k1', 'k.value', 'm.value'));
    expect(errors(graph(nodes, edges))).toEqual([]);
  });
});

describe('validate: scope rules on the domain fixtures', () => {
  const SCOPE_CODES = [
    'scope-overlap',
    'cross-scope-edge',
    'after-loop-band-in-scope',
    'band-input-off-pivot',
    'eval-output-from-body',
  ];
  it.each(Object.keys(FIXTURES))('%s raises no scope issue', (name) => {
    const r = parseGraphText(FIXTURES[name]!);
    if (!r.ok) throw new Error(`${name} does not parse`);
    expect(validate(r.graph).filter((i) => SCOPE_CODES.includes(i.code))).toEqual([]);
  });
});
