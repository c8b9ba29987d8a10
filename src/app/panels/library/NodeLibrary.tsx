// Node library: the catalog grouped by category with a search box, plus the "State container"
// entry (which the reference lost once server schemas loaded, docs/reference-system.md §8.2 item 10), and node-service types under
// "Services › <name>" with each service's health. Drag onto the canvas, or double-click / Enter to
// add at the centre of the view.
import { useMemo, useState } from 'react';
import { Database } from 'lucide-react';
import { serviceOfCategory } from '../../../domain/services/manifest.ts';
import { CONTAINER_ENTRY } from '../../store/actions.ts';
import { useEditor } from '../../store/editor.store.ts';
import { LibraryItem, type LibraryEntry as Entry } from './LibraryItem.tsx';
import { ServicesSection } from './ServicesSection.tsx';

const CATEGORY_ORDER = ['state', 'control', 'llm', 'processing', 'environment', 'output', 'annotation'];

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
    // Node-service types (category `server:<name>`) are listed under Services, per service.
    for (const e of hits)
      if (serviceOfCategory(e.category) === null) by.set(e.category, [...(by.get(e.category) ?? []), e]);
    return [...by.entries()].sort(
      ([a], [b]) =>
        ((CATEGORY_ORDER.indexOf(a) + 100) % 100) - ((CATEGORY_ORDER.indexOf(b) + 100) % 100) ||
        a.localeCompare(b),
    );
  }, [specs, q]);
  const serviceEntries = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return specs
      .filter((s) => serviceOfCategory(s.category) !== null)
      .map((s) => ({ type: s.type, name: s.display_name, category: s.category, description: s.description }))
      .filter((e) => !needle || `${e.name} ${e.type} ${e.category}`.toLowerCase().includes(needle));
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
              <LibraryItem
                key={e.type}
                entry={e}
                icon={
                  e.type === CONTAINER_ENTRY ? (
                    <Database size={11} className="text-violet-400" />
                  ) : (
                    <span className="h-1.5 w-1.5 rounded-full bg-zinc-500" />
                  )
                }
              />
            ))}
          </div>
        ))}
        <ServicesSection entries={serviceEntries} filtered={q.trim() !== ''} />
      </div>
    </div>
  );
}
