// A per-iterIn view of a graph for loop-port synthesis (see loopPorts.ts), so parse and validate
// stay linear on big graphs instead of scanning every node and edge once per iterIn.
import type { GraphDef } from '../graph/graph.schema.ts';

/**
 * The smallest graph view that gives the same loop-port synthesis as the whole graph: synthesis only
 * looks at iterOut nodes and at edges into the iterIn. Keeps validate/parse linear on big graphs.
 */
export function loopView(
  graph: Pick<GraphDef, 'nodes' | 'edges'>,
): (iterInId: string) => Pick<GraphDef, 'nodes' | 'edges'> {
  const iterOuts = graph.nodes.filter((n) => n.type === 'iterOut');
  const into = new Map<string, GraphDef['edges']>();
  for (const e of graph.edges) {
    const list = into.get(e.target);
    if (list) list.push(e);
    else into.set(e.target, [e]);
  }
  return (id) => ({ nodes: iterOuts, edges: into.get(id) ?? [] });
}
