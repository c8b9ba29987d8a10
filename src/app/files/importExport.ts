// Import a .json graph file (drop or picker) into a new tab, and export the active graph as
// canonical JSON. A file that does not parse never touches the open documents: its errors are
// shown with their JSON paths; warnings open with the graph and are listed in the Issues panel.
import { activeTab } from '../store/doc.slice.ts';
import { showIssuesOnLoad } from './documents.ts';
import { editorStore, type EditorStore } from '../store/editor.store.ts';
import { formatGraphText, parseGraphText } from '../store/graphIo.ts';

export function importText(text: string, fileName: string, store: EditorStore = editorStore): boolean {
  const s = store.getState();
  const r = parseGraphText(text, fileName);
  if (!r.ok) {
    s.setDialog({
      kind: 'importErrors',
      fileName,
      errors: r.errors.map((e) => ({ path: e.path, message: e.message })),
    });
    s.addLog('error', `import of ${fileName} failed: ${r.errors.length} error(s)`);
    return false;
  }
  const title = r.graph.name || fileName.replace(/\.json$/i, '');
  s.openTab({ graph: r.graph, title, loadWarnings: r.warnings, dirty: true });
  showIssuesOnLoad(store, r.warnings.length);
  s.addLog('info', `imported ${fileName}${r.warnings.length ? ` with ${r.warnings.length} warning(s)` : ''}`);
  return true;
}

export async function importFileIntoNewTab(file: File, store: EditorStore = editorStore): Promise<boolean> {
  return importText(await file.text(), file.name, store);
}

/** The canonical JSON of the active tab's whole graph (root, not the drilled-in level). */
export function exportText(store: EditorStore = editorStore): { text: string; fileName: string } | null {
  const tab = activeTab(store.getState());
  if (!tab) return null;
  const base =
    (tab.graph.name || tab.title || 'graph')
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
      .replace(/[^a-z0-9_]/g, '') || 'graph';
  return { text: formatGraphText(tab.graph), fileName: `${base}.json` };
}

export function downloadActive(store: EditorStore = editorStore): void {
  const out = exportText(store);
  if (!out) return;
  const url = URL.createObjectURL(new Blob([out.text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = out.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
