import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validGraph } from '../graph/graph.arbitraries.testutil.ts';
import { loopView } from './loopView.ts';
import { parseGraphOrThrow } from '../graph/graph.parse.ts';
import type { GraphDef, NodeDef } from '../graph/graph.schema.ts';
import {
  iterInOutputHandles,
  iterOutInputHandles,
  iterOutOutputHandles,
  pairedIterOut,
  synthesizeIterInPorts,
  withSynthesizedPorts,
} from './loopPorts.ts';

const loop = (extraEdges: object[] = []): GraphDef =>
  parseGraphOrThrow({
    nodes: [
      {
        id: 'in',
        type: 'iterIn',
        config: {
          pairedWith: 'out',
          initPorts: [
            { name: 'goal', wire_type: 'TEXT', persist: true },
            { name: 'plan', wire_type: 'TEXT' },
            { name: 'x' },
          ],
        },
      },
      {
        id: 'out',
        type: 'iterOut',
        config: {
          pairedWith: 'in',
          ports: [
            { name: 'plan', wire_type: 'TEXT' },
            { name: 'fb', persist: false, required: true },
          ],
        },
      },
    ],
    edges: extraEdges,
  });
const byId = (g: GraphDef, id: string): NodeDef => g.nodes.find((n) => n.id === id)!;

describe('synthesizeIterInPorts (docs/reference-system.md §1.9)', () => {
  it('lists init ports, then carry ports, then extra edge handles, with the reference persist defaults', () => {
    const g = loop([
      { id: 'e', source: 's', target: 'in', targetHandle: 'extra' },
      { id: 'dup', source: 's', target: 'in', targetHandle: 'init_goal' },
    ]);
    expect(synthesizeIterInPorts(g, byId(g, 'in'))).toEqual([
      { name: 'init_goal', wire_type: 'TEXT', persist: true, origin: 'init', writer_name: 'goal' },
      { name: 'init_plan', wire_type: 'TEXT', persist: false, origin: 'init', writer_name: 'plan' },
      { name: 'init_x', wire_type: 'ANY', persist: false, origin: 'init', writer_name: 'x' },
      { name: 'iterout_plan', wire_type: 'TEXT', persist: true, origin: 'iterOut', writer_name: 'plan' },
      { name: 'iterout_fb', wire_type: 'ANY', persist: false, origin: 'iterOut', writer_name: 'fb' },
      { name: 'extra', wire_type: 'ANY', persist: false, origin: 'init', writer_name: 'extra' },
    ]);
  });

  it('the counters `step`/`iteration` are outputs only: never in the synthesized config.ports; a port of that name wins', () => {
    const g = withSynthesizedPorts(loop([{ id: 'e', source: 's', target: 'in', targetHandle: 'iteration' }]));
    const names = (byId(g, 'in').config.ports as { name: string }[]).map((p) => p.name);
    expect(names).not.toContain('step');
    expect(names.filter((n) => n === 'iteration')).toHaveLength(1); // the edge's own init port
    const handles = iterInOutputHandles(g, byId(g, 'in')).map((h) => h.name);
    expect(handles.filter((n) => n === 'iteration')).toHaveLength(1);
    expect(handles[0]).toBe('step');
  });

  it('finds the iterOut by pointer or by back-pointer', () => {
    const g = loop();
    expect(pairedIterOut(g, byId(g, 'in'))?.id).toBe('out');
    delete byId(g, 'in').config.pairedWith;
    expect(pairedIterOut(g, byId(g, 'in'))?.id).toBe('out');
  });

  it('gives iterIn `step` and `iteration` plus its ports, iterOut `stop` + carries in and final_* out', () => {
    const g = loop();
    expect(iterInOutputHandles(g, byId(g, 'in')).map((h) => h.name)).toEqual([
      'step',
      'iteration',
      'init_goal',
      'init_plan',
      'init_x',
      'iterout_plan',
      'iterout_fb',
    ]);
    expect(iterOutInputHandles(byId(g, 'out'))).toEqual([
      { name: 'stop', wire_type: 'BOOL', required: false },
      { name: 'plan', wire_type: 'TEXT', required: false },
      { name: 'fb', wire_type: 'ANY', required: true },
    ]);
    expect(iterOutOutputHandles(byId(g, 'out')).map((h) => h.name)).toEqual([
      'final_plan',
      'final_fb',
      'final_stop',
    ]);
  });

  it('withSynthesizedPorts rewrites stored ports, recursing into subgraphs, without mutating its input', () => {
    const inner = loop();
    const g: GraphDef = {
      ...loop(),
      nodes: [
        ...loop().nodes,
        { id: 'c', type: 'compositeNode', label: '', position: { x: 0, y: 0 }, config: {}, subgraph: inner },
      ],
    };
    byId(g, 'in').config.ports = [{ name: 'stale' }];
    byId(inner, 'in').config.ports = [];
    const next = withSynthesizedPorts(g);
    expect((byId(next, 'in').config.ports as { name: string }[]).map((p) => p.name)).toContain(
      'iterout_plan',
    );
    expect((byId(next.nodes[2]!.subgraph!, 'in').config.ports as unknown[]).length).toBe(5);
    expect(byId(g, 'in').config.ports).toEqual([{ name: 'stale' }]);
  });
});

describe('loopView', () => {
  it('synthesizes exactly the same ports as the whole graph', () => {
    const withEdges = fc
      .tuple(validGraph, fc.array(fc.tuple(fc.nat(), fc.string({ maxLength: 6 })), { maxLength: 4 }))
      .map(([g, extra]) => {
        const ins = g.nodes.filter((n) => n.type === 'iterIn');
        const edges = extra.map(([k, h], i) => ({
          id: `x${i}`,
          source: 's',
          target: ins.length ? ins[k % ins.length]!.id : 's',
          sourceHandle: '',
          targetHandle: h,
        }));
        return { ...g, edges: [...g.edges, ...edges] };
      });
    fc.assert(
      fc.property(withEdges, (g) => {
        const view = loopView(g);
        for (const n of g.nodes.filter((x) => x.type === 'iterIn'))
          expect(synthesizeIterInPorts(view(n.id), n)).toEqual(synthesizeIterInPorts(g, n));
      }),
      { numRuns: 200 },
    );
  });
});
