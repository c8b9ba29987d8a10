import { describe, expect, it } from 'vitest';
import { formatGraph, toCanonicalObject } from '../graph/graph.format.ts';
import { parseGraph, parseGraphText } from '../graph/graph.parse.ts';
import type { GraphDef } from '../graph/graph.schema.ts';
import { FIXTURES, fixture } from '../graph/fixtures/loadFixtures.testutil.ts';
import { EXTENSION_KEY } from './routing.schema.ts';

function load(text: string): GraphDef {
  const r = parseGraphText(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.graph;
}

/** A small routed graph in its saved form. */
export const ROUTED_FILE = {
  name: 'routed',
  description: '',
  nodes: [
    { id: 'a', type: 'nullSource', label: '', position: { x: 0, y: 0 }, config: {} },
    { id: 'b', type: 'textViewer', label: '', position: { x: 0, y: 0 }, config: {} },
    { id: 'c', type: 'textViewer', label: '', position: { x: 0, y: 0 }, config: {} },
  ],
  edges: [
    { id: 'e1', source: 'a', target: 'b', sourceHandle: 'value', targetHandle: 'text' },
    { id: 'e2', source: 'a', target: 'c', sourceHandle: 'value', targetHandle: 'text' },
  ],
  step_budget: 500,
  eval_graph: false,
  [EXTENSION_KEY]: {
    features: [
      { name: 'phase', domain: { enum: ['explore', 'exploit', 'done'] }, description: 'what the agent does' },
      { name: 'armed', domain: 'bool' },
      { name: 'level', domain: { int: [0, 3] } },
    ],
    edges: {
      e1: {
        condition: {
          all: [
            { feature: 'phase', in: ['explore', 'exploit'] },
            { not: { feature: 'armed', eq: true } },
            {
              any: [
                { slot: 'mem.score', path: '$.x', op: '>=', value: 2 },
                { feature: 'level', eq: 3 },
              ],
            },
          ],
        },
        effect: { assign: { phase: 'exploit' }, allow: { level: [[0, 1]] } },
      },
      e2: { condition: { feature: 'phase', eq: 'done' }, effect: 'unconstrained' },
    },
  },
};

describe('routing extension block', () => {
  it('loads the block into the model: features on the graph, condition/effect on the edges', () => {
    const r = parseGraph(ROUTED_FILE);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.warnings).toEqual([]);
    expect(r.graph.features?.map((f) => f.name)).toEqual(['phase', 'armed', 'level']);
    expect(r.graph.edges[1]).toMatchObject({
      condition: { feature: 'phase', eq: 'done' },
      effect: 'unconstrained',
    });
  });

  it('round-trips losslessly: save writes the same block, load gives the same model', () => {
    const text = JSON.stringify(ROUTED_FILE, null, 2) + '\n';
    const g = load(text);
    const saved = formatGraph(g);
    expect(saved).toBe(text);
    expect(load(saved)).toEqual(g);
    // the edges themselves stay in the reference shape
    const obj = toCanonicalObject(g) as { edges: object[] };
    expect(Object.keys(obj.edges[0]!)).toEqual(['id', 'source', 'target', 'sourceHandle', 'targetHandle']);
    expect(Object.keys(toCanonicalObject(g)).at(-1)).toBe(EXTENSION_KEY);
  });

  it('what the reference backend keeps after dropping the block is the same graph without routing', () => {
    const g = load(JSON.stringify(ROUTED_FILE));
    const withoutBlock = { ...ROUTED_FILE } as Record<string, unknown>;
    delete withoutBlock[EXTENSION_KEY];
    const plain = load(JSON.stringify(withoutBlock));
    const { [EXTENSION_KEY]: _block, ...rest } = toCanonicalObject(g);
    expect(rest).toEqual(toCanonicalObject(plain));
  });

  it.each(Object.keys(FIXTURES))(
    'reference file %s saves exactly as before (no block, same bytes)',
    (name) => {
      const text = fixture(name);
      const g = load(text);
      expect(g.features).toBeUndefined();
      expect(g.edges.every((e) => e.condition === undefined && e.effect === undefined)).toBe(true);
      const saved = formatGraph(g);
      expect(saved).not.toContain(EXTENSION_KEY);
      // canonical files are written byte-identical; the rest are stable after one save
      if (name.endsWith('.canonical')) expect(saved).toBe(text);
      expect(formatGraph(load(saved))).toBe(saved);
    },
  );

  it('accepts the inline form (features at top level, condition/effect on edges) and saves it as the block', () => {
    const inline = {
      ...ROUTED_FILE,
      [EXTENSION_KEY]: undefined,
      features: ROUTED_FILE[EXTENSION_KEY].features,
      edges: ROUTED_FILE.edges.map((e) => ({
        ...e,
        ...ROUTED_FILE[EXTENSION_KEY].edges[e.id as 'e1' | 'e2'],
      })),
    };
    const r = parseGraph(inline);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.warnings).toEqual([]);
    expect(formatGraph(r.graph)).toBe(JSON.stringify(ROUTED_FILE, null, 2) + '\n');
  });

  it('keeps a block per subgraph level', () => {
    const file = {
      nodes: [{ id: 'comp', type: 'compositeNode', subgraph: ROUTED_FILE }],
      edges: [],
    };
    const g = load(JSON.stringify(file));
    expect(g.nodes[0]!.subgraph!.features).toHaveLength(3);
    expect(load(formatGraph(g))).toEqual(g);
  });

  it('refuses malformed routing with a JSON path, and names what is wrong', () => {
    const bad = (block: unknown) => {
      const r = parseGraph({ ...ROUTED_FILE, [EXTENSION_KEY]: block });
      if (r.ok) throw new Error('expected an error');
      return r.errors.map((e) => `${e.code} ${e.path} ${e.message}`);
    };
    expect(bad({ features: [{ name: 'p', domain: { range: [0, 1] } }] })[0]).toMatch(
      /^invalid-feature \$\["x-statewire"\]\.features\[0\]\.domain .*"enum"/,
    );
    expect(bad({ features: [{ name: 'p', domain: { int: [3, 1] } }] })[0]).toMatch(/min <= max/);
    expect(bad({ edges: { e1: { condition: { all: [{ feature: 'p', in: [] }] } } } })[0]).toMatch(
      /^invalid-condition \$\["x-statewire"\]\.edges\.e1\.condition\.all\[0\]\.in /,
    );
    expect(bad({ edges: { e1: { condition: { slot: 'mem.x', path: '$', op: '~', value: 1 } } } })[0]).toMatch(
      /condition\.op invalid condition: 'op' must be one of == != < <= > >= contains/,
    );
    expect(bad({ edges: { e1: { condition: { when: 1 } } } })[0]).toMatch(/unknown condition shape/);
    expect(bad({ edges: { e1: { effect: 'free' } } })[0]).toMatch(/^invalid-effect .*unconstrained/);
    expect(bad({ edges: { e1: { effect: { allow: { phase: [['a']] } } } } })[0]).toMatch(
      /^invalid-effect \$\["x-statewire"\]\.edges\.e1\.effect\.allow\.phase\[0\]/,
    );
    expect(bad([])[0]).toMatch(/^wrong-type/);
  });

  it('drops unknown block keys and routes of unknown edges with a warning', () => {
    const r = parseGraph({
      ...ROUTED_FILE,
      [EXTENSION_KEY]: {
        ...ROUTED_FILE[EXTENSION_KEY],
        later: 1,
        edges: { nope: { effect: 'unconstrained' } },
      },
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.warnings.map((w) => w.code).sort()).toEqual(['dangling-route', 'extra-key']);
    expect(r.graph.edges.every((e) => e.effect === undefined)).toBe(true);
  });
});
