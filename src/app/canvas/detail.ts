// Level of detail for big graphs. Below LOW_DETAIL_ZOOM a node's 11 px text and 10 px handles are
// under three screen pixels, so a graph node is drawn as one box (NodeBox.tsx) holding only the
// handles its edges and grants attach to (edges need their measured positions): most of the DOM,
// style and React work of a thousand-node first render and of every pan frame is gone. Zooming in
// past the threshold brings the full body back (only for the nodes on screen: the canvas culls).
import { createContext } from 'react';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';

export const LOW_DETAIL_ZOOM = 0.25;

/** True while the canvas is zoomed out below LOW_DETAIL_ZOOM (nodes are boxes); false outside a canvas. */
export const LowDetailContext = createContext(false);

/** Handle keys: `i:<name>` input, `o:<name>` output, `s` the state source handle; `*` = all handles. */
export type WiredKey = string;

const cache = new WeakMap<GraphDef, Map<string, WiredKey>>();

/**
 * Per node of a level, the sorted handle keys that edges and grants attach to, computed once per
 * level object. An edge without a handle id makes React Flow pick a node's first handle, so such a
 * node gets `*` (all handles) to keep that choice identical to full detail.
 */
export function wiredHandles(level: GraphDef): Map<string, WiredKey> {
  let out = cache.get(level);
  if (out) return out;
  const sets = new Map<string, Set<string>>();
  const add = (node: string, key: string) => {
    let s = sets.get(node);
    if (!s) sets.set(node, (s = new Set()));
    s.add(key);
  };
  for (const e of level.edges) {
    add(e.source, e.sourceHandle ? `o:${e.sourceHandle}` : '*');
    add(e.target, e.targetHandle ? `i:${e.targetHandle}` : '*');
  }
  for (const g of level.access_grants) add(g.node_id, 's');
  out = new Map([...sets].map(([id, s]) => [id, s.has('*') ? '*' : [...s].sort().join(',')]));
  cache.set(level, out);
  return out;
}

const pendingInternals = new Map<object, Set<string>>();

/**
 * Asks React Flow to re-measure a node's handles, batched per flow: every node that changes its
 * handles in one commit (a zoom-in upgrade, the State toggle) lands in a single updateNodeInternals
 * call before the next frame (React Flow measures in a frame callback anyway). One call per node would re-measure and update the whole store once per node (quadratic:
 * seconds for a thousand nodes). `flow` identifies the flow (its store's getState); `update` is React
 * Flow's useUpdateNodeInternals() function (one per node, any of them serves the batch).
 */
export function queueInternalsUpdate(flow: object, update: (ids: string[]) => void, id: string): void {
  let ids = pendingInternals.get(flow);
  if (!ids) {
    const batch = new Set<string>();
    pendingInternals.set(flow, batch);
    requestAnimationFrame(() => {
      pendingInternals.delete(flow);
      update([...batch]);
    });
    ids = batch;
  }
  ids.add(id);
}
