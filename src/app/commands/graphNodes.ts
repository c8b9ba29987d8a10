// Dropping a saved graph node (kind "node") onto the canvas deep-copies it into a composite's
// subgraph, containers and grants included (the reference dropped them, docs/reference-system.md §8.2 item 11). Later edits of
// the saved file do not propagate (archive semantics).
import { addNodes } from '../../domain/graph/graph.ops.ts';
import type { Position } from '../../domain/graph/graph.schema.ts';
import { api } from '../api/client.ts';
import { currentLevel, editorStore, type EditorStore } from '../store/editor.store.ts';
import { readSavedGraph, whereOf } from '../files/savedGraph.ts';
import { freshId, usedIds } from '../store/ids.ts';

export async function dropGraphNode(
  graphId: string,
  at: Position,
  store: EditorStore = editorStore,
): Promise<void> {
  const s = store.getState();
  try {
    const r = readSavedGraph(await api.getGraph(graphId));
    if (r.kind === 'unreadable') {
      // Never an empty composite in its place: say why the file cannot be used.
      s.setDialog({
        kind: 'importErrors',
        fileName: graphId,
        errors: r.file.issues.map((i) => ({ path: whereOf(i), message: i.message })),
      });
      return;
    }
    const sub = { ...r.graph, kind: 'graph' as const, group: '' };
    const base =
      (r.graph.name || graphId)
        .toLowerCase()
        .replace(/[^a-z0-9_]+/g, '_')
        .replace(/^_+|_+$/g, '') || 'composite';
    const id = freshId(base, usedIds(currentLevel(s)));
    const res = s.edit((g) =>
      addNodes(g, [
        {
          id,
          type: 'compositeNode',
          label: r.graph.name || graphId,
          position: { x: Math.round(at.x), y: Math.round(at.y) },
          config: {},
          subgraph: sub,
        },
      ]),
    );
    if (!res.ok) s.showToast(res.reason, 'error');
    else s.setSelection({ nodes: [id], containers: [], edges: [], grants: [] });
  } catch (e) {
    s.showToast(`could not add ${graphId}: ${(e as Error).message}`, 'error');
  }
}
