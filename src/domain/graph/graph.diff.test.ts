import { describe, expect, it } from 'vitest';
import { diffGraphs, graphDiffLines } from './graph.diff.ts';
import { parseGraphOrThrow } from './graph.parse.ts';
import type { GraphDef } from './graph.schema.ts';

const BASE = {
  name: 'demo',
  description: '',
  nodes: [
    { id: 'env', type: 'gridEnv', label: 'Env', position: { x: 0, y: 0 }, config: { seed: 7, width: 12 } },
    {
      id: 'policy',
      type: 'gridPolicy',
      label: 'Policy',
      position: { x: 100, y: 0 },
      config: { epsilon: 0.1, weights: [1, 2, 3] },
    },
    { id: 'out', type: 'graphOut', label: '', position: { x: 200, y: 0 }, config: { portName: 'pose' } },
  ],
  edges: [
    { id: 'e1', source: 'env', target: 'policy', sourceHandle: 'pose', targetHandle: 'pose' },
    { id: 'e2', source: 'policy', target: 'out', sourceHandle: 'action', targetHandle: 'value' },
  ],
  containers: [
    {
      id: 'memory',
      label: 'Memory',
      position: { x: 0, y: 300 },
      states: {
        trail: { type: 'accumulator', value_type: 'POSE', config: { max_size: 20 }, lifetime: 'episode' },
        scratch: { type: 'lastWrite', value_type: 'TEXT' },
      },
    },
  ],
  access_grants: [{ id: 'g1', node_id: 'policy', container_id: 'memory' }],
  step_budget: 50,
  eval_graph: true,
};

const graph = (edit: (g: typeof BASE & Record<string, unknown>) => void = () => undefined): GraphDef => {
  const g = structuredClone(BASE) as typeof BASE & Record<string, unknown>;
  edit(g);
  return parseGraphOrThrow(g);
};

describe('diffGraphs', () => {
  it('finds nothing between a graph and itself, and counts moves apart from structure', () => {
    expect(diffGraphs(graph(), graph())).toEqual({ same: true, changes: [], moved: 0 });
    const moved = diffGraphs(
      graph(),
      graph((g) => {
        g.nodes[0]!.position = { x: 5, y: 5 };
        g.containers[0]!.position = { x: 1, y: 1 };
      }),
    );
    expect(moved).toEqual({ same: true, changes: [], moved: 2 });
    expect(graphDiffLines(moved)).toEqual(['layout: 2 positions changed']);
    expect(graphDiffLines(diffGraphs(graph(), graph()))).toEqual(['no changes']);
  });

  it('lists config values by JSON path, old → new', () => {
    const d = diffGraphs(
      graph(),
      graph((g) => {
        g.nodes[1]!.config.epsilon = 0.3;
        g.nodes[1]!.config.weights = [1, 2, 4];
        (g.nodes[0]!.config as Record<string, unknown>).height = 9;
      }),
    );
    expect(d.same).toBe(false);
    expect(d.changes.map((c) => c.text)).toEqual([
      'node env: config.height added 9',
      'node policy: config.epsilon 0.1 → 0.3',
      // a list item is matched by value (stateDiff's diffLines): 3 went, 4 came
      'node policy: config.weights[2] removed (was 3)',
      'node policy: config.weights[2] added 4',
    ]);
    expect(d.changes[1]).toMatchObject({
      area: 'node',
      op: 'changed',
      id: 'policy',
      field: 'config.epsilon',
      old: 0.1,
      new: 0.3,
    });
  });

  it('lists nodes, edges, grants added and removed, and changed ends', () => {
    const d = diffGraphs(
      graph(),
      graph((g) => {
        g.nodes = g.nodes.filter((n) => n.id !== 'out');
        g.nodes.push({
          id: 'view',
          type: 'textViewer',
          label: '',
          position: { x: 0, y: 0 },
          config: {},
        } as never);
        g.edges = [
          { ...g.edges[0]!, targetHandle: 'obs' },
          { id: 'e3', source: 'env', target: 'view', sourceHandle: 'observation', targetHandle: 'text' },
        ];
        g.access_grants = [{ id: 'g9', node_id: 'env', container_id: 'memory' }];
      }),
    );
    expect(d.changes.map((c) => c.text)).toEqual([
      'node out removed (graphOut)',
      'node view added (textViewer)',
      'edge e1: targetHandle "pose" → "obs"',
      'edge e2 removed: policy.action → out.value',
      'edge e3 added: env.observation → view.text',
      'grant policy → memory removed',
      'grant env → memory added',
    ]);
  });

  it('lists containers and slots: reducer, value type, lifetime, reset_on, config', () => {
    const d = diffGraphs(
      graph(),
      graph((g) => {
        const trail = g.containers[0]!.states.trail as Record<string, unknown>;
        trail.type = 'lastWrite';
        trail.lifetime = 'run';
        trail.config = { max_size: 30 };
        const states = g.containers[0]!.states as Record<string, unknown>;
        delete states.scratch;
        states.notes = { type: 'append', value_type: 'TEXT', reset_on: ['episode_done'] };
        g.containers.push({
          id: 'extra',
          label: '',
          position: { x: 0, y: 0 },
          states: { a: { type: 'lastWrite', value_type: 'ANY' } },
        } as never);
      }),
    );
    expect(d.changes.map((c) => c.text)).toEqual([
      'slot memory.trail: reducer "accumulator" → "lastWrite"',
      'slot memory.trail: lifetime "episode" → "run"',
      'slot memory.trail: config.max_size 20 → 30',
      'slot memory.scratch removed (lastWrite, forever)',
      'slot memory.notes added (append, forever)',
      'container extra added (1 slot: a)',
    ]);
    expect(d.changes.filter((c) => c.area === 'slot').map((c) => c.field ?? c.op)).toEqual([
      'reducer',
      'lifetime',
      'config.max_size',
      'removed',
      'added',
    ]);
  });

  it('lists routing (edge conditions, features) and the graph fields', () => {
    const d = diffGraphs(
      graph(),
      graph((g) => {
        g.step_budget = 200;
        g['x-statewire'] = {
          features: [{ name: 'mode', domain: { enum: ['explore', 'exploit'] } }],
          edges: { e2: { condition: { feature: 'mode', eq: 'exploit' } } },
        };
      }),
    );
    expect(d.changes.map((c) => [c.area, c.text])).toEqual([
      ['graph', 'graph: step_budget 50 → 200'],
      ['routing', 'routing: edge e2: condition — → {"feature":"mode","eq":"exploit"}'],
      ['routing', 'routing: feature mode added'],
    ]);
  });

  it('walks into composite subgraphs, naming inner nodes by their path', () => {
    const inner = { name: 'inner', nodes: [{ id: 'a', type: 'constant', config: { value: 1 } }], edges: [] };
    const withSub = (v: number) =>
      graph((g) => {
        g.nodes.push({
          id: 'comp',
          type: 'composite',
          label: '',
          position: { x: 0, y: 0 },
          config: {},
          subgraph: { ...inner, nodes: [{ ...inner.nodes[0]!, config: { value: v } }] },
        } as never);
      });
    expect(diffGraphs(withSub(1), withSub(2)).changes.map((c) => c.text)).toEqual([
      'node comp/a: config.value 1 → 2',
    ]);
  });
});
