// One entry of the node library: drag onto the canvas, or double-click / Enter to add it at the
// centre of the view. Shared by the category groups and the Services section.
import type { DragEvent, ReactNode } from 'react';
import { addAtViewCentre, CONTAINER_ENTRY } from '../../store/actions.ts';
import { editorStore } from '../../store/editor.store.ts';
import { NODE_DRAG_MIME } from '../../ui/dragMime.ts';

export interface LibraryEntry {
  type: string;
  name: string;
  category: string;
  description: string;
}

function onDragStart(e: DragEvent<HTMLElement>) {
  const type = e.currentTarget.dataset.type;
  if (!type) return;
  e.dataTransfer.setData(NODE_DRAG_MIME, type);
  e.dataTransfer.effectAllowed = 'copy';
}

function addAtCentre(type: string) {
  const s = editorStore.getState();
  const r = addAtViewCentre(type);
  if (!r.ok) s.showToast(r.reason, 'error');
  else if (r.ids && type !== CONTAINER_ENTRY)
    s.setSelection({ nodes: r.ids.slice(0, 1), containers: [], edges: [], grants: [] });
  else if (r.ids) s.setSelection({ nodes: [], containers: r.ids, edges: [], grants: [] });
}

export function LibraryItem({ entry, icon }: { entry: LibraryEntry; icon: ReactNode }) {
  return (
    <div
      data-testid={`library-item-${entry.type}`}
      data-type={entry.type}
      draggable
      tabIndex={0}
      onDragStart={onDragStart}
      onDoubleClick={() => addAtCentre(entry.type)}
      onKeyDown={(ev) => {
        if (ev.key === 'Enter') addAtCentre(entry.type);
      }}
      title={`${entry.type}: ${entry.description}`}
      className="flex cursor-grab items-center gap-1.5 rounded px-1.5 py-0.5 text-xs text-zinc-300 hover:bg-zinc-800 focus:bg-zinc-800 focus:outline-none"
    >
      {icon}
      <span className="truncate">{entry.name}</span>
    </div>
  );
}
