// Graphs explorer: saved graphs from GET /api/graphs grouped by folder. Double-click (or Enter)
// opens one in a tab (an already-open graph focuses its tab); the bin deletes after a confirm.
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Folder, RefreshCw, Trash2 } from 'lucide-react';
import type { GraphListEntry } from '../../api/client.ts';
import { deleteSaved, GRAPHS_CHANGED_EVENT, openSavedGraph } from '../../files/documents.ts';
import { loadGraphList, useGraphList } from '../../files/graphList.ts';
import { editorStore, useEditor } from '../../store/editor.store.ts';
import { GRAPH_DRAG_MIME } from '../../ui/dragMime.ts';

export function GraphsExplorer() {
  // Loaded by boot before the editor shows (graphList.ts); refetched here when files change.
  const list = useGraphList((s) => s.list);
  const error = useGraphList((s) => s.error);
  const loaded = useGraphList((s) => s.loaded);
  const refresh = useCallback(() => void loadGraphList(), []);
  // Refetch whenever any tab gets saved (its savedId/diskText changes), not at mount: boot has
  // just loaded the list (a graph opened by boot is a tab already on disk).
  const savedKey = useEditor((s) =>
    s.tabs.map((t) => `${t.savedId ?? ''}:${t.diskText?.length ?? 0}`).join('|'),
  );
  const lastKey = useRef(savedKey);
  useEffect(() => {
    if (lastKey.current === savedKey && loaded) return;
    lastKey.current = savedKey;
    refresh();
  }, [refresh, savedKey, loaded]);
  // Rename/delete/save-as change the files without (only) changing a tab: refetch then too.
  useEffect(() => {
    window.addEventListener(GRAPHS_CHANGED_EVENT, refresh);
    return () => window.removeEventListener(GRAPHS_CHANGED_EVENT, refresh);
  }, [refresh]);

  const askDelete = (id: string) => {
    if (!window.confirm(`Delete the saved graph "${id}"?`)) return;
    deleteSaved(id)
      .catch((e: Error) => editorStore.getState().showToast(`could not delete ${id}: ${e.message}`, 'error'))
      .finally(refresh);
  };

  const graphNodes = useMemo(() => list.filter((g) => g.kind === 'node'), [list]);
  const folders = useMemo(() => {
    const by = new Map<string, GraphListEntry[]>();
    for (const g of list) {
      if (g.kind === 'node') continue;
      const f = g.folder ?? '';
      by.set(f, [...(by.get(f) ?? []), g]);
    }
    return [...by.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [list]);

  return (
    <div
      className="flex max-h-[40%] min-h-[120px] flex-col border-b border-zinc-800"
      data-testid="graphs-explorer"
    >
      <div className="flex items-center px-2 pt-2 pb-1 text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">
        Graphs
        <button
          type="button"
          title="Refresh"
          className="ml-auto text-zinc-500 hover:text-zinc-200"
          onClick={refresh}
        >
          <RefreshCw size={11} />
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-1 pb-1">
        {error && <div className="px-1 text-[11px] text-red-400">{error}</div>}
        {!error && loaded && list.length === 0 && (
          <div className="px-1 text-[11px] text-zinc-500 italic">No saved graphs</div>
        )}
        {folders.map(([folder, graphs]) => (
          <div key={folder}>
            {folder && (
              <div className="flex items-center gap-1 px-1 text-[11px] text-amber-300/80">
                <Folder size={11} /> {folder}
              </div>
            )}
            {graphs.map((g) => (
              <div
                key={g._id}
                data-testid={`explorer-graph-${g._id}`}
                tabIndex={0}
                onDoubleClick={() => void openSavedGraph(g._id)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') void openSavedGraph(g._id);
                  if (e.key === 'Delete') {
                    e.stopPropagation(); // not the canvas' "delete selection"
                    askDelete(g._id);
                  }
                }}
                title={`${g._id}${g.description ? ` — ${g.description}` : ''} (double-click to open)`}
                className={`group flex cursor-default items-center rounded py-0.5 pr-1 text-xs text-zinc-300 hover:bg-zinc-800 focus:bg-zinc-800 focus:outline-none ${folder ? 'pl-4' : 'pl-1.5'}`}
              >
                <span className="truncate">{g.name || g._id}</span>
                <button
                  type="button"
                  title={`Delete ${g._id} (or select it and press Delete)`}
                  data-testid={`explorer-delete-${g._id}`}
                  className="ml-auto hidden text-zinc-500 group-hover:block group-focus:block hover:text-red-400"
                  onClick={() => askDelete(g._id)}
                >
                  <Trash2 size={11} />
                </button>
              </div>
            ))}
          </div>
        ))}
        {graphNodes.length > 0 && (
          <div className="mt-1 px-1 text-[10px] tracking-wide text-indigo-300/80 uppercase">Graph nodes</div>
        )}
        {graphNodes.map((g) => (
          <div
            key={g._id}
            data-testid={`explorer-node-${g._id}`}
            draggable
            onDragStart={(e) => {
              e.dataTransfer.setData(GRAPH_DRAG_MIME, g._id);
              e.dataTransfer.effectAllowed = 'copy';
            }}
            title={`${g._id}: drag onto the canvas to add it as a composite (containers and grants included)`}
            className="cursor-grab truncate rounded py-0.5 pl-1.5 text-xs text-indigo-200 hover:bg-zinc-800"
          >
            {g.name || g._id}
          </div>
        ))}
      </div>
    </div>
  );
}
