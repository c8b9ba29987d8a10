import { describe, expect, it } from 'vitest';
import { BuildError } from './errors.ts';
import { buildScopes, commonScope } from './scopes.ts';
import { edge, loop, node } from './testkit.ts';

describe('scope forest', () => {
  it('empty graph and seeds-only graph lie in the graph scope', () => {
    expect(buildScopes([], []).roots).toEqual([]);
    const f = buildScopes([node('a', 'constant'), node('b', 'textViewer')], [edge('a.value', 'b.text')]);
    expect(f.scopeOf.get('a')).toBe('');
    expect(f.scopeOf.get('b')).toBe('');
  });

  it('single scope: body + pivots; seed and sink stay in the graph scope; stop wires stay in scope', () => {
    const nodes = [
      node('seed', 'constant'),
      ...loop('iter_in', 'iter_out', [{ name: 'v' }]),
      node('body', 'pass'),
      node('stopper', 'stopAt'),
      node('sink', 'textViewer'),
    ];
    const edges = [
      edge('seed.value', 'iter_in.init_x'),
      edge('iter_in.step', 'body.value'),
      edge('body.value', 'iter_out.v'),
      edge('body.value', 'stopper.value'),
      edge('stopper.stop', 'iter_out.stop'),
      edge('iter_out.final_v', 'sink.text'),
    ];
    const f = buildScopes(nodes, edges);
    expect([...f.scopes.get('iter_in')!.members].sort()).toEqual(['body', 'iter_in', 'iter_out', 'stopper']);
    expect(f.scopeOf.get('seed')).toBe('');
    expect(f.scopeOf.get('sink')).toBe('');
    expect(f.scopeOf.get('stopper')).toBe('iter_in');
    expect(f.roots).toEqual(['iter_in']);
  });

  it('nested topology records parent/child; graphIn/graphOut bind to the inner scope', () => {
    const nodes = [
      ...loop('o_in', 'o_out', [{ name: 'v' }]),
      ...loop('i_in', 'i_out', [{ name: 'v' }]),
      node('gi', 'graphIn'),
      node('body', 'pass'),
      node('go', 'graphOut'),
      node('after', 'pass'),
    ];
    const edges = [
      edge('o_in.step', 'i_in.init_k'),
      edge('i_in.step', 'gi.value'),
      edge('gi.value', 'body.value'),
      edge('body.value', 'i_out.v'),
      edge('body.value', 'go.value'),
      edge('i_out.final_v', 'after.value'),
      edge('after.value', 'o_out.v'),
    ];
    const f = buildScopes(nodes, edges);
    expect(f.scopes.get('i_in')!.parent).toBe('o_in');
    expect(f.scopes.get('o_in')!.children).toEqual(['i_in']);
    expect(f.scopeOf.get('body')).toBe('i_in');
    expect(f.scopeOf.get('after')).toBe('o_in');
    expect(f.scopeOf.get('gi')).toBe('i_in');
    expect(f.scopeOf.get('go')).toBe('i_in');
    expect(f.roots).toEqual(['o_in']);
    expect(commonScope(f, ['i_in', 'o_in'])).toBe('o_in');
    expect(commonScope(f, ['i_in', ''])).toBe('');
  });

  it('two peer roots', () => {
    const nodes = [...loop('a_in', 'a_out', [{ name: 'v' }]), ...loop('b_in', 'b_out', [{ name: 'v' }])];
    const edges = [edge('a_in.step', 'a_out.v'), edge('b_in.step', 'b_out.v')];
    expect(buildScopes(nodes, edges).roots).toEqual(['a_in', 'b_in']);
  });

  it('a graphOut fed from a root final side stays graph-scope', () => {
    const f = buildScopes(
      [...loop('in', 'out', [{ name: 'v' }]), node('go', 'graphOut')],
      [edge('in.step', 'out.v'), edge('out.final_v', 'go.value')],
    );
    expect(f.scopeOf.get('go')).toBe('');
  });

  it('unpaired iterIn and duplicate pairedWith are build errors', () => {
    expect(() => buildScopes([node('in', 'iterIn', { pairedWith: 'nope' })], [])).toThrow(BuildError);
    expect(() => buildScopes([node('in', 'iterIn', { pairedWith: 'nope' })], [])).toThrow(
      /iterIn 'in' has no paired iterOut/,
    );
    const dup = [
      node('a', 'iterIn', { pairedWith: 'out' }),
      node('b', 'iterIn', { pairedWith: 'out' }),
      node('out', 'iterOut', { pairedWith: 'a' }),
    ];
    expect(() => buildScopes(dup, [])).toThrow(/paired with two iterIns/);
  });
});
