// Drag payload type for library → canvas drops (shared by the library and the canvas).
export const NODE_DRAG_MIME = 'application/statewire-node';
