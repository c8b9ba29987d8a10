// The forest itself is tested in src/domain/flow/scopes.test.ts; here only what the adapter adds: it is
// the very analysis the validator uses, and pairing problems become BuildErrors.
import { describe, expect, it } from 'vitest';
import { analyzeScopes } from '../domain/flow/scopes.ts';
import { BuildError } from './errors.ts';
import { buildScopes, commonScope } from './scopes.ts';
import { edge, loop, node } from './testkit.ts';

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('engine scope forest (adapter over analyzeScopes)', () => {
  it('is exactly the validator analysis, including loopback nesting and graphIn/graphOut binding', () => {
    // i_in is seeded from the graph scope; only the implicit i_out → i_in loopback nests it in o_in.
    const nodes = [
      node('seed', 'constant'),
      ...loop('o_in', 'o_out', [{ name: 'v' }]),
      ...loop('i_in', 'i_out', [{ name: 'v' }]),
      node('gi', 'graphIn'),
      node('x', 'pass'),
      node('go', 'graphOut'),
    ];
    const edges = [
      edge('seed.value', 'i_in.init_a'),
      edge('o_in.step', 'i_out.v'),
      edge('i_in.step', 'gi.value'),
      edge('gi.value', 'i_out.v'),
      edge('i_out.final_v', 'x.value'),
      edge('x.value', 'o_out.v'),
      edge('o_out.final_v', 'go.value'),
    ];
    const f = buildScopes(nodes, edges);
    expect(f).toEqual(analyzeScopes({ nodes, edges }));
    expect(f.scopes.get('i_in')!.parent).toBe('o_in');
    expect(f.scopeOf.get('gi')).toBe('i_in');
    expect(f.scopeOf.get('go')).toBe('');
    expect(f.roots).toEqual(['o_in']);
    expect(commonScope(f, ['i_in', 'o_in'])).toBe('o_in');
  });

  it('an unpaired iterIn is a BuildError naming the node', () => {
    const build = () => buildScopes([node('in', 'iterIn', { pairedWith: 'nope' })], []);
    expect(build).toThrow(BuildError);
    expect(build).toThrow(/iterIn 'in' has no paired iterOut/);
    expect(thrown(build)).toMatchObject({ where: { node: 'in' } });
  });

  it('an iterOut claimed by two iterIns is a BuildError naming both, the first pairing winning', () => {
    const dup = [
      node('a', 'iterIn', { pairedWith: 'out' }),
      node('b', 'iterIn', { pairedWith: 'out' }),
      node('out', 'iterOut', { pairedWith: 'a' }),
    ];
    expect(() => buildScopes(dup, [])).toThrow("iterOut 'out' is paired with two iterIns ('a' and 'b')");
  });

  it('reports the first pairing problem in node order', () => {
    const nodes = [
      ...loop('a', 'out', [{ name: 'v' }]),
      node('b', 'iterIn', { pairedWith: 'out' }),
      node('lonely', 'iterIn', { pairedWith: 'nope' }),
    ];
    expect(() => buildScopes(nodes, [])).toThrow(/paired with two iterIns \('a' and 'b'\)/);
    expect(() =>
      buildScopes(
        nodes.filter((n) => n.id !== 'b'),
        [],
      ),
    ).toThrow(/iterIn 'lonely'/);
  });
});
