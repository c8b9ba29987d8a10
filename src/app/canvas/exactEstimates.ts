// React Flow measures every node it mounts: its ResizeObserver reports each new node once, and the
// report always re-reads the node's handle bounds from the DOM (a querySelectorAll and a
// getBoundingClientRect per handle) and replaces the node's internals. Even when nothing changed,
// every node and every edge on it then renders again. For a zoomed-out graph that is a second full
// render of a thousand boxes right after the first, for nothing: a box's size and handles are
// known exactly before it is drawn (nodeBox.ts, nodeEstimate.ts) and React Flow already holds them.
//
// So the flow store's updateNodeInternals is wrapped to leave out the nodes whose estimate the DOM
// confirms: the node still carries its estimated `handles`, its laid-out size (offsetWidth /
// offsetHeight, React Flow's own reading) is the estimated one and it holds exactly the estimated
// anchors (kind and id). The anchors' places are computed from the same geometry as the size. Anything else is measured as
// before: a box whose size came out different (an extra line, late CSS), every full node, every
// container, and every later size change.
import type { InternalNode, NodeHandle, ReactFlowState } from '@xyflow/react';

type UpdateNodeInternals = ReactFlowState['updateNodeInternals'];
type Updates = Parameters<UpdateNodeInternals>[0];

/** The updates that can change something: all but those of nodes whose estimate the DOM confirms. */
export function updatesToMeasure(updates: Updates, lookup: ReadonlyMap<string, InternalNode>): Updates {
  const kept: Updates = new Map();
  for (const [id, u] of updates) {
    const node = lookup.get(id);
    const confirmed =
      node !== undefined &&
      node.internals.userNode.handles !== undefined &&
      node.internals.handleBounds !== undefined &&
      node.measured.width === u.nodeElement.offsetWidth &&
      node.measured.height === u.nodeElement.offsetHeight &&
      anchorsMatch(u.nodeElement, node.internals.userNode.handles);
    if (!confirmed) kept.set(id, u);
  }
  return kept.size === updates.size ? updates : kept;
}

/**
 * The element holds exactly the estimated anchors (kind and id): a box whose ports changed without
 * changing its size (a renamed port) is measured, not left on anchors it no longer draws.
 */
function anchorsMatch(el: HTMLElement, handles: readonly NodeHandle[]): boolean {
  const found = el.querySelectorAll('.react-flow__handle');
  if (found.length !== handles.length) return false;
  const want = new Set(handles.map((h) => `${h.type}:${h.id ?? ''}`));
  for (const a of found)
    if (
      !want.has(
        `${a.classList.contains('source') ? 'source' : 'target'}:${a.getAttribute('data-handleid') ?? ''}`,
      )
    )
      return false;
  return true;
}

interface FlowStoreApi {
  getState(): ReactFlowState;
  setState(partial: Partial<ReactFlowState>): void;
}

const wrapped = new WeakSet<UpdateNodeInternals>();

/**
 * Wraps the flow store's updateNodeInternals (once per store). Call it before React Flow renders
 * its nodes: its ResizeObserver keeps the function it found at its first render.
 */
export function skipConfirmedEstimates(store: FlowStoreApi): void {
  const original = store.getState().updateNodeInternals;
  if (wrapped.has(original)) return;
  const update: UpdateNodeInternals = (updates, params) => {
    const { nodeLookup, fitViewQueued } = store.getState();
    let kept = updatesToMeasure(updates, nodeLookup);
    // React Flow resolves its initial fitView in the first update that changes something; with
    // every node confirmed it would stay queued and jump the view at some later measurement. One
    // node measured (the same numbers again) lets it resolve now, as it always did.
    const first = updates.entries().next();
    if (kept.size === 0 && fitViewQueued && !first.done) kept = new Map([first.value]);
    if (kept.size > 0) original(kept, params);
  };
  wrapped.add(update);
  store.setState({ updateNodeInternals: update });
}
