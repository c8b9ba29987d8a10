// Group the selection into a composite node / ungroup the selected composite.
import { currentLevel, editorStore, type EditorStore } from '../store/editor.store.ts';
import { freshId, usedIds } from '../store/ids.ts';
import { groupNodes, ungroupNode } from '../store/ops/composite.ops.ts';

export function groupSelection(store: EditorStore = editorStore): void {
  const s = store.getState();
  const id = freshId('composite', usedIds(currentLevel(s)));
  const r = s.edit((g) => groupNodes(g, s.selection.nodes, s.selection.containers, id));
  if (!r.ok) s.showToast(r.reason, 'error');
  else s.setSelection({ nodes: [id], containers: [], edges: [], grants: [] });
}

export function ungroupSelection(store: EditorStore = editorStore): void {
  const s = store.getState();
  const id = s.selection.nodes[0];
  const r = id
    ? s.edit((g) => ungroupNode(g, id))
    : { ok: false as const, reason: 'select a composite node to ungroup' };
  if (!r.ok) s.showToast(r.reason, 'error');
  else s.clearSelection();
}
