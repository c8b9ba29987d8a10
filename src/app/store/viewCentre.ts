// The flow-space centre of the visible canvas, for things added without a drop position (palette,
// library double-click, shortcut). It is asked for when such a thing is added, from the canvas that
// is on screen, instead of being written to the editor store at the end of every pan and zoom: every
// graph node subscribes to that store, so each write ran a thousand node selectors for a value read
// only when adding a node.
import type { Position } from '../../domain/graph/graph.schema.ts';

type Provider = () => Position | null;

let provider: Provider | null = null;

/** The canvas on screen registers how to compute its centre; the returned function unregisters it. */
export function provideViewCentre(fn: Provider): () => void {
  provider = fn;
  return () => {
    if (provider === fn) provider = null;
  };
}

/** The centre of the visible canvas in flow coordinates, or the origin when no canvas is mounted. */
export function viewCentre(): Position {
  return provider?.() ?? { x: 0, y: 0 };
}
