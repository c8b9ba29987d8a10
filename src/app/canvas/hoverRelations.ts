// Hover highlighting without store writes or re-renders: which flow elements a hovered node or
// container is related to through access grants. The canvas applies the answer as a data attribute
// on the related elements (useDelegatedHover.ts), so a hover costs a few attribute writes instead
// of every node's selector and render.
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { containerFlowId, fromFlowNodeId } from './flowMapping.ts';

/**
 * Flow ids related to the hovered flow node: for a container, the nodes granted to it; for a node,
 * the containers it is granted. Empty when nothing is hovered or nothing is related.
 */
export function relatedFlowIds(level: GraphDef, hoveredFlowId: string | null): string[] {
  if (hoveredFlowId === null) return [];
  const h = fromFlowNodeId(hoveredFlowId);
  const out = new Set<string>();
  for (const g of level.access_grants) {
    if (h.kind === 'container' && g.container_id === h.id) out.add(g.node_id);
    else if (h.kind === 'node' && g.node_id === h.id) out.add(containerFlowId(g.container_id));
  }
  out.delete(hoveredFlowId);
  return [...out];
}
