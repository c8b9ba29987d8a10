// Containers owned by the node services this graph uses, drawn over the canvas (top right) while the
// State view is on: read-only boxes in the container style, owner tag = the service name, live values.
// Deliberately not flow nodes: they are not part of the graph document, so they must never be
// selected, dragged, deleted, copied, laid out or saved with it; a fixed overlay cannot be.
import { useState } from 'react';
import { Panel } from '@xyflow/react';
import { ChevronDown, ChevronRight, Database } from 'lucide-react';
import { LiveSlotValue } from '../run/LiveSlotValue.tsx';
import { useServiceContainers, type OwnedContainer } from '../services/serviceContainers.ts';
import { lifetimeBadge, lifetimeHint, ownerHint, ownerTag, reducerBadge } from '../ui/stateStyles.ts';

function Box({ c }: { c: OwnedContainer }) {
  return (
    <div
      data-testid={`canvas-service-container-${c.id}`}
      data-owner={c.service}
      className="mb-1.5 w-[220px] rounded-lg border-2 border-dashed border-indigo-500/40 bg-zinc-900/95 text-[11px]"
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
            <div className="flex items-center gap-1">
              <span className="h-1.5 w-1.5 rounded-full bg-indigo-400" />
              <span className="truncate text-zinc-200">{st.name}</span>
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
            <div className="truncate pl-2.5 font-mono text-[10px] text-zinc-500">
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
  const [open, setOpen] = useState(true);
  if (containers.length === 0) return null;
  return (
    <Panel position="top-right" className="!m-2">
      <div data-testid="canvas-service-containers" className="max-h-[60vh] overflow-y-auto">
        <button
          type="button"
          onClick={() => setOpen(!open)}
          className="mb-1 flex w-full items-center gap-1 rounded bg-zinc-900/90 px-1.5 py-0.5 text-[10px] tracking-wide text-zinc-400 uppercase hover:text-zinc-200"
          title="Containers owned by node services (read-only; not part of this graph)"
        >
          {open ? <ChevronDown size={11} /> : <ChevronRight size={11} />}
          Service state ({containers.length})
        </button>
        {open && containers.map((c) => <Box key={c.id} c={c} />)}
      </div>
    </Panel>
  );
}
