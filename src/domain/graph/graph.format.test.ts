import { describe, expect, it } from 'vitest';
import { formatGraph, toCanonicalObject } from './graph.format.ts';
import { parseGraph, parseGraphOrThrow, parseGraphText } from './graph.parse.ts';
import { emptyGraph, type GraphDef } from './graph.schema.ts';
import { FIXTURES, fixture } from './fixtures/loadFixtures.testutil.ts';

function load(text: string): GraphDef {
  const r = parseGraphText(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.graph;
}
const roundTrip = (g: GraphDef): GraphDef => load(formatGraph(g));

describe('formatGraph', () => {
  it('round-trips the canonical form of the reference minimal document byte for byte', () => {
    const text = fixture('reference-minimal.canonical');
    expect(formatGraph(load(text))).toBe(text);
  });

  it('writes the verbatim reference minimal document dict-equal to the original', () => {
    const verbatim = fixture('reference-minimal');
    const out = formatGraph(load(verbatim));
    expect(JSON.parse(out)).toEqual(JSON.parse(verbatim));
    expect(out).toBe(fixture('reference-minimal.canonical'));
  });

  it.each(Object.keys(FIXTURES))('is idempotent on %s', (name) => {
    const once = formatGraph(load(fixture(name)));
    expect(formatGraph(load(once))).toBe(once);
  });

  it('uses the backend key order, 2-space indentation and a trailing newline', () => {
    const g: GraphDef = {
      ...emptyGraph('n'),
      presetId: 'p',
      group: 'grp',
      kind: 'node',
      hooks: [{ event: 'GraphStart', command: 'c', match_node_type: '*', timeout_ms: 1000, enabled: true }],
      access_grants: [{ id: 'g', node_id: 'a', container_id: 'c' }],
      containers: [{ id: 'c', label: '', position: { x: 0, y: 0 }, states: {} }],
      nodes: [
        {
          id: 'a',
          type: 't',
          label: '',
          position: { x: 1, y: 2 },
          config: {},
          subgraph: emptyGraph('inner'),
        },
      ],
    };
    const obj = toCanonicalObject(g);
    expect(Object.keys(obj)).toEqual([
      'name',
      'description',
      'nodes',
      'edges',
      'containers',
      'access_grants',
      'hooks',
      'step_budget',
      'eval_graph',
      'kind',
      'group',
      'presetId',
    ]);
    expect(Object.keys((obj.nodes as object[])[0]!)).toEqual([
      'id',
      'type',
      'label',
      'position',
      'config',
      'subgraph',
    ]);
    const text = formatGraph(g);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toBe('  "name": "n",');
  });

  it('omits defaults the backend omits and always writes step_budget and eval_graph', () => {
    const obj = toCanonicalObject({ ...emptyGraph(), step_budget: null, eval_graph: false });
    expect(obj).toEqual({
      name: '',
      description: '',
      nodes: [],
      edges: [],
      step_budget: null,
      eval_graph: false,
    });
  });

  it('writes a state without its defaults, and with every non-default', () => {
    const g = parseGraphOrThrow({
      containers: [
        {
          id: 'c',
          states: {
            plain: {},
            full: {
              type: 'accumulator',
              value_type: 'TEXT',
              config: { max_size: 3, initial_value: [] },
              lifetime: 'custom',
              reset_on: ['s'],
            },
          },
        },
      ],
    });
    const states = (toCanonicalObject(g).containers as { states: Record<string, object> }[])[0]!.states;
    expect(states.plain).toEqual({ type: 'lastWrite', value_type: 'ANY' });
    expect(Object.keys(states.full!)).toEqual(['type', 'value_type', 'config', 'lifetime', 'reset_on']);
  });

  it('always writes edge handles as strings', () => {
    const g = parseGraphOrThrow({ edges: [{ id: 'e', source: 'a', target: 'b' }] });
    expect(toCanonicalObject(g).edges).toEqual([
      { id: 'e', source: 'a', target: 'b', sourceHandle: '', targetHandle: '' },
    ]);
  });

  it('keeps graph_state as an ordinary container and dangling grants', () => {
    const g = load(fixture('dangling-grants'));
    const back = roundTrip(g);
    expect(back.containers[0]!.id).toBe('graph_state');
    expect(back.access_grants).toEqual(g.access_grants);
  });

  it('drops what the backend drops: stray keys, kind "graph", empty containers/grants', () => {
    const out = JSON.parse(formatGraph(load(fixture('unknown-top-level-keys')))) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['name', 'description', 'nodes', 'edges', 'step_budget', 'eval_graph']);
  });
});

describe('round-trip checklist (docs/reference-system.md §6, §1.14)', () => {
  it('an SDK-built graph survives save → load → save unchanged', () => {
    const text = formatGraph(load(fixture('loop-with-containers')));
    expect(formatGraph(load(text))).toBe(text);
  });

  it('2 hooks survive a round-trip with event/command/match/timeouts', () => {
    const g = load(fixture('archived-composite'));
    expect(g.hooks).toHaveLength(2);
    expect(roundTrip(g).hooks).toEqual([
      {
        event: 'PreNodeExecute',
        command: "echo '{}'",
        match_node_type: 'llm*',
        timeout_ms: 500,
        enabled: true,
      },
      {
        event: 'GraphComplete',
        command: 'notify-send done',
        match_node_type: '*',
        match_node_id: 'out',
        timeout_ms: 1000,
        enabled: false,
      },
    ]);
  });

  it('a compositeNode with a 2-node subgraph survives a round-trip', () => {
    const r = parseGraph({
      nodes: [
        {
          id: 'comp',
          type: 'compositeNode',
          label: 'C',
          config: {},
          subgraph: {
            name: 'sub',
            nodes: [
              { id: 'i', type: 'graphIn', config: { portName: 'x' } },
              { id: 'o', type: 'graphOut', config: { portName: 'y' } },
            ],
            edges: [{ id: 's', source: 'i', target: 'o', sourceHandle: 'value', targetHandle: 'value' }],
          },
        },
      ],
    });
    if (!r.ok) throw new Error('parse failed');
    const back = roundTrip(r.graph);
    expect(back).toEqual(r.graph);
    expect(back.nodes[0]!.subgraph!.nodes.map((n) => n.id)).toEqual(['i', 'o']);
  });

  it('a real-world loop graph keeps its signature (containers, sorted grant pairs, budget, eval, nodes, edge multiset)', () => {
    const signature = (g: GraphDef) => ({
      containers: Object.fromEntries(g.containers.map((c) => [c.id, c.states])),
      grants: g.access_grants.map((a) => [a.node_id, a.container_id]).sort(),
      step_budget: g.step_budget,
      eval_graph: g.eval_graph,
      nodes: g.nodes.map((n) => [n.id, n.type, n.config]),
      edges: g.edges.map((e) => `${e.source}.${e.sourceHandle}>${e.target}.${e.targetHandle}`).sort(),
    });
    const original = load(fixture('loop-with-containers'));
    expect(signature(roundTrip(original))).toEqual(signature(original));
    const raw = JSON.parse(fixture('loop-with-containers')) as {
      containers: { id: string; states: unknown }[];
    };
    const saved = JSON.parse(formatGraph(original)) as typeof raw;
    expect(saved.containers).toEqual(raw.containers);
  });

  it('containers and grants of every fixture are byte-equivalent in content after load → save', () => {
    for (const name of Object.keys(FIXTURES)) {
      const raw = JSON.parse(fixture(name)) as Record<string, unknown>;
      const saved = JSON.parse(formatGraph(load(fixture(name)))) as Record<string, unknown>;
      if (Array.isArray(raw.containers) && raw.containers.length > 0)
        expect(saved.containers, name).toEqual(raw.containers);
      if (Array.isArray(raw.access_grants) && raw.access_grants.length > 0)
        expect(saved.access_grants, name).toEqual(raw.access_grants);
    }
  });
});
