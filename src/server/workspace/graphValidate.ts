// Server-side validation entry: the domain validator over the server's catalog.
import type { Catalog } from '../../domain/catalog.schema.ts';
import type { GraphDef } from '../../domain/graph.schema.ts';
import type { Issue } from '../../domain/issues.ts';

export function validateGraph(graph: GraphDef, catalog: Catalog): Issue[] {
  const issues: Issue[] = [];
  graph.nodes.forEach((n, i) => {
    if (!catalog.has(n.type) && !n.subgraph && n.type !== 'stateContainer')
      issues.push({ code: 'unknown-node-type', severity: 'warning', path: `$.nodes[${i}].type`, message: `node ${n.id}: unknown type ${n.type}`, nodeId: n.id });
  });
  return issues;
}
