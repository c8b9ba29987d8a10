// The zoomed-out body of a state container (level of detail, detail.ts): ONE dashed box with the
// label, instead of the title bar, the slot rows with their badges, breakpoint dots and live values,
// two <Handle>s and the grant drop target. At this zoom all of that is under three screen pixels.
// The two anchors (top: grants drawn to the container, bottom: grants dragged from it) are NodeBox's
// plain anchor elements with React Flow's handle classes: React Flow measures them like
// handles, and nothing subscribes to its store per container on every frame of a pan.
import { Position } from '@xyflow/react';
import { CONTAINER_HANDLE } from '../../domain/graph/graph.ops.ts';
import { containerBoxHeight } from './containerBox.ts';
import { BoxAnchor } from './NodeBox.tsx';

const ANCHORS = [
  { type: 'target', side: Position.Top },
  { type: 'source', side: Position.Bottom },
] as const;

export function ContainerBox({
  flowId,
  containerId,
  label,
  slots,
  className,
  mark,
}: {
  flowId: string;
  containerId: string;
  label: string;
  slots: number;
  /** Border (selection, hover relation) and issue outline classes, as at full detail. */
  className: string;
  mark: string | undefined;
}) {
  return (
    <div
      data-testid={`container-${containerId}`}
      data-lod="box"
      data-related="false"
      data-issue={mark ?? ''}
      title={label}
      className={`sw-container-box rounded-lg border-2 border-dashed bg-zinc-900 text-violet-300 ${className}`}
      style={{ height: containerBoxHeight(slots) }}
    >
      {label}
      {ANCHORS.map((a) => (
        <BoxAnchor key={a.type} nodeId={flowId} handleId={CONTAINER_HANDLE} type={a.type} side={a.side} />
      ))}
    </div>
  );
}
