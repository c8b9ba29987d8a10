import { describe, expect, it } from 'vitest';
import { emptyGraph, type GraphDef } from '../../domain/graph/graph.schema.ts';
import type { FeatureDef } from '../../domain/routing/routing.schema.ts';
import { formatGraphText, parseGraphInput } from '../store/graphIo.ts';
import {
  addFeature,
  edgesUsingFeature,
  featureFromFields,
  featureProblem,
  fieldsOf,
  removeFeature,
  setEdgeRoute,
  updateFeature,
} from './routing.ops.ts';

const PHASE: FeatureDef = { name: 'phase', domain: { enum: ['explore', 'exploit', 'done'] } };

function routed(): GraphDef {
  return {
    ...emptyGraph('r'),
    features: [PHASE],
    edges: [
      {
        id: 'e1',
        source: 'a',
        target: 'b',
        sourceHandle: 'out',
        targetHandle: 'in',
        condition: { all: [{ feature: 'phase', in: ['explore'] }] },
        effect: { assign: { phase: 'exploit' } },
      },
      { id: 'e2', source: 'a', target: 'c', sourceHandle: 'out', targetHandle: 'in' },
    ],
  };
}

const ok = (r: ReturnType<typeof addFeature>): GraphDef => {
  if (!r.ok) throw new Error(r.reason);
  return r.graph;
};

describe('feature edits', () => {
  it('add refuses bad names, duplicates, empty and repeated enum values, backwards ranges', () => {
    const g = routed();
    expect(addFeature(g, { name: 'phase', domain: 'bool' })).toEqual({
      ok: false,
      reason: 'a feature named phase already exists',
    });
    expect(addFeature(g, { name: '', domain: 'bool' }).ok).toBe(false);
    expect(addFeature(g, { name: '2x', domain: 'bool' }).ok).toBe(false);
    expect(featureProblem({ name: 'm', domain: { enum: ['a', 'a'] } }, [])).toBe('m lists a twice');
    expect(featureProblem({ name: 'n', domain: { int: [3, 1] } }, [])).toBe('n: min 3 is above max 1');
    const next = ok(addFeature(g, { name: 'armed', domain: 'bool', description: 'trap set' }));
    expect(next.features?.map((f) => f.name)).toEqual(['phase', 'armed']);
    expect(g.features).toHaveLength(1); // pure
  });

  it('rename follows into conditions and effects; removing the last feature drops the key', () => {
    const g = ok(updateFeature(routed(), 'phase', { ...PHASE, name: 'mode' }));
    expect(g.edges[0]!.condition).toEqual({ all: [{ feature: 'mode', in: ['explore'] }] });
    expect(g.edges[0]!.effect).toEqual({ assign: { mode: 'exploit' } });
    expect(edgesUsingFeature(g, 'mode')).toEqual(['e1']);
    const gone = ok(removeFeature(g, 'mode'));
    expect('features' in gone).toBe(false);
    // The condition stays (validation then flags the unknown feature).
    expect(gone.edges[0]!.condition).toEqual(g.edges[0]!.condition);
  });

  it('the editor fields turn into a declaration, or say what is off', () => {
    expect(
      featureFromFields({
        name: ' phase ',
        kind: 'enum',
        values: 'explore, exploit,, done',
        min: '',
        max: '',
        description: '',
      }),
    ).toEqual({
      ok: true,
      feature: PHASE,
    });
    expect(
      featureFromFields({ name: 'n', kind: 'int', values: '', min: '0', max: 'x', description: '' }).ok,
    ).toBe(false);
    expect(
      featureFromFields({ name: 'n', kind: 'int', values: '', min: '0', max: '4', description: ' d ' }),
    ).toEqual({
      ok: true,
      feature: { name: 'n', domain: { int: [0, 4] }, description: 'd' },
    });
    expect(featureFromFields(fieldsOf(PHASE))).toEqual({ ok: true, feature: PHASE });
  });
});

describe('edge route edits', () => {
  it('sets and clears condition/effect; unchanged is a no-op (no undo step)', () => {
    const g = routed();
    const same = setEdgeRoute(g, 'e1', { condition: g.edges[0]!.condition, effect: g.edges[0]!.effect });
    expect(same.ok && same.graph).toBe(g);
    const cleared = ok(setEdgeRoute(g, 'e1', {}));
    expect('condition' in cleared.edges[0]!).toBe(false);
    expect('effect' in cleared.edges[0]!).toBe(false);
    const set = ok(setEdgeRoute(g, 'e2', { condition: { feature: 'phase', in: ['done'] } }));
    expect(set.edges[1]!.condition).toEqual({ feature: 'phase', in: ['done'] });
    expect(setEdgeRoute(g, 'nope', {}).ok).toBe(false);
  });

  it('what the editor builds saves and loads back unchanged', () => {
    const g = ok(setEdgeRoute(routed(), 'e2', { condition: { not: { feature: 'phase', in: ['explore'] } } }));
    const parsed = parseGraphInput(JSON.parse(formatGraphText(g)) as unknown);
    if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
    expect(parsed.graph.features).toEqual(g.features);
    expect(parsed.graph.edges.map((e) => [e.condition, e.effect])).toEqual(
      g.edges.map((e) => [e.condition, e.effect]),
    );
  });
});
