// State panel: the containers node services own (manifest `containers` of the services this graph
// uses), read-only, owner tag = the service name (indigo), with live values from nav_step. They are
// listed before a run too, so a user sees what a service keeps; they are never part of the graph.
import { Database } from 'lucide-react';
import { LiveSlotValue } from '../../run/LiveSlotValue.tsx';
import type { OwnedContainer } from '../../services/serviceContainers.ts';
import { lifetimeHint, ownerHint, ownerTag, reducerBadge } from '../../ui/stateStyles.ts';

export function ServiceOwnedContainers({ containers }: { containers: readonly OwnedContainer[] }) {
  return (
    <>
      {containers.map((c) => (
        <div key={c.id} className="mb-2" data-testid={`service-container-${c.id}`} data-owner={c.service}>
          <div className="flex items-center gap-1 px-1">
            <Database size={11} className="text-indigo-400" />
            <span className="font-semibold text-zinc-200">{c.label}</span>
            <span className="text-zinc-500">
              {c.slots.length} states · {c.service} · read-only
            </span>
          </div>
          <table className="mt-0.5 w-full table-fixed">
            <tbody>
              {c.slots.map((st) => (
                <tr key={st.name} className="border-t border-zinc-800/60">
                  <td className="w-20 px-1">
                    <span
                      data-testid="owner-tag"
                      className={`inline-block max-w-full truncate rounded px-1 align-bottom ${ownerTag(c.service)}`}
                      title={`${c.service}: ${ownerHint(c.service)}`}
                    >
                      {c.service}
                    </span>
                  </td>
                  <td className="w-[18%] truncate px-1 text-zinc-200" title={st.name}>
                    {st.name}
                  </td>
                  <td className="w-20 px-1">
                    <span className={`rounded px-1 text-[10px] ${reducerBadge(st.type)}`}>{st.type}</span>
                  </td>
                  <td className="w-20 px-1 text-[10px] text-zinc-400" title={lifetimeHint(st.lifetime)}>
                    {st.lifetime}
                  </td>
                  <td className="w-24 truncate px-1 text-zinc-400" title={st.value_type}>
                    {st.value_type}
                  </td>
                  <td className="px-1 font-mono text-[11px] text-zinc-500">
                    <LiveSlotValue containerId={c.id} slot={st.name} placeholder="—" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </>
  );
}
