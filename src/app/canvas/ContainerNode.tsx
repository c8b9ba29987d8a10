// A state container on the canvas (docs/reference-system.md §5.1): dashed violet box, database icon, label, one
// row per slot with reducer badge, lifetime badge (hidden for forever, hint tooltip), value type and
// a live value line that live runs fill in later. Top target / bottom source handles named "state".
// Zoomed far out it is one box with the label (ContainerBox.tsx), like a graph node.
import { memo, use } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { Database } from 'lucide-react';
import { CONTAINER_HANDLE } from '../../domain/graph/graph.ops.ts';
import { GRAPH_STATE_ID } from '../../domain/graph/graph.schema.ts';
import { selectContainer, useEditor } from '../store/editor.store.ts';
import { issueMark } from '../store/derived.ts';
import { issueOutlineClass } from './issueOutline.ts';
import { lifetimeBadge, lifetimeHint, reducerBadge } from '../ui/stateStyles.ts';
import { LiveSlotValue } from '../run/LiveSlotValue.tsx';
import { useRun } from '../run/run.store.ts';
import { SlotBreakpointDot } from '../debug/SlotBreakpointDot.tsx';
import type { FlowNode } from './flowMapping.ts';
import { sameNodeView } from './nodeMemo.ts';
import { ContainerDropTarget } from './ContainerDropTarget.tsx';
import { ContainerBox } from './ContainerBox.tsx';
import { containerLabel } from './containerBox.ts';
import { LowDetailContext } from './detail.ts';
import { useRemeasureOnChange } from './useRemeasure.ts';

function ContainerNodeView({ id: flowId, data, selected }: NodeProps<FlowNode>) {
  const id = data.defId;
  const box = use(LowDetailContext);
  const c = useEditor((s) => selectContainer(s, id));
  const mark = useEditor((s) => issueMark(s, id));
  // The slot a breakpoint hit is paused on (highlighted until the run goes on).
  const hitSlot = useRun((s) => (s.breakpointHit?.container === id ? (s.breakpointHit.slot ?? null) : null));
  // Between box and full body the handles are other elements.
  useRemeasureOnChange(flowId, box ? 'box' : 'full');
  if (!c) return null;
  const slots = Object.entries(c.states);
  const label = containerLabel(id, c.label);
  // Hover relations arrive as data-related (useDelegatedHover.ts); CSS colours a plain border.
  const border = selected ? 'border-violet-400' : 'sw-plain-container border-violet-500/40';
  const issueOutline = issueOutlineClass(mark);
  if (box)
    return (
      <ContainerBox
        flowId={flowId}
        containerId={id}
        label={label}
        slots={slots.length}
        className={`${border} ${issueOutline}`}
        mark={mark}
      />
    );
  return (
    <div
      data-testid={`container-${id}`}
      data-lod="full"
      data-related="false"
      data-issue={mark ?? ''}
      className={`relative min-w-[180px] rounded-lg border-2 border-dashed bg-zinc-900/90 text-[11px] ${border} ${issueOutline}`}
    >
      <Handle
        type="target"
        position={Position.Top}
        id={CONTAINER_HANDLE}
        className="!h-3 !w-3 !border-zinc-900 !bg-violet-500"
        title="drop a node's state handle here to grant access"
      />
      <div
        data-testid={`container-title-${id}`}
        className="flex items-center gap-1.5 border-b border-violet-500/20 px-2 py-1"
      >
        <Database size={12} className={id === GRAPH_STATE_ID ? 'text-amber-400' : 'text-violet-400'} />
        <span className="font-semibold text-violet-300">{label}</span>
        <span className="ml-auto text-[10px] text-zinc-500">{id}</span>
      </div>
      <div className="px-2 py-1">
        {slots.length === 0 && <div className="italic text-zinc-500">No states defined</div>}
        {slots.map(([name, st]) => (
          <div
            key={name}
            data-testid={`slot-row-${id}-${name}`}
            data-hit={hitSlot === name ? 'true' : 'false'}
            className={`py-0.5 ${hitSlot === name ? '-mx-1 rounded bg-amber-500/20 px-1 ring-1 ring-amber-400' : ''}`}
          >
            <div className="flex items-center gap-1">
              <SlotBreakpointDot container={id} slot={name} />
              <span className="text-zinc-200">{name}</span>
              <span
                data-testid="reducer-badge"
                className={`rounded px-1 text-[9px] ${reducerBadge(st.type)}`}
              >
                {st.type}
              </span>
              {st.lifetime !== 'forever' && (
                <span
                  data-testid="lifetime-badge"
                  title={lifetimeHint(st.lifetime, st.reset_on)}
                  className={`rounded px-1 text-[9px] ${lifetimeBadge(st.lifetime)}`}
                >
                  {st.lifetime}
                </span>
              )}
              <span className="ml-auto text-[10px] text-gray-500">{st.value_type}</span>
            </div>
            {/* The live value takes the box's width and never sets it (w-0 min-w-full): the box is
                as wide as its label and slot rows, the same at every step (the value's tooltip and
                the value viewer show it whole). */}
            <div
              data-testid={`slot-live-${id}-${name}`}
              className="w-0 min-w-full truncate pl-2.5 font-mono text-[10px] text-zinc-500"
            >
              <LiveSlotValue containerId={id} slot={name} />
            </div>
          </div>
        ))}
      </div>
      <Handle
        type="source"
        position={Position.Bottom}
        id={CONTAINER_HANDLE}
        className="!h-3 !w-3 !border-zinc-900 !bg-violet-500"
        title="drag onto a node to grant it access"
      />
      <ContainerDropTarget containerId={id} />
    </div>
  );
}

export const ContainerNode = memo(ContainerNodeView, sameNodeView);
