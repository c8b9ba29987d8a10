// Culling of off-screen nodes and edges, by React Flow's own onlyRenderVisibleElements. It pays an
// O(nodes + edges) visibility pass on every pan and zoom frame, so it is switched on only where the
// nodes it unmounts are worth more than that pass: a large level. Small graphs (the demos, most
// hand-made graphs) keep every node mounted, which also keeps them all reachable in the DOM.
export const CULL_MIN_ELEMENTS = 300;

/** Whether a level with this many flow nodes and edges is drawn with culling. */
export function shouldCull(nodeCount: number, edgeCount: number): boolean {
  return nodeCount + edgeCount >= CULL_MIN_ELEMENTS;
}
