// A markdown note (never executes): shown as plain text, no handles.
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import { selectNode, useEditor } from '../store/editor.store.ts';
import type { FlowNode } from './flowMapping.ts';
import { sameNodeView } from './nodeMemo.ts';

function NoteNodeView({ id, selected }: NodeProps<FlowNode>) {
  const node = useEditor((s) => selectNode(s, id));
  if (!node) return null;
  const text = typeof node.config.markdown === 'string' ? node.config.markdown : '';
  return (
    <div
      data-testid={`node-${id}`}
      data-node-type="note"
      className={`max-w-[260px] rounded border bg-yellow-950/60 px-2 py-1 text-[11px] whitespace-pre-wrap text-yellow-100 ${selected ? 'border-sky-400' : 'border-yellow-800'}`}
    >
      {/* One text element, so the canvas can hide it when it would be under 9 screen px (LabelScale.tsx). */}
      {text ? (
        <span className="sw-note-text">{text}</span>
      ) : (
        <span className="italic text-yellow-700">empty note</span>
      )}
    </div>
  );
}

export const NoteNode = memo(NoteNodeView, sameNodeView);
