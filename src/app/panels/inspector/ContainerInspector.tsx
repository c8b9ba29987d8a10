// Inspector for a state container: id, label, its grants, and the slot list with an "Add slot" row.
import { useState } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import { removeElements, renameNodeId, updateContainer } from '../../../domain/graph/graph.ops.ts';
import { addSlotTo, nextSlotName } from '../../store/actions.ts';
import { currentLevel, editorStore, selectContainer, useEditor } from '../../store/editor.store.ts';
import { defaultSlot } from '../../store/ops/slot.ops.ts';
import { Button } from '../../ui/Button.tsx';
import { CommitInput } from '../../ui/CommitInput.tsx';
import { Field } from '../../ui/Field.tsx';
import { SlotEditor } from './SlotEditor.tsx';
import { useShallow } from 'zustand/react/shallow';

const reasonOf = (r: { ok: boolean; reason?: string }) => (r.ok ? null : (r as { reason: string }).reason);

export function ContainerInspector({ id }: { id: string }) {
  const c = useEditor((s) => selectContainer(s, id));
  const grants = useEditor(
    useShallow((s) => currentLevel(s).access_grants.filter((g) => g.container_id === id)),
  );
  const [addError, setAddError] = useState<string | null>(null);
  if (!c) return null;
  const names = Object.keys(c.states);
  const edit = editorStore.getState().edit;
  return (
    <div data-testid="container-inspector">
      <div className="mb-2 text-[10px] font-semibold tracking-wider text-violet-400 uppercase">
        State container
      </div>
      <Field label="id">
        <CommitInput
          testId="container-id"
          value={c.id}
          onCommit={(v) => {
            const r = edit((g) => renameNodeId(g, id, v.trim()));
            if (r.ok)
              editorStore
                .getState()
                .setSelection({ nodes: [], containers: [v.trim()], edges: [], grants: [] });
            return reasonOf(r);
          }}
        />
      </Field>
      <Field label="label">
        <CommitInput
          testId="container-label"
          value={c.label}
          onCommit={(v) => reasonOf(edit((g) => updateContainer(g, id, (x) => ({ ...x, label: v }))))}
        />
      </Field>
      <div className="mt-2 mb-1 flex items-center text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">
        Slots ({names.length})
        <Button
          className="ml-auto"
          data-testid="add-slot"
          onClick={() => {
            const r = addSlotTo(id, nextSlotName(names), defaultSlot());
            setAddError(reasonOf(r));
          }}
        >
          <Plus size={11} /> Add slot
        </Button>
      </div>
      {addError && <div className="text-[10px] text-red-400">{addError}</div>}
      {names.length === 0 && <div className="text-xs text-zinc-500 italic">No states defined</div>}
      {Object.entries(c.states).map(([name, def], i) => (
        <SlotEditor key={name} containerId={id} name={name} def={def} index={i} count={names.length} />
      ))}
      <div className="mt-2 mb-1 text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">
        Granted to ({grants.length})
      </div>
      {grants.map((g) => (
        <div
          key={g.id}
          className="flex items-center gap-1 text-xs text-zinc-300"
          data-testid={`grant-row-${g.id}`}
        >
          <span className="truncate">{g.node_id}</span>
          <span className="truncate text-[10px] text-zinc-600">{g.id}</span>
          <button
            type="button"
            title="Remove grant"
            className="ml-auto text-zinc-500 hover:text-red-400"
            onClick={() => edit((gr) => removeElements(gr, { grants: [g.id] }))}
          >
            <Trash2 size={11} />
          </button>
        </div>
      ))}
    </div>
  );
}
