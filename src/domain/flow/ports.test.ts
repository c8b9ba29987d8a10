import { describe, expect, it } from 'vitest';
import { BUILTIN_CATALOG } from '../catalog/catalog.builtins.ts';
import type { GraphDef, NodeDef } from '../graph/graph.schema.ts';
import { resolvePorts } from './ports.ts';

const node = (id: string, type: string, config: Record<string, unknown> = {}): NodeDef =>
  ({ id, type, label: id, position: { x: 0, y: 0 }, config }) as NodeDef;

describe('resolvePorts for an iterIn', () => {
  const iterIn = node('in', 'iterIn', {
    pairedWith: 'out',
    initPorts: [
      { name: 'obs', wire_type: 'TEXT' },
      { name: 'n', wire_type: 'INT' },
    ],
  });
  const iterOut = node('out', 'iterOut', { pairedWith: 'in', ports: [{ name: 'obs', wire_type: 'TEXT' }] });
  const graph: Pick<GraphDef, 'nodes' | 'edges'> = {
    nodes: [node('src', 'constant'), iterIn, iterOut],
    edges: [
      { id: 'e1', source: 'src', target: 'in', sourceHandle: 'value', targetHandle: 'init_obs' },
      { id: 'e2', source: 'src', target: 'in', sourceHandle: 'value', targetHandle: 'seed' },
    ],
  };

  it('inputs are its init side: init_<name> per initPorts entry plus extra edge target handles, all optional', () => {
    const r = resolvePorts(iterIn, graph, BUILTIN_CATALOG);
    expect(r.inputs.map((p) => [p.name, p.wire_type, p.optional])).toEqual([
      ['init_obs', 'TEXT', true],
      ['init_n', 'INT', true],
      ['seed', 'ANY', true],
    ]);
    // The carried iterout_* ports are outputs only, never inputs.
    expect(r.inputs.some((p) => p.name.startsWith('iterout_'))).toBe(false);
    expect(r.outputs.map((p) => p.name)).toEqual([
      'step',
      'iteration',
      'init_obs',
      'init_n',
      'iterout_obs',
      'seed',
    ]);
  });

  it('an iterIn without init ports or edges has no inputs', () => {
    const bare = node('in2', 'iterIn', {});
    expect(resolvePorts(bare, { nodes: [bare], edges: [] }, BUILTIN_CATALOG).inputs).toEqual([]);
  });
});
