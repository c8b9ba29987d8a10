// Selection from React Flow's select changes instead of its onSelectionChange: that listener
// subscribes to the flow store and walks every node and edge on every store update (each pan and
// zoom frame), while select changes arrive only when the selection really changes. The set of
// selected flow ids is kept here and published to the editor store once per burst of changes.
import type { SelectionIds } from '../store/ui.slice.ts';
import { containerFlowId, edgeFlowId, fromFlowEdgeId, fromFlowNodeId, grantFlowId } from './flowMapping.ts';

/** Editor selection ids (sorted per kind) from selected flow ids: nodes, `c:` containers, `e:` edges, `g:` grants. */
export function selectionFromFlowIds(nodeIds: Iterable<string>, edgeIds: Iterable<string>): SelectionIds {
  const sel: SelectionIds = { nodes: [], containers: [], edges: [], grants: [] };
  for (const f of nodeIds) {
    const r = fromFlowNodeId(f);
    (r.kind === 'node' ? sel.nodes : sel.containers).push(r.id);
  }
  for (const f of edgeIds) {
    const r = fromFlowEdgeId(f);
    (r.kind === 'edge' ? sel.edges : sel.grants).push(r.id);
  }
  sel.nodes.sort();
  sel.containers.sort();
  sel.edges.sort();
  sel.grants.sort();
  return sel;
}

/** The flow ids of an editor selection: nodes, `c:` containers, `e:` edges, `g:` grants. */
export function flowIdsOfSelection(sel: SelectionIds): Set<string> {
  return new Set([
    ...sel.nodes,
    ...sel.containers.map(containerFlowId),
    ...sel.edges.map(edgeFlowId),
    ...sel.grants.map(grantFlowId),
  ]);
}

type SelectChange = { type: string; id?: string; selected?: boolean };

/**
 * Tracks selected flow nodes and edges from select changes; `publish` runs once per microtask
 * burst (a click deselects edges and selects a node in one burst). `reset` adopts a selection set
 * by the store (focus requests, a new level), which React Flow does not report as changes.
 */
export function createSelectionTracker(publish: (sel: SelectionIds) => void) {
  const nodes = new Set<string>();
  const edges = new Set<string>();
  let queued = false;
  const apply = (set: Set<string>, changes: readonly SelectChange[]) => {
    let touched = false;
    for (const c of changes) {
      if (c.type !== 'select' || c.id === undefined) continue;
      touched = true;
      if (c.selected) set.add(c.id);
      else set.delete(c.id);
    }
    if (!touched || queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      publish(selectionFromFlowIds(nodes, edges));
    });
  };
  return {
    nodeChanges: (changes: readonly SelectChange[]) => apply(nodes, changes),
    edgeChanges: (changes: readonly SelectChange[]) => apply(edges, changes),
    reset(nodeIds: Iterable<string>, edgeIds: Iterable<string>) {
      nodes.clear();
      edges.clear();
      for (const id of nodeIds) nodes.add(id);
      for (const id of edgeIds) edges.add(id);
    },
  };
}
