import { describe, expect, it } from 'vitest';
import {
  GraphParseError,
  parseGraph,
  parseGraphOrThrow,
  parseGraphText,
  parseGraphTextOrThrow,
  type ParseResult,
} from './graph.parse.ts';
import type { GraphDef } from './graph.schema.ts';
import { hasErrors, type Issue } from '../validate/issues.ts';
import { FIXTURES, fixture } from './fixtures/loadFixtures.testutil.ts';

function ok(r: ParseResult): { graph: GraphDef; warnings: Issue[] } {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.errors)}`);
  return r;
}
function errors(r: ParseResult): Issue[] {
  if (r.ok) throw new Error('expected errors');
  return r.errors;
}
const codes = (issues: Issue[]) => issues.map((i) => i.code);
const at = (issues: Issue[], path: string) => issues.filter((i) => i.path === path);

describe('parseGraph on fixtures', () => {
  it.each(Object.keys(FIXTURES))('%s loads without errors', (name) => {
    const r = ok(parseGraphText(fixture(name)));
    expect(r.warnings.every((w) => w.severity !== 'error')).toBe(true);
  });

  it('fills the reference defaults for missing label, config, position, type and step_budget, silently', () => {
    const { graph, warnings } = ok(parseGraphText(fixture('missing-label-config')));
    expect(graph.nodes[0]).toEqual({
      id: 'src',
      type: 'nullSource',
      label: '',
      position: { x: 0, y: 0 },
      config: {},
    });
    expect(graph.nodes[2]).toEqual({
      id: 'bare',
      type: 'unknown',
      label: '',
      position: { x: 0, y: 0 },
      config: {},
    });
    expect(graph.step_budget).toBe(500);
    expect(graph.description).toBe('');
    expect(graph.edges[1]).toEqual({
      id: 'e2',
      source: 'src',
      target: 'bare',
      sourceHandle: '',
      targetHandle: '',
    });
    expect(warnings).toEqual([]);
  });

  it('drops extra node and edge keys with a warning naming the JSON path', () => {
    const { graph, warnings } = ok(parseGraphText(fixture('extra-node-keys')));
    expect(graph.nodes[0]).not.toHaveProperty('data');
    expect(at(warnings, '$.nodes[0].data')[0]).toMatchObject({
      code: 'extra-key',
      severity: 'warning',
      nodeId: 'src',
    });
    expect(at(warnings, '$.nodes[0].selected')).toHaveLength(1);
    expect(at(warnings, '$.edges[0].animated')[0]).toMatchObject({ code: 'extra-key', edgeId: 'e1' });
    expect(graph.nodes[1]!.config).toEqual({ _expanded: true });
  });

  it('drops unknown top-level keys (version, state_containers) with warnings', () => {
    const { graph, warnings } = ok(parseGraphText(fixture('unknown-top-level-keys')));
    expect(at(warnings, '$.version')[0]).toMatchObject({ code: 'unknown-key', severity: 'warning' });
    expect(at(warnings, '$.state_containers')[0]).toMatchObject({ code: 'legacy-state-containers' });
    expect(graph.access_grants).toEqual([]);
    expect(graph.kind).toBe('graph');
  });

  it('reads legacy maxIterations as step_budget when step_budget is absent', () => {
    const { graph, warnings } = ok(parseGraphText(fixture('max-iterations')));
    expect(graph.step_budget).toBe(25);
    expect(codes(warnings)).toEqual(['legacy-max-iterations']);
  });

  it('prefers step_budget over maxIterations and says so', () => {
    const { graph, warnings } = ok(parseGraph({ maxIterations: 9, step_budget: 3 }));
    expect(graph.step_budget).toBe(3);
    expect(warnings[0]).toMatchObject({ code: 'legacy-max-iterations', path: '$.maxIterations' });
  });

  it('keeps an explicit null step_budget and small budgets', () => {
    expect(ok(parseGraphText(fixture('step-budget-null'))).graph.step_budget).toBeNull();
    expect(ok(parseGraphText(fixture('legacy-state-container-node'))).graph.step_budget).toBe(1);
  });

  it('migrates a legacy stateContainer node into containers and its edge into a grant', () => {
    const { graph, warnings } = ok(parseGraphText(fixture('legacy-state-container-node')));
    expect(graph.nodes.map((n) => n.id)).toEqual(['seed', 'viewer']);
    expect(graph.containers).toEqual([
      {
        id: 'notes_box',
        label: 'Notes',
        position: { x: 150, y: 200 },
        states: {
          notes: { type: 'accumulator', value_type: 'TEXT', config: {}, lifetime: 'forever', reset_on: [] },
        },
      },
    ]);
    expect(graph.edges.map((e) => e.id)).toEqual(['e1']);
    expect(graph.access_grants).toEqual([{ id: 'g1', node_id: 'viewer', container_id: 'notes_box' }]);
    expect(at(warnings, '$.nodes[2]')[0]).toMatchObject({
      code: 'legacy-state-container',
      containerId: 'notes_box',
    });
    expect(at(warnings, '$.edges[1]')[0]).toMatchObject({ code: 'legacy-state-edge', edgeId: 'g1' });
  });

  it('merges a legacy stateContainer node into an existing container of the same id, keeping existing slots', () => {
    const { graph, warnings } = ok(
      parseGraph({
        nodes: [
          {
            id: 'mem',
            type: 'stateContainer',
            config: { states: { a: { type: 'counter' }, b: { type: 'lastWrite' } } },
          },
        ],
        containers: [{ id: 'mem', label: 'Memory', states: { a: { type: 'accumulator' } } }],
      }),
    );
    expect(graph.containers).toHaveLength(1);
    expect(graph.containers[0]!.label).toBe('Memory');
    expect(graph.containers[0]!.states.a!.type).toBe('accumulator');
    expect(graph.containers[0]!.states.b!.type).toBe('lastWrite');
    expect(codes(warnings)).toContain('legacy-state-conflict');
  });

  it('keeps an empty legacy container (no name/reducer) rather than dropping it', () => {
    const { graph } = ok(
      parseGraph({ nodes: [{ id: 'box', type: 'stateContainer', position: { x: 5, y: 6 } }] }),
    );
    expect(graph.containers).toEqual([{ id: 'box', label: '', position: { x: 5, y: 6 }, states: {} }]);
  });

  it('loads dangling grants unchanged', () => {
    const { graph } = ok(parseGraphText(fixture('dangling-grants')));
    expect(graph.access_grants).toHaveLength(7);
    expect(graph.access_grants[4]).toEqual({
      id: 'ag_5',
      node_id: 'removed_node',
      container_id: 'graph_state',
    });
  });

  it('keeps initial_value of every JSON type', () => {
    const { graph } = ok(parseGraphText(fixture('initial-values')));
    const s = graph.containers[0]!.states;
    const iv = (k: string) => s[k]!.config.initial_value;
    expect(iv('flag')).toBe(false);
    expect(iv('obj')).toEqual({});
    expect(iv('list')).toEqual([]);
    expect(iv('zero')).toBe(0);
    expect(iv('zero_float')).toBe(0);
    expect(iv('empty')).toBe('');
    expect(iv('nothing')).toBeNull();
    expect('initial_value' in s.nothing!.config).toBe(true);
    expect(iv('nested')).toEqual({ a: [1, { b: true }], c: { d: null } });
    expect('initial_value' in s.plain!.config).toBe(false);
  });

  it('migrates top-level graph_state and state_edges, warning about what it cannot migrate', () => {
    const { graph, warnings } = ok(parseGraphText(fixture('legacy-state-edges')));
    expect(graph.containers[0]).toMatchObject({
      id: 'graph_state',
      states: {
        summary: { type: 'lastWrite', value_type: 'TEXT' },
        turns: { type: 'counter', value_type: 'ANY' },
      },
    });
    expect(graph.access_grants).toEqual([
      { id: 'se1', node_id: 'think', container_id: 'graph_state' },
      { id: 'ag_show_graph_state', node_id: 'show', container_id: 'graph_state' },
    ]);
    expect(at(warnings, '$.state_edges[2]')[0]!.message).toMatch(/could not be migrated/);
    expect(at(warnings, '$.graph_state')[0]!.code).toBe('legacy-graph-state');
  });

  it('reads a bare top-level graph_state slot map', () => {
    const { graph } = ok(parseGraph({ graph_state: { n: { type: 'counter' } } }));
    expect(graph.containers[0]!.states.n!.type).toBe('counter');
  });

  it('always recomputes iterIn ports, also inside subgraphs', () => {
    const { graph, warnings } = ok(parseGraphText(fixture('archived-composite')));
    const li = graph.nodes[1]!.subgraph!.nodes[1]!;
    expect(li.config.ports).toEqual([
      { name: 'init_goal', wire_type: 'TEXT', persist: false, origin: 'init', writer_name: 'goal' },
      { name: 'iterout_plan', wire_type: 'TEXT', persist: true, origin: 'iterOut', writer_name: 'plan' },
    ]);
    expect(warnings).toContainEqual(
      expect.objectContaining({
        code: 'iterin-ports-recomputed',
        path: '$.nodes[1].subgraph.nodes[1].config.ports',
        severity: 'info',
      }),
    );
    const loop = ok(parseGraphText(fixture('loop-with-containers'))).graph;
    expect((loop.nodes[1]!.config.ports as unknown[]).length).toBe(3);
  });

  it('fills hook defaults and keeps match_node_id only when set', () => {
    const { graph } = ok(
      parseGraph({
        hooks: [
          { event: 'GraphStart', command: 'true' },
          { event: 'GraphError', command: 'x', match_node_id: 'n1' },
        ],
      }),
    );
    expect(graph.hooks[0]).toEqual({
      event: 'GraphStart',
      command: 'true',
      match_node_type: '*',
      timeout_ms: 1000,
      enabled: true,
    });
    expect(graph.hooks[1]!.match_node_id).toBe('n1');
  });

  it('keeps kind, group and presetId', () => {
    const { graph } = ok(parseGraphText(fixture('archived-composite')));
    expect([graph.kind, graph.group, graph.presetId]).toEqual(['node', 'planning', 'preset_planner_v2']);
  });

  it('shares no objects with its input', () => {
    const input = { nodes: [{ id: 'a', config: { deep: { list: [1] } } }] };
    const { graph } = ok(parseGraph(input));
    (graph.nodes[0]!.config.deep as { list: number[] }).list.push(2);
    expect(input.nodes[0]!.config.deep.list).toEqual([1]);
  });

  it('keeps a slot literally named __proto__ as data', () => {
    const { graph } = ok(
      parseGraphText('{"containers":[{"id":"c","states":{"__proto__":{"type":"counter"}}}]}'),
    );
    expect(Object.keys(graph.containers[0]!.states)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(graph.containers[0]!.states)).toBe(Object.prototype);
  });
});

describe('schema violations', () => {
  it('reports a node without id with its JSON path', () => {
    const errs = errors(parseGraph({ nodes: [{ id: 'a' }, { type: 'llmCall' }] }));
    expect(errs).toEqual([
      expect.objectContaining({ code: 'missing-field', severity: 'error', path: '$.nodes[1].id' }),
    ]);
  });

  it('reports an edge source that is not a string', () => {
    const errs = errors(
      parseGraph({
        edges: [
          { id: 'a', source: 'x', target: 'y' },
          { id: 'b', source: 'x', target: 'y' },
          { id: 'c', source: 7, target: 'y' },
        ],
      }),
    );
    expect(errs[0]).toMatchObject({ code: 'wrong-type', path: '$.edges[2].source', edgeId: 'c' });
    expect(errs[0]!.message).toMatch(/must be a string, got a number/);
  });

  it.each([
    [[], '$', 'wrong-type'],
    [null, '$', 'wrong-type'],
    [{ nodes: {} }, '$.nodes', 'wrong-type'],
    [{ kind: 'module' }, '$.kind', 'invalid-value'],
    [{ step_budget: '10' }, '$.step_budget', 'wrong-type'],
    [{ step_budget: 2.5 }, '$.step_budget', 'wrong-type'],
    [{ eval_graph: 'yes' }, '$.eval_graph', 'wrong-type'],
    [{ nodes: [{ id: 'a', position: { x: 1 } }] }, '$.nodes[0].position.y', 'missing-field'],
    [{ containers: [{ label: 'x' }] }, '$.containers[0].id', 'missing-field'],
    [
      { containers: [{ id: 'c', states: { s: { reset_on: [1] } } }] },
      '$.containers[0].states.s.reset_on[0]',
      'wrong-type',
    ],
    [{ access_grants: [{ id: 'g', node_id: 'n' }] }, '$.access_grants[0].container_id', 'missing-field'],
    [{ hooks: [{ command: 'x' }] }, '$.hooks[0].event', 'missing-field'],
    [
      { nodes: [{ id: 'c', subgraph: { edges: [{ id: 'e' }] } }] },
      '$.nodes[0].subgraph.edges[0].source',
      'missing-field',
    ],
    [{ nodes: [{ id: 'f', config: { f: () => 1 } }] }, '$.nodes[0].config.f', 'not-json'],
  ])('%j → error at %s', (input, path, code) => {
    const errs = errors(parseGraph(input));
    expect(errs).toContainEqual(expect.objectContaining({ path, code, severity: 'error' }));
  });

  it('reports a cycle instead of overflowing', () => {
    const config: Record<string, unknown> = {};
    config.self = config;
    expect(errors(parseGraph({ nodes: [{ id: 'a', config }] }))[0]).toMatchObject({
      code: 'not-json',
      path: '$.nodes[0].config.self',
    });
  });

  it('rejects absurd nesting with too-deep instead of overflowing the stack', () => {
    let g: Record<string, unknown> = {};
    for (let i = 0; i < 80; i++) g = { nodes: [{ id: `n${i}`, subgraph: g }] };
    expect(codes(errors(parseGraph(g)))).toEqual(['too-deep']);
    let v: unknown = 1;
    for (let i = 0; i < 1000; i++) v = [v];
    expect(errors(parseGraph({ nodes: [{ id: 'a', config: { v } }] }))[0]).toMatchObject({
      code: 'too-deep',
      nodeId: 'a',
    });
    expect(parseGraphText('['.repeat(100000)).ok).toBe(false);
  });

  it('tolerates null for defaulted fields with a warning', () => {
    const { graph, warnings } = ok(
      parseGraph({ name: null, nodes: [{ id: 'a', label: null, config: null }] }),
    );
    expect([graph.name, graph.nodes[0]!.label, graph.nodes[0]!.config]).toEqual(['', '', {}]);
    expect(codes(warnings)).toEqual(['null-field', 'null-field', 'null-field']);
  });
});

describe('parseGraphText', () => {
  it('reports invalid JSON with line and column', () => {
    const errs = errors(parseGraphText('{\n  "name": "x",\n  "nodes": [}\n', 'g.json'));
    expect(errs).toEqual([expect.objectContaining({ code: 'invalid-json', line: 3, column: 13 })]);
    expect(errs[0]!.message).toBe("invalid JSON at g.json:3:13: unexpected '}'");
  });

  it('places schema errors of valid JSON at the line and column of the value they name', () => {
    const text =
      '{\n  "name": "x",\n  "nodes": [\n    {"id": "a", "type": 5},\n    {"id": "b", "position": "here"}\n  ]\n}';
    expect(errors(parseGraphText(text))).toEqual([
      expect.objectContaining({ path: '$.nodes[0].type', line: 4, column: 25 }),
      expect.objectContaining({ path: '$.nodes[1].position', line: 5, column: 29 }),
    ]);
    // A key the text does not have: the deepest value on its path (here node 0's object).
    const missing = errors(parseGraphText('{"name": "x",\n "nodes": [\n  {"type": "note"}]}'));
    expect(missing[0]).toMatchObject({ path: '$.nodes[0].id', line: 3, column: 3 });
  });

  it('reports a trailing comma and unexpected end of input', () => {
    expect(errors(parseGraphText('{"a": 1,\n}'))[0]).toMatchObject({ line: 2, column: 1 });
    expect(errors(parseGraphText('{"a": [1, 2'))[0]!.message).toMatch(
      /line 1:12: expected ',' or '\]' after array element, found end of input/,
    );
    expect(errors(parseGraphText(''))[0]).toMatchObject({ code: 'invalid-json', line: 1, column: 1 });
  });

  it('warns about keys repeated in one object (JSON.parse silently keeps the last)', () => {
    const text =
      '{"containers": [],\n "name": "x", "na\\u006de": "y", "nodes": [{"id": "n", "config": {"a": 1, "a": 2}}]}';
    const { graph, warnings } = ok(parseGraphText(text, 'd.json'));
    expect(graph.name).toBe('y');
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'duplicate-key',
        severity: 'warning',
        path: '$.name',
        line: 2,
        column: 15,
      }),
      expect.objectContaining({ code: 'duplicate-key', path: '$.nodes[0].config.a', line: 2 }),
    ]);
    expect(warnings[0]!.message).toMatch(/^key repeated in the same object at d\.json:2:15/);
  });

  it('a slot name repeated in one container is a duplicate-state error naming container and slot; the file still loads', () => {
    const text =
      '{"containers": [{"id": "c", "states": {\n  "a": {"type": "counter"},\n  "a": {"type": "accumulator"}}}],\n "name": "x"}';
    const { graph, warnings } = ok(parseGraphText(text, 'd.json'));
    expect(graph.containers[0]!.states.a!.type).toBe('accumulator');
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'duplicate-state',
        severity: 'error',
        path: '$.containers[0].states.a',
        containerId: 'c',
        slot: 'a',
        line: 3,
        column: 3,
      }),
    ]);
    expect(warnings[0]!.message).toMatch(
      /slot 'a' is declared twice in container 'c' \(again at d\.json:3:3\)/,
    );
    expect(hasErrors(warnings)).toBe(true);
  });

  it('finds repeated slots in subgraph containers, legacy graph_state and legacy stateContainer nodes', () => {
    const sub = '{"nodes": [], "containers": [{"id": "inner", "states": {"s": {}, "s": {}}}]}';
    const text = `{
      "nodes": [
        {"id": "comp", "type": "compositeNode", "subgraph": ${sub}},
        {"id": "legacy", "type": "stateContainer", "config": {"states": {"k": {}, "k": {}}}}
      ],
      "graph_state": {"g": {}, "g": {}}
    }`;
    const { warnings } = ok(parseGraphText(text));
    const dupes = warnings.filter((w) => w.code === 'duplicate-state');
    expect(dupes.map((w) => [w.path, w.containerId, w.slot])).toEqual([
      ['$.nodes[0].subgraph.containers[0].states.s', 'inner', 's'],
      ['$.nodes[1].config.states.k', 'legacy', 'k'],
      ['$.graph_state.g', 'graph_state', 'g'],
    ]);
  });

  it('the same slot name in two different containers is not a parse issue', () => {
    const text = '{"containers": [{"id": "a", "states": {"s": {}}}, {"id": "b", "states": {"s": {}}}]}';
    expect(ok(parseGraphText(text)).warnings.filter((w) => w.code.startsWith('duplicate'))).toEqual([]);
  });

  it('accepts a byte-order mark', () => {
    expect(ok(parseGraphText('\uFEFF{"name": "bom"}')).graph.name).toBe('bom');
  });
});

describe('throwing APIs', () => {
  it('parseGraphOrThrow returns the graph or throws GraphParseError with every error', () => {
    expect(parseGraphOrThrow({ name: 'ok' }).name).toBe('ok');
    try {
      parseGraphOrThrow({ nodes: [{}, {}] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(GraphParseError);
      expect((e as GraphParseError).errors).toHaveLength(2);
      expect((e as Error).message).toBe("$.nodes[0].id: required field 'id' is missing (and 1 more)");
    }
  });

  it('parseGraphTextOrThrow names the file', () => {
    expect(() => parseGraphTextOrThrow('nope', 'a.json')).toThrow(
      /^a\.json: \$: invalid JSON at a\.json:1:1/,
    );
  });
});
