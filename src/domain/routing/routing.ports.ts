// Which outgoing edges form a route choice. A *routed port* is a source node's output handle with at
// least one edge carrying a condition or an effect: every edge of that port is a candidate and exactly
// one must be compatible (an edge without condition always holds). Ports without any are plain
// fan-out, as in the reference. The engine and the validator group edges with this one function.
import type { EdgeDef } from '../graph/graph.schema.ts';

export interface RoutedPort {
  node: string;
  /** The source handle; "" and "default" are the whole-result handle. */
  port: string;
  edges: EdgeDef[];
  /** At least one edge has a condition (the checker's "routing port"). */
  conditional: boolean;
}

export const portOf = (e: EdgeDef): string => e.sourceHandle || 'default';

const routedEdge = (e: EdgeDef): boolean => e.condition !== undefined || e.effect !== undefined;

/** Routed ports of a graph level, in edge order. */
export function routedPorts(edges: readonly EdgeDef[]): RoutedPort[] {
  const groups = new Map<string, RoutedPort>();
  for (const e of edges) {
    const key = JSON.stringify([e.source, portOf(e)]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { node: e.source, port: portOf(e), edges: [], conditional: false }));
    g.edges.push(e);
    if (e.condition !== undefined) g.conditional = true;
  }
  return [...groups.values()].filter((g) => g.edges.some(routedEdge));
}
