// Node library: the catalog grouped by category with a search box, plus the "State container"
// entry (which the reference lost once server schemas loaded, 8.2.10). Drag onto the canvas, or
// double-click / Enter to add at the centre of the view.
import { useMemo, useState, type DragEvent } from 'react';
import { Database } from 'lucide-react';
import { addAtViewCentre, CONTAINER_ENTRY } from '../../store/actions.ts';
import { editorStore, useEditor } from '../../store/editor.store.ts';
import { NODE_DRAG_MIME } from '../../ui/dragMime.ts';

interface Entry {
  type: string;
  name: string;
  category: string;
  description: string;
}

const CATEGORY_ORDER = ['state', 'control', 'llm', 'processing', 'environment', 'output', 'annotation'];

function onDragStart(e: DragEvent<HTMLElement>) {
  const type = e.currentTarget.dataset.type;
  if (!type) return;
  e.dataTransfer.setData(NODE_DRAG_MIME, type);
  e.dataTransfer.effectAllowed = 'copy';
}

function addAtCentre(type: string) {
  const s = editorStore.getState();
  const r = addAtViewCentre(type);
  if (!r.ok) s.showToast(r.reason, 'error');
  else if (r.ids && type !== CONTAINER_ENTRY)
    s.setSelection({ nodes: r.ids.slice(0, 1), containers: [], edges: [], grants: [] });
  else if (r.ids) s.setSelection({ nodes: [], containers: r.ids, edges: [], grants: [] });
}

export function NodeLibrary() {
  const specs = useEditor((s) => s.specs);
  const [q, setQ] = useState('');
  const groups = useMemo(() => {
    const entries: Entry[] = [
      {
        type: CONTAINER_ENTRY,
        name: 'State container',
        category: 'state',
        description: 'Shared memory: named slots with reducers and lifetimes. Shortcut: C',
      },
      ...specs.map((s) => ({
        type: s.type,
        name: s.display_name,
        category: s.category,
        description: s.description,
      })),
    ];
    const needle = q.trim().toLowerCase();
    const hits = needle
      ? entries.filter((e) => `${e.name} ${e.type} ${e.category}`.toLowerCase().includes(needle))
      : entries;
    const by = new Map<string, Entry[]>();
    for (const e of hits) by.set(e.category, [...(by.get(e.category) ?? []), e]);
    return [...by.entries()].sort(
      ([a], [b]) =>
        ((CATEGORY_ORDER.indexOf(a) + 100) % 100) - ((CATEGORY_ORDER.indexOf(b) + 100) % 100) ||
        a.localeCompare(b),
    );
  }, [specs, q]);

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="node-library">
      <div className="px-2 pt-2 pb-1 text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">
        Nodes
      </div>
      <input
        data-testid="library-search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder="Search nodes…"
        className="mx-2 mb-1 rounded border border-zinc-700 bg-zinc-950 px-2 py-0.5 text-xs outline-none focus:border-sky-600"
      />
      <div className="min-h-0 flex-1 overflow-y-auto px-1 pb-2">
        {groups.map(([cat, entries]) => (
          <div key={cat} className="mb-1">
            <div className="px-1 pt-1 text-[10px] tracking-wide text-zinc-500 uppercase">{cat}</div>
            {entries.map((e) => (
              <div
                key={e.type}
                data-testid={`library-item-${e.type}`}
                data-type={e.type}
                draggable
                tabIndex={0}
                onDragStart={onDragStart}
                onDoubleClick={() => addAtCentre(e.type)}
                onKeyDown={(ev) => {
                  if (ev.key === 'Enter') addAtCentre(e.type);
                }}
                title={`${e.type}: ${e.description}`}
                className="flex cursor-grab items-center gap-1.5 rounded px-1.5 py-0.5 text-xs text-zinc-300 hover:bg-zinc-800 focus:bg-zinc-800 focus:outline-none"
              >
                {e.type === CONTAINER_ENTRY ? (
                  <Database size={11} className="text-violet-400" />
                ) : (
                  <span className="h-1.5 w-1.5 rounded-full bg-zinc-500" />
                )}
                <span className="truncate">{e.name}</span>
              </div>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
