// Resolves the concrete input/output ports of one node instance: class ports from the catalog,
// loop pivots' synthesized ports, composite ports from inner graphIn/graphOut, config.ports overrides.
import type { Catalog, PortSpec } from '../catalog/catalog.schema.ts';
import type { GraphDef, NodeDef } from '../graph/graph.schema.ts';
import {
  iterInOutputHandles,
  iterOutInputHandles,
  iterOutOutputHandles,
  loopPortsOf,
  synthesizeIterInPorts,
} from './loopPorts.ts';

export interface ResolvedPorts {
  inputs: PortSpec[];
  outputs: PortSpec[];
  /** False when the node type is not in the catalog (a plugin type not loaded): ports are unknown. */
  known: boolean;
}

const port = (name: string, wire_type = 'ANY', optional = true, description = ''): PortSpec => ({
  name,
  wire_type,
  optional,
  description,
});

function compositePorts(sub: GraphDef): ResolvedPorts {
  const inputs: PortSpec[] = [];
  const outputs: PortSpec[] = [];
  for (const n of sub.nodes) {
    const wire = typeof n.config.wireType === 'string' ? n.config.wireType : 'ANY';
    if (n.type === 'graphIn')
      inputs.push(
        port(typeof n.config.portName === 'string' && n.config.portName ? n.config.portName : 'input', wire),
      );
    if (n.type === 'graphOut')
      outputs.push(
        port(typeof n.config.portName === 'string' && n.config.portName ? n.config.portName : 'output', wire),
      );
  }
  return { inputs, outputs, known: true };
}

export function resolvePorts(
  node: NodeDef,
  graph: Pick<GraphDef, 'nodes' | 'edges'>,
  catalog: Catalog,
): ResolvedPorts {
  if (node.subgraph && node.subgraph.nodes.length > 0) return compositePorts(node.subgraph);
  if (node.type === 'iterIn') {
    // Its inputs are the init side of the synthesis: `init_<name>` per initPorts entry plus any
    // other handle an edge lands on (an unlisted handle is an ANY init port). All optional: a loop
    // with no init wires still starts.
    const inputs = synthesizeIterInPorts(graph, node)
      .filter((p) => p.origin === 'init')
      .map((p) => port(p.name, p.wire_type));
    return {
      inputs,
      outputs: iterInOutputHandles(graph, node).map((h) => port(h.name, h.wire_type, true, h.description)),
      known: true,
    };
  }
  if (node.type === 'iterOut') {
    return {
      inputs: iterOutInputHandles(node).map((h) => port(h.name, h.wire_type, !h.required)),
      outputs: iterOutOutputHandles(node).map((h) => port(h.name, h.wire_type)),
      known: true,
    };
  }
  const spec = catalog.get(node.type);
  if (!spec) return { inputs: [], outputs: [], known: false };
  let inputs = spec.input_ports;
  let outputs = spec.output_ports;
  if (node.type === 'nullSource' || node.type === 'constant') {
    const wt =
      typeof node.config.wire_type === 'string' && node.config.wire_type ? node.config.wire_type : 'ANY';
    outputs = outputs.map((p) => (p.name === 'value' ? { ...p, wire_type: wt } : p));
  }
  const override = loopPortsOf(node.config.ports);
  if (override.length > 0 && spec.ports_mode) {
    const asPorts = override.map((p) => port(p.name, p.wire_type || 'ANY', p.required !== true));
    if (spec.ports_mode === 'sink' || spec.ports_mode === 'input') inputs = asPorts;
    else if (spec.ports_mode === 'source') outputs = asPorts;
    else if (spec.ports_mode === 'mirror') {
      inputs = asPorts;
      outputs = asPorts;
    }
  }
  return { inputs, outputs, known: true };
}
