// Graphs explorer: the files of workspace/graphs (GET /api/graphs) grouped by folder, kept current by
// the server's graphs_changed notice (files/graphsSync.ts; ↻ forces a refetch). A click selects a
// graph, ↑/↓ move the selection, Enter or a double-click opens it in a tab (an already-open graph
// focuses its tab), Delete or the bin deletes after a confirm. The header names the folder as
// `statewire serve` prints it (`graphs /abs/workspace/graphs`), so the two are recognisably the same.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { AlertTriangle, Folder, RefreshCw, Trash2 } from 'lucide-react';
import type { GraphListEntry } from '../../api/client.ts';
import { deleteSaved, GRAPHS_CHANGED_EVENT, openSavedGraph } from '../../files/documents.ts';
import { loadGraphList, loadGraphsRoot, useGraphList } from '../../files/graphList.ts';
import { editorStore, useEditor } from '../../store/editor.store.ts';
import { GRAPH_DRAG_MIME } from '../../ui/dragMime.ts';

export function GraphsExplorer() {
  // Loaded by boot before the editor shows (graphList.ts); refetched here when files change.
  const list = useGraphList((s) => s.list);
  const error = useGraphList((s) => s.error);
  const loaded = useGraphList((s) => s.loaded);
  const root = useGraphList((s) => s.root);
  const refresh = useCallback(() => void loadGraphList(), []);
  const [selected, setSelected] = useState<string | null>(null);
  const rows = useRef(new Map<string, HTMLDivElement>());
  useEffect(() => {
    if (root === null) void loadGraphsRoot();
  }, [root]);
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
  /** The graph rows in the order shown (for ↑/↓). */
  const order = useMemo(() => folders.flatMap(([, graphs]) => graphs.map((g) => g._id)), [folders]);
  const select = (id: string) => {
    setSelected(id);
    rows.current.get(id)?.focus();
  };
  const onRowKey = (e: KeyboardEvent, id: string) => {
    if (e.key === 'Enter') void openSavedGraph(id);
    else if (e.key === 'Delete') {
      e.stopPropagation(); // not the canvas' "delete selection"
      askDelete(id);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = order[order.indexOf(id) + (e.key === 'ArrowDown' ? 1 : -1)];
      if (next) select(next);
    }
  };

  return (
    <div
      className="flex max-h-[40%] min-h-[120px] flex-col border-b border-zinc-800"
      data-testid="graphs-explorer"
    >
      <div className="flex items-center gap-1.5 px-2 pt-2 pb-1 text-[10px] text-zinc-500">
        <span className="font-semibold tracking-wider uppercase">Graphs</span>
        {root && (
          <span
            className="min-w-0 truncate font-mono text-[10px] text-zinc-500 [direction:rtl]"
            title={`graphs ${root} (as statewire serve prints it)`}
            data-testid="graphs-root"
          >
            {/* rtl truncates at the start, so the folder's own name stays visible */}
            <bdi>{root}</bdi>
          </span>
        )}
        <button
          type="button"
          title="Refresh"
          className="ml-auto text-zinc-500 hover:text-zinc-200"
          onClick={refresh}
        >
          <RefreshCw size={11} />
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-1 pb-1" role="listbox" aria-label="Graphs">
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
            {graphs.map((g) => {
              const isSelected = selected === g._id;
              return (
                <div
                  key={g._id}
                  ref={(el) => {
                    if (el) rows.current.set(g._id, el);
                    else rows.current.delete(g._id);
                  }}
                  data-testid={`explorer-graph-${g._id}`}
                  role="option"
                  aria-selected={isSelected}
                  tabIndex={isSelected || (selected === null && g._id === order[0]) ? 0 : -1}
                  onClick={() => select(g._id)}
                  onFocus={() => setSelected(g._id)}
                  onDoubleClick={() => void openSavedGraph(g._id)}
                  onKeyDown={(e) => onRowKey(e, g._id)}
                  title={`${g._id}${g.description ? ` — ${g.description}` : ''}${g._error ? `\ndoes not read as a graph: ${g._error}` : ''}\n(Enter or double-click to open)`}
                  className={`group flex cursor-default items-center gap-1 rounded py-0.5 pr-1 text-xs focus:outline-none ${isSelected ? 'bg-sky-900/50 text-zinc-100 focus:ring-1 focus:ring-sky-700' : 'text-zinc-300 hover:bg-zinc-800'} ${folder ? 'pl-4' : 'pl-1.5'}`}
                >
                  <span className="truncate">{g.name || g._id}</span>
                  {g._error && (
                    <AlertTriangle
                      size={10}
                      className="shrink-0 text-amber-400"
                      data-testid={`explorer-unreadable-${g._id}`}
                      aria-label="does not read as a graph"
                    />
                  )}
                  <button
                    type="button"
                    title={`Delete ${g._id} (or select it and press Delete)`}
                    data-testid={`explorer-delete-${g._id}`}
                    className={`ml-auto text-zinc-500 group-hover:block hover:text-red-400 ${isSelected ? 'block' : 'hidden'}`}
                    onClick={(e) => {
                      e.stopPropagation();
                      askDelete(g._id);
                    }}
                  >
                    <Trash2 size={11} />
                  </button>
                </div>
              );
            })}
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
      {list.length > 0 && (
        <div className="px-2 pb-1 text-[10px] text-zinc-500" data-testid="explorer-hint">
          Click selects · Enter/double-click opens
        </div>
      )}
    </div>
  );
}
