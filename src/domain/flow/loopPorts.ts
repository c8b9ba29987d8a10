// iterIn/iterOut port synthesis (docs/reference-system.md §1.9), mirrored exactly so the editor, the validator
// and the engine agree on handle names: init_<x>, iterout_<x>, step, iteration; stop, final_<x>, final_stop.
import type { GraphDef, LoopPort, NodeDef, SynthesizedPort } from '../graph/graph.schema.ts';

export function loopPortsOf(value: unknown): LoopPort[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (p): p is LoopPort =>
      typeof p === 'object' && p !== null && typeof (p as { name?: unknown }).name === 'string',
  );
}

export function pairedId(node: NodeDef): string | undefined {
  const p = node.config.pairedWith;
  return typeof p === 'string' && p ? p : undefined;
}

/** The iterOut a given iterIn is paired with, if it exists in the graph and really is an iterOut. */
export function pairedIterOut(graph: Pick<GraphDef, 'nodes'>, iterIn: NodeDef): NodeDef | undefined {
  const id = pairedId(iterIn);
  const byPointer = id ? graph.nodes.find((n) => n.id === id && n.type === 'iterOut') : undefined;
  return byPointer ?? graph.nodes.find((n) => n.type === 'iterOut' && pairedId(n) === iterIn.id);
}

/**
 * The iterIn's synthesized ports in the reference's order: initPorts, then the paired iterOut's
 * carry ports, then any extra edge target handles; duplicates skipped; explicit persist wins.
 */
export function synthesizeIterInPorts(
  graph: Pick<GraphDef, 'nodes' | 'edges'>,
  iterIn: NodeDef,
): SynthesizedPort[] {
  const out: SynthesizedPort[] = [];
  const seen = new Set<string>();
  const add = (p: SynthesizedPort) => {
    if (seen.has(p.name)) return;
    seen.add(p.name);
    out.push(p);
  };
  for (const p of loopPortsOf(iterIn.config.initPorts)) {
    add({
      name: `init_${p.name}`,
      wire_type: p.wire_type || 'ANY',
      persist: p.persist ?? false,
      origin: 'init',
      writer_name: p.name,
    });
  }
  const iterOut = pairedIterOut(graph, iterIn);
  if (iterOut) {
    for (const p of loopPortsOf(iterOut.config.ports)) {
      add({
        name: `iterout_${p.name}`,
        wire_type: p.wire_type || 'ANY',
        persist: p.persist ?? true,
        origin: 'iterOut',
        writer_name: p.name,
      });
    }
  }
  for (const e of graph.edges) {
    if (e.target !== iterIn.id || !e.targetHandle || seen.has(e.targetHandle)) continue;
    add({
      name: e.targetHandle,
      wire_type: 'ANY',
      persist: false,
      origin: 'init',
      writer_name: e.targetHandle,
    });
  }
  return out;
}

/**
 * The iterIn's counter outputs, beside its synthesized ports (never written into `config.ports`, so
 * files round-trip unchanged). `step` is the reference's: the root step count (`ctx.step`: root steps
 * completed, 0 in the first iteration), the same in nested loops. `iteration` is a Statewire
 * extension: this loop's own count since it was (re)entered (an inner loop restarts at 0).
 */
export const ITER_IN_COUNTER_PORTS: readonly { name: string; wire_type: string; description: string }[] = [
  {
    name: 'step',
    wire_type: 'ANY',
    description: 'root step count (root steps completed; the same in nested loops)',
  },
  {
    name: 'iteration',
    wire_type: 'ANY',
    description: "this loop's own iteration count since it was entered (0, 1, …)",
  },
];

/** Output handles of an iterIn: `step`, `iteration` and every synthesized port (a port wins a name clash). */
export function iterInOutputHandles(
  graph: Pick<GraphDef, 'nodes' | 'edges'>,
  iterIn: NodeDef,
): { name: string; wire_type: string; description?: string }[] {
  const ports = synthesizeIterInPorts(graph, iterIn).map((p) => ({ name: p.name, wire_type: p.wire_type }));
  const counters = ITER_IN_COUNTER_PORTS.filter((c) => !ports.some((p) => p.name === c.name));
  return [...counters, ...ports];
}

export function iterOutInputHandles(
  iterOut: NodeDef,
): { name: string; wire_type: string; required: boolean }[] {
  return [
    { name: 'stop', wire_type: 'BOOL', required: false },
    ...loopPortsOf(iterOut.config.ports).map((p) => ({
      name: p.name,
      wire_type: p.wire_type || 'ANY',
      required: p.required === true,
    })),
  ];
}

export function iterOutOutputHandles(iterOut: NodeDef): { name: string; wire_type: string }[] {
  return [
    ...loopPortsOf(iterOut.config.ports).map((p) => ({
      name: `final_${p.name}`,
      wire_type: p.wire_type || 'ANY',
    })),
    { name: 'final_stop', wire_type: 'BOOL' },
  ];
}

/** Recompute `config.ports` of every iterIn, recursively into subgraphs (done on every load). */
export function withSynthesizedPorts(graph: GraphDef): GraphDef {
  return {
    ...graph,
    nodes: graph.nodes.map((n) => {
      let next = n;
      if (n.type === 'iterIn')
        next = { ...next, config: { ...next.config, ports: synthesizeIterInPorts(graph, n) } };
      if (n.subgraph) next = { ...next, subgraph: withSynthesizedPorts(n.subgraph) };
      return next;
    }),
  };
}
