// Drag payload type for library → canvas drops (shared by the library and the canvas).
export const NODE_DRAG_MIME = 'application/statewire-node';
/** Drag payload type for saved graph nodes (kind "node") → canvas drops; the value is the graph id. */
export const GRAPH_DRAG_MIME = 'application/statewire-graph';
