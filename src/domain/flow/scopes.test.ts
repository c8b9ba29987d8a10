import { describe, expect, it } from 'vitest';
import type { EdgeDef, NodeDef } from '../graph/graph.schema.ts';
import { analyzeScopes, commonScope, GRAPH_SCOPE, isWithin } from './scopes.ts';

const node = (id: string, type: string, config: Record<string, unknown> = {}): NodeDef => ({
  id,
  type,
  label: id,
  position: { x: 0, y: 0 },
  config,
});
let seq = 0;
/** `edge('a.out', 'b.in')`. */
const edge = (from: string, to: string): EdgeDef => {
  const [source, sourceHandle = ''] = from.split('.') as [string, string?];
  const [target, targetHandle = ''] = to.split('.') as [string, string?];
  return { id: `e${++seq}`, source, target, sourceHandle, targetHandle };
};
const loop = (i: string, o: string): NodeDef[] => [
  node(i, 'iterIn', { version: 3, pairedWith: o }),
  node(o, 'iterOut', { pairedWith: i, ports: [{ name: 'v' }] }),
];
const scopes = (nodes: NodeDef[], edges: EdgeDef[]) => analyzeScopes({ nodes, edges });
const members = (a: ReturnType<typeof scopes>, id: string) => [...a.scopes.get(id)!.members].sort();

describe('analyzeScopes', () => {
  it('an empty graph has no scopes', () => {
    const a = scopes([], []);
    expect(a.scopes.size).toBe(0);
    expect(a.roots).toEqual([]);
    expect(a.overlaps).toEqual([]);
    expect(a.unpaired).toEqual([]);
  });

  it('a seeds-only graph lies in the graph scope', () => {
    const a = scopes([node('a', 'constant'), node('b', 'textViewer')], [edge('a.value', 'b.text')]);
    expect(a.scopeOf.get('a')).toBe(GRAPH_SCOPE);
    expect(a.scopeOf.get('b')).toBe(GRAPH_SCOPE);
    expect(a.roots).toEqual([]);
  });

  it('single scope: [body, iter_in, iter_out]; seed and sink stay in the graph scope', () => {
    const a = scopes(
      [
        node('seed', 'constant'),
        ...loop('iter_in', 'iter_out'),
        node('body', 'pass'),
        node('sink', 'textViewer'),
      ],
      [
        edge('seed.value', 'iter_in.init_x'),
        edge('iter_in.step', 'body.value'),
        edge('body.value', 'iter_out.v'),
        edge('iter_out.final_v', 'sink.text'),
      ],
    );
    expect(members(a, 'iter_in')).toEqual(['body', 'iter_in', 'iter_out']);
    expect(a.scopeOf.get('seed')).toBe(GRAPH_SCOPE);
    expect(a.scopeOf.get('sink')).toBe(GRAPH_SCOPE);
    expect(a.scopeOf.get('body')).toBe('iter_in');
    expect(a.roots).toEqual(['iter_in']);
    expect(a.byIterOut.get('iter_out')).toBe('iter_in');
  });

  it('stop wires stay in scope; a side branch that never reaches the iterOut does not', () => {
    const a = scopes(
      [...loop('in', 'out'), node('body', 'pass'), node('stopper', 'stopAt'), node('view', 'textViewer')],
      [
        edge('in.step', 'body.value'),
        edge('body.value', 'out.v'),
        edge('body.value', 'stopper.value'),
        edge('stopper.stop', 'out.stop'),
        edge('body.value', 'view.text'),
      ],
    );
    expect(a.scopeOf.get('stopper')).toBe('in');
    expect(a.scopeOf.get('view')).toBe(GRAPH_SCOPE);
  });

  it('nested topology: parent/child ids, depth, innermost assignment; graphIn/graphOut bind to the inner scope', () => {
    const a = scopes(
      [
        ...loop('o_in', 'o_out'),
        ...loop('i_in', 'i_out'),
        node('gi', 'graphIn'),
        node('body', 'pass'),
        node('go', 'graphOut'),
        node('after', 'pass'),
      ],
      [
        edge('o_in.step', 'i_in.init_k'),
        edge('i_in.step', 'gi.value'),
        edge('gi.value', 'body.value'),
        edge('body.value', 'i_out.v'),
        edge('body.value', 'go.value'),
        edge('i_out.final_v', 'after.value'),
        edge('after.value', 'o_out.v'),
      ],
    );
    expect(a.scopes.get('i_in')).toMatchObject({ parent: 'o_in', depth: 1, iterOut: 'i_out' });
    expect(a.scopes.get('o_in')).toMatchObject({ parent: GRAPH_SCOPE, depth: 0, children: ['i_in'] });
    expect(a.scopeOf.get('body')).toBe('i_in');
    expect(a.scopeOf.get('after')).toBe('o_in');
    expect(a.scopeOf.get('gi')).toBe('i_in');
    expect(a.scopeOf.get('go')).toBe('i_in');
    expect(a.memberScopeOf.get('go')).toBe(GRAPH_SCOPE); // a graphOut never reaches an iterOut itself
    expect(a.roots).toEqual(['o_in']);
    expect(a.overlaps).toEqual([]);
    expect(isWithin(a, 'i_in', 'o_in')).toBe(true);
    expect(isWithin(a, 'o_in', 'i_in')).toBe(false);
    expect(commonScope(a, ['i_in', 'o_in'])).toBe('o_in');
    expect(commonScope(a, ['i_in', GRAPH_SCOPE])).toBe(GRAPH_SCOPE);
  });

  it('the implicit loopback nests an inner loop whose iterIn is fed from outside the outer loop', () => {
    // i_in is seeded from the graph scope; only i_out → i_in (loopback) puts it inside o_in.
    const a = scopes(
      [node('seed', 'constant'), ...loop('o_in', 'o_out'), ...loop('i_in', 'i_out'), node('x', 'pass')],
      [
        edge('seed.value', 'i_in.init_a'),
        edge('o_in.step', 'i_out.v'),
        edge('i_in.step', 'i_out.v'),
        edge('i_out.final_v', 'x.value'),
        edge('x.value', 'o_out.v'),
      ],
    );
    expect(a.scopes.get('i_in')!.parent).toBe('o_in');
    expect(a.scopeOf.get('x')).toBe('o_in');
    expect(a.scopeOf.get('seed')).toBe(GRAPH_SCOPE);
  });

  it('a graphOut fed from a root final side stays graph-scope', () => {
    const a = scopes(
      [...loop('in', 'out'), node('go', 'graphOut')],
      [edge('in.step', 'out.v'), edge('out.final_v', 'go.value')],
    );
    expect(a.scopeOf.get('go')).toBe(GRAPH_SCOPE);
  });

  it('two peer roots, in node order', () => {
    const a = scopes(
      [...loop('a_in', 'a_out'), ...loop('b_in', 'b_out')],
      [edge('a_in.step', 'a_out.v'), edge('b_in.step', 'b_out.v')],
    );
    expect(a.roots).toEqual(['a_in', 'b_in']);
    expect(a.overlaps).toEqual([]);
  });

  it('an inner loop whose body also feeds the outer iterOut nests through its loopback', () => {
    // x reaches a_out directly, and b_out reaches a_out through b_out → b_in → x: b lies in a.
    const a = scopes(
      [...loop('a_in', 'a_out'), ...loop('b_in', 'b_out'), node('x', 'pass'), node('y', 'pass')],
      [
        edge('a_in.step', 'b_in.init_k'),
        edge('b_in.step', 'x.value'),
        edge('x.value', 'a_out.v'),
        edge('x.value', 'y.value'),
        edge('y.value', 'b_out.v'),
      ],
    );
    expect(a.scopes.get('b_in')!.parent).toBe('a_in');
    expect(members(a, 'b_in')).toEqual(['b_in', 'b_out', 'x', 'y']);
    expect(a.overlaps).toEqual([]);
  });

  it('reports partially overlapping scopes: two loops sharing one body hold each other through the loopbacks', () => {
    const a = scopes(
      [...loop('a_in', 'a_out'), ...loop('b_in', 'b_out'), node('x', 'pass')],
      [
        edge('a_in.step', 'x.value'),
        edge('b_in.step', 'x.value'),
        edge('x.value', 'a_out.v'),
        edge('x.value', 'b_out.v'),
      ],
    );
    expect(a.overlaps).toEqual([{ a: 'a_in', b: 'b_in', shared: ['a_in', 'a_out', 'b_in', 'b_out', 'x'] }]);
  });

  it('reports an iterOut sitting in another loop body while its iterIn is outside it', () => {
    const a = scopes(
      [...loop('a_in', 'a_out'), ...loop('b_in', 'b_out'), node('x', 'pass')],
      [edge('a_in.step', 'x.value'), edge('x.value', 'b_out.v'), edge('b_out.final_v', 'a_out.v')],
    );
    expect(members(a, 'a_in')).toEqual(['a_in', 'a_out', 'b_out', 'x']);
    expect(members(a, 'b_in')).toEqual(['b_in', 'b_out']);
    expect(a.overlaps).toEqual([{ a: 'a_in', b: 'b_in', shared: ['b_out'] }]);
  });

  it('handles a deep nesting chain: depths, parents and innermost assignment', () => {
    const depth = 200;
    const nodes: NodeDef[] = [node('body', 'pass')];
    const edges: EdgeDef[] = [];
    for (let k = 0; k < depth; k++) {
      nodes.push(...loop(`in${k}`, `out${k}`));
      if (k > 0) {
        edges.push(edge(`in${k - 1}.step`, `in${k}.init_k`), edge(`out${k}.final_v`, `out${k - 1}.v`));
      }
    }
    edges.push(edge(`in${depth - 1}.step`, 'body.value'), edge('body.value', `out${depth - 1}.v`));
    const a = scopes(nodes, edges);
    expect(a.roots).toEqual(['in0']);
    expect(a.scopes.get(`in${depth - 1}`)).toMatchObject({ depth: depth - 1, parent: `in${depth - 2}` });
    expect(a.scopeOf.get('body')).toBe(`in${depth - 1}`);
    expect(a.overlaps).toEqual([]);
  });

  it('returns pairing problems as data: unpaired iterIn, an iterOut claimed twice', () => {
    const a = scopes(
      [
        node('lonely', 'iterIn', { pairedWith: 'nope' }),
        node('a', 'iterIn', { pairedWith: 'out' }),
        node('b', 'iterIn', { pairedWith: 'out' }),
        node('out', 'iterOut', { pairedWith: 'a' }),
      ],
      [],
    );
    expect(a.unpaired).toEqual(['lonely', 'b']);
    expect([...a.scopes.keys()]).toEqual(['a']);
    expect(a.scopeOf.get('lonely')).toBe(GRAPH_SCOPE);
  });

  it('pairs through the iterOut pointer when the iterIn has no pairedWith; ignores dangling edges', () => {
    const a = scopes(
      [node('in', 'iterIn'), node('out', 'iterOut', { pairedWith: 'in' }), node('b', 'pass')],
      [edge('in.step', 'b.value'), edge('b.value', 'out.v'), edge('ghost.x', 'b.value')],
    );
    expect(members(a, 'in')).toEqual(['b', 'in', 'out']);
  });
});
