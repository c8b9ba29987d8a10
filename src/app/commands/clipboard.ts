// Copy / paste / duplicate. The fragment is kept in memory (works across tabs) and also written to
// the system clipboard as JSON text, so it can be pasted into another window or a text editor.
import { currentLevel, editorStore, type EditorStore } from '../store/editor.store.ts';
import { cutFragment, insertFragment, isFragment, type Fragment } from '../store/ops/fragment.ops.ts';

let memory: Fragment | null = null;

export function copySelection(store: EditorStore = editorStore): Fragment | null {
  const s = store.getState();
  const frag = cutFragment(currentLevel(s), s.selection.nodes, s.selection.containers);
  if (frag.nodes.length === 0 && frag.containers.length === 0) return null;
  memory = frag;
  const text = JSON.stringify(frag, null, 2);
  navigator.clipboard?.writeText(text).catch(() => undefined);
  s.showToast(`copied ${frag.nodes.length} node(s), ${frag.containers.length} container(s)`, 'info');
  return frag;
}

function paste(frag: Fragment, offset: number, store: EditorStore) {
  const s = store.getState();
  let created: { nodeIds?: string[]; containerIds?: string[] } = {};
  const r = s.edit((g) => {
    const res = insertFragment(g, frag, { x: offset, y: offset });
    created = res;
    return res;
  });
  if (!r.ok) {
    s.showToast(r.reason, 'error');
    return;
  }
  s.setSelection({
    nodes: created.nodeIds ?? [],
    containers: created.containerIds ?? [],
    edges: [],
    grants: [],
  });
}

/** Pastes JSON text from the system clipboard if it is a fragment, else the in-memory copy. */
export async function pasteClipboard(store: EditorStore = editorStore): Promise<void> {
  let frag = memory;
  try {
    const text = await navigator.clipboard?.readText();
    if (text) {
      const v = JSON.parse(text) as unknown;
      if (isFragment(v)) frag = v;
    }
  } catch {
    // no clipboard permission or not JSON: use the in-memory copy
  }
  if (frag) paste(frag, 40, store);
}

export function duplicateSelection(store: EditorStore = editorStore): void {
  const s = store.getState();
  const frag = cutFragment(currentLevel(s), s.selection.nodes, s.selection.containers);
  if (frag.nodes.length || frag.containers.length) paste(frag, 40, store);
}
