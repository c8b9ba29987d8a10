// Containers owned by the node services this graph uses, in a column docked at the canvas's right
// edge while the State view is on: read-only boxes in the container style, owner tag = the service
// name, live values. Deliberately not flow nodes: they are not part of the graph document, so they
// must never be selected, dragged, deleted, copied, laid out or saved with it. Docked beside the
// canvas rather than floating over it, they never cover a node or a container box; collapsed, the
// column is a narrow rail that gives the canvas its room back.
import { useState } from 'react';
import { ChevronLeft, ChevronRight, Database } from 'lucide-react';
import { activeTab } from '../store/doc.slice.ts';
import { useEditor } from '../store/editor.store.ts';
import { LiveSlotValue } from '../run/LiveSlotValue.tsx';
import { useServiceContainers, type OwnedContainer } from '../services/serviceContainers.ts';
import { lifetimeBadge, lifetimeHint, ownerHint, ownerTag, reducerBadge } from '../ui/stateStyles.ts';

function Box({ c }: { c: OwnedContainer }) {
  return (
    <div
      data-testid={`canvas-service-container-${c.id}`}
      data-owner={c.service}
      className="mb-1.5 rounded-lg border-2 border-dashed border-indigo-500/40 bg-zinc-900/95 text-[11px]"
    >
      <div className="flex items-center gap-1.5 border-b border-indigo-500/20 px-2 py-1">
        <Database size={12} className="text-indigo-400" />
        <span className="truncate font-semibold text-indigo-300">{c.label}</span>
        <span
          className={`ml-auto shrink-0 rounded px-1 text-[9px] ${ownerTag(c.service)}`}
          title={`${ownerHint(c.service)}: read-only here`}
        >
          {c.service}
        </span>
      </div>
      <div className="px-2 py-1">
        {c.slots.length === 0 && <div className="text-zinc-500 italic">No states declared</div>}
        {c.slots.map((st) => (
          <div key={st.name} className="py-0.5">
            {/* A long slot name wraps the badges to the next line rather than being cut. */}
            <div className="flex flex-wrap items-center gap-x-1">
              <span className="h-1.5 w-1.5 shrink-0 rounded-full bg-indigo-400" />
              <span className="min-w-0 break-all text-zinc-200">{st.name}</span>
              <span className={`rounded px-1 text-[9px] ${reducerBadge(st.type)}`}>{st.type}</span>
              {st.lifetime !== 'forever' && (
                <span
                  title={lifetimeHint(st.lifetime)}
                  className={`rounded px-1 text-[9px] ${lifetimeBadge(st.lifetime)}`}
                >
                  {st.lifetime}
                </span>
              )}
              <span className="ml-auto text-[10px] text-gray-500">{st.value_type}</span>
            </div>
            <div className="w-0 min-w-full truncate pl-2.5 font-mono text-[10px] text-zinc-500">
              <LiveSlotValue containerId={c.id} slot={st.name} />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

export function ServiceContainersPanel() {
  const containers = useServiceContainers();
  const stateVisible = useEditor((s) => activeTab(s)?.stateVisible ?? false);
  const [open, setOpen] = useState(true);
  if (!stateVisible || containers.length === 0) return null;
  const title = 'Containers owned by node services (read-only; not part of this graph)';
  if (!open)
    return (
      <aside
        data-testid="canvas-service-containers"
        data-open="false"
        className="flex w-6 shrink-0 flex-col items-center border-l border-zinc-800 bg-zinc-925 pt-1"
      >
        <button
          type="button"
          onClick={() => setOpen(true)}
          title={`${title}: show`}
          aria-expanded={false}
          className="flex flex-col items-center gap-1 rounded px-0.5 py-1 text-[10px] text-zinc-400 hover:bg-zinc-800 hover:text-zinc-200"
        >
          <ChevronLeft size={12} />
          <Database size={12} className="text-indigo-400" />
          {containers.length}
        </button>
      </aside>
    );
  return (
    <aside
      data-testid="canvas-service-containers"
      data-open="true"
      className="flex w-[236px] shrink-0 flex-col border-l border-zinc-800 bg-zinc-925"
    >
      <button
        type="button"
        onClick={() => setOpen(false)}
        title={`${title}: hide`}
        aria-expanded={true}
        className="flex shrink-0 items-center gap-1 px-2 py-1 text-[10px] tracking-wide text-zinc-400 uppercase hover:text-zinc-200"
      >
        Service state ({containers.length})
        <ChevronRight size={12} className="ml-auto" />
      </button>
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
        {containers.map((c) => (
          <Box key={c.id} c={c} />
        ))}
      </div>
    </aside>
  );
}
