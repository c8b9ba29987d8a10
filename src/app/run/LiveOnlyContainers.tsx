// State panel extension: containers a run reports that the edited level does not declare (nodeset-
// owned containers, containers of flattened composites), read-only, with their live values
// (docs/reference-system.md §5.4 "Other containers"). Unlike the reference, lifetime is known (the snapshot has it).
import { Database } from 'lucide-react';
import { useEditor } from '../store/editor.store.ts';
import { lifetimeHint, ownerHint, ownerTag, reducerBadge } from '../ui/stateStyles.ts';
import { LiveSlotValue } from './LiveSlotValue.tsx';
import { useRun, viewContainers } from './run.store.ts';

export function LiveOnlyContainers({ known }: { known: readonly string[] }) {
  const runTab = useRun((s) => s.tabId);
  const activeTabId = useEditor((s) => s.activeTabId);
  const shown = runTab === null || runTab === activeTabId;
  // A string key keeps this component from re-rendering on every step when the set is unchanged.
  const ids = useRun((s) =>
    shown
      ? Object.keys(viewContainers(s))
          .filter((id) => !known.includes(id))
          .join('\n')
      : '',
  );
  if (!ids) return null;
  return (
    <>
      {ids.split('\n').map((cid) => (
        <LiveOnlyContainer key={cid} cid={cid} />
      ))}
    </>
  );
}

function LiveOnlyContainer({ cid }: { cid: string }) {
  const header = useRun((s) => {
    const c = viewContainers(s)[cid];
    return c ? `${c.label}\n${c.owner}\n${Object.keys(c.states).join(',')}` : '';
  });
  const rows = useRun((s) => {
    const c = viewContainers(s)[cid];
    return c
      ? Object.entries(c.states)
          .map(([slot, st]) => `${slot}\n${st.type}\n${st.lifetime}\n${st.value_type}`)
          .join('\u0000')
      : '';
  });
  if (!header) return null;
  const [label = cid, owner = 'home', slotList = ''] = header.split('\n');
  return (
    <div className="mb-2" data-testid={`live-container-${cid}`}>
      <div className="flex items-center gap-1 px-1">
        <Database size={11} className="text-indigo-400" />
        <span className="font-semibold text-zinc-200">{label || cid}</span>
        <span className="text-zinc-500">
          {slotList ? slotList.split(',').length : 0} states · {owner} · live only
        </span>
      </div>
      <table className="mt-0.5 w-full table-fixed">
        <tbody>
          {rows
            .split('\u0000')
            .filter(Boolean)
            .map((row) => {
              const [slot = '', type = '', lifetime = '', valueType = ''] = row.split('\n');
              return (
                <tr key={slot} className="border-t border-zinc-800/60">
                  <td className="w-16 px-1">
                    <span
                      data-testid="owner-tag"
                      className={`rounded px-1 ${ownerTag(owner)}`}
                      title={ownerHint(owner)}
                    >
                      {owner}
                    </span>
                  </td>
                  <td className="truncate px-1 text-zinc-200">{slot}</td>
                  <td className="px-1">
                    <span className={`rounded px-1 text-[10px] ${reducerBadge(type)}`}>{type}</span>
                  </td>
                  <td className="px-1 text-[10px] text-zinc-400" title={lifetimeHint(lifetime)}>
                    {lifetime}
                  </td>
                  <td className="px-1 text-zinc-400">{valueType}</td>
                  <td className="px-1 font-mono text-[11px]">
                    <LiveSlotValue containerId={cid} slot={slot} placeholder="—" />
                  </td>
                </tr>
              );
            })}
        </tbody>
      </table>
    </div>
  );
}
