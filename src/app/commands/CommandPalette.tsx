// Command palette (Ctrl/Cmd-K): fuzzy-ish search over every command and every node type
// ("Add <type>"); Enter runs the highlighted entry.
import { useMemo, useState } from 'react';
import { addAtViewCentre, CONTAINER_ENTRY } from '../store/actions.ts';
import { currentLevel, editorStore, useEditor } from '../store/editor.store.ts';
import { COMMANDS } from './commands.ts';

interface Entry {
  id: string;
  title: string;
  hint?: string;
  run(): void;
}

function selectAdded(ids: string[]) {
  const s = editorStore.getState();
  const containers = new Set(currentLevel(s).containers.map((c) => c.id));
  s.setSelection({
    nodes: ids.filter((i) => !containers.has(i)),
    containers: ids.filter((i) => containers.has(i)),
    edges: [],
    grants: [],
  });
}

export function CommandPalette() {
  const open = useEditor((s) => s.overlay === 'palette');
  const specs = useEditor((s) => s.specs);
  const [q, setQ] = useState('');
  const [i, setI] = useState(0);
  const entries = useMemo<Entry[]>(() => {
    const add = (type: string, title: string): Entry => ({
      id: `add.${type}`,
      title,
      hint: 'add node',
      run: () => {
        const s = editorStore.getState();
        const r = addAtViewCentre(type);
        // Added at the view centre, so it is already in sight: select it, leave the viewport alone.
        if (r.ok && r.ids) selectAdded(r.ids.slice(0, 1));
        else if (!r.ok) s.showToast(r.reason, 'error');
      },
    });
    return [
      ...COMMANDS.filter((c) => c.id !== 'view.palette').map((c) => ({
        id: c.id,
        title: c.title,
        hint: c.shortcut,
        run: c.run,
      })),
      add(CONTAINER_ENTRY, 'Add State container'),
      ...specs.map((s) => add(s.type, `Add ${s.display_name} (${s.type})`)),
    ];
  }, [specs]);
  const hits = useMemo(() => {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    return entries.filter((e) => words.every((w) => e.title.toLowerCase().includes(w))).slice(0, 50);
  }, [entries, q]);
  if (!open) return null;
  const close = () => {
    editorStore.getState().setOverlay(null);
    setQ('');
    setI(0);
  };
  const run = (e: Entry | undefined) => {
    close();
    e?.run();
  };
  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center bg-black/40 pt-24" onMouseDown={close}>
      <div
        data-testid="command-palette"
        className="w-[520px] rounded-lg border border-zinc-700 bg-zinc-900 shadow-xl"
        onMouseDown={(e) => e.stopPropagation()}
      >
        <input
          autoFocus
          data-testid="palette-input"
          value={q}
          placeholder="Type a command or a node type…"
          onChange={(e) => {
            setQ(e.target.value);
            setI(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
            if (e.key === 'ArrowDown') setI((x) => Math.min(x + 1, hits.length - 1));
            if (e.key === 'ArrowUp') setI((x) => Math.max(x - 1, 0));
            if (e.key === 'Enter') run(hits[i]);
          }}
          className="w-full border-b border-zinc-700 bg-transparent px-3 py-2 text-sm outline-none"
        />
        <div className="max-h-80 overflow-y-auto py-1">
          {hits.map((e, k) => (
            <div
              key={e.id}
              data-testid="palette-item"
              onMouseEnter={() => setI(k)}
              onClick={() => run(e)}
              className={`flex cursor-pointer items-center px-3 py-1 text-xs ${k === i ? 'bg-sky-900/60 text-white' : 'text-zinc-300'}`}
            >
              {e.title}
              {e.hint && <span className="ml-auto text-[10px] text-zinc-500">{e.hint}</span>}
            </div>
          ))}
          {hits.length === 0 && <div className="px-3 py-1 text-xs text-zinc-500">No match</div>}
        </div>
      </div>
    </div>
  );
}
