// State panel: every container of the current level with its slots (Owner | Name | Type | Lifetime
// | Value Type | Value), then the containers node services own (read-only, indigo owner tag), then
// any other container a run reports. Values are filled by live runs; until then "—".
import { Database } from 'lucide-react';
import { GRAPH_STATE_ID } from '../../../domain/graph/graph.schema.ts';
import { addContainer } from '../../../domain/graph/graph.ops.ts';
import { currentLevel, editorStore, useEditor } from '../../store/editor.store.ts';
import { Button } from '../../ui/Button.tsx';
import { lifetimeHint, reducerBadge } from '../../ui/stateStyles.ts';
import { LiveOnlyContainers } from '../../run/LiveOnlyContainers.tsx';
import { LiveSlotValue } from '../../run/LiveSlotValue.tsx';
import { useRun } from '../../run/run.store.ts';
import { SlotBreakpointDot } from '../../debug/SlotBreakpointDot.tsx';
import { PlotSlotButton } from '../../episodes/PlotSlotButton.tsx';
import { useServiceContainers } from '../../services/serviceContainers.ts';
import { ServiceOwnedContainers } from './ServiceOwnedContainers.tsx';
import { FeaturesGroup } from '../../routing/RunRouting.tsx';

const PILL: Record<string, string> = {
  forever: 'text-violet-400 bg-violet-500/10',
  step: 'text-gray-400 bg-gray-500/10',
  episode: 'text-emerald-400 bg-emerald-500/10',
  run: 'text-cyan-400 bg-cyan-500/10',
  custom: 'text-pink-400 bg-pink-500/10',
};

export function StatePanel() {
  const containers = useEditor((s) => currentLevel(s).containers);
  const hasGraphState = containers.some((c) => c.id === GRAPH_STATE_ID);
  const owned = useServiceContainers();
  const hit = useRun((s) => s.breakpointHit);
  return (
    <div className="p-1 text-xs" data-testid="state-panel">
      {containers.length === 0 && <div className="p-1 text-zinc-500">No containers in this graph.</div>}
      {!hasGraphState && (
        <Button
          className="m-1"
          onClick={() =>
            editorStore.getState().edit((g) =>
              addContainer(g, {
                id: GRAPH_STATE_ID,
                label: 'Graph State',
                position: { x: 0, y: 0 },
                states: {},
              }),
            )
          }
        >
          Add Graph State
        </Button>
      )}
      {containers.map((c) => (
        <div key={c.id} className="mb-2">
          <button
            type="button"
            className="flex items-center gap-1 px-1 text-left hover:underline"
            onClick={() => editorStore.getState().focus([c.id])}
          >
            <Database size={11} className={c.id === GRAPH_STATE_ID ? 'text-amber-400' : 'text-indigo-400'} />
            <span className="font-semibold text-zinc-200">{c.label || c.id}</span>
            <span className="text-zinc-500">{Object.keys(c.states).length} states · home</span>
          </button>
          {/* An empty container is its title line alone: no table of column names without rows. */}
          {Object.keys(c.states).length > 0 && (
            <table className="mt-0.5 w-full table-fixed">
              <thead>
                <tr className="text-left text-[10px] text-zinc-500">
                  {/* Fixed narrow columns so the live value (and its "cleared by" badge) gets the rest. */}
                  <th className="w-12 px-1 font-normal">Owner</th>
                  <th className="w-[18%] px-1 font-normal">Name</th>
                  <th className="w-20 px-1 font-normal">Type</th>
                  <th className="w-20 px-1 font-normal">Lifetime</th>
                  <th className="w-24 px-1 font-normal">Value Type</th>
                  <th className="px-1 font-normal">Value</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(c.states).map(([name, st]) => (
                  <tr
                    key={name}
                    data-testid={`state-row-${c.id}-${name}`}
                    data-hit={hit?.container === c.id && hit.slot === name ? 'true' : 'false'}
                    className={`border-t border-zinc-800/60 ${hit?.container === c.id && hit.slot === name ? 'bg-amber-500/15' : ''}`}
                  >
                    <td className="px-1">
                      <span
                        className="rounded bg-amber-500/10 px-1 text-amber-300"
                        title="graph / executor process"
                      >
                        home
                      </span>
                    </td>
                    <td className="truncate px-1 text-zinc-200" title={name}>
                      <span className="inline-flex items-center gap-1">
                        <SlotBreakpointDot container={c.id} slot={name} />
                        {name}
                        <PlotSlotButton container={c.id} slot={name} />
                      </span>
                    </td>
                    <td className="px-1">
                      <span className={`rounded px-1 text-[10px] ${reducerBadge(st.type)}`}>{st.type}</span>
                    </td>
                    <td className="px-1">
                      <span
                        title={lifetimeHint(st.lifetime, st.reset_on)}
                        className={`rounded px-1 text-[10px] ${PILL[st.lifetime] ?? PILL.forever}`}
                      >
                        {st.lifetime}
                      </span>
                    </td>
                    <td className="truncate px-1 text-zinc-400" title={st.value_type}>
                      {st.value_type}
                    </td>
                    <td className="px-1 font-mono text-[11px] text-zinc-500">
                      <LiveSlotValue containerId={c.id} slot={name} placeholder="—" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ))}
      <FeaturesGroup />
      <ServiceOwnedContainers containers={owned} />
      <LiveOnlyContainers known={[...containers.map((c) => c.id), ...owned.map((c) => c.id)]} />
    </div>
  );
}
