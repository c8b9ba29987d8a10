// Editor for one slot of a container: name, reducer (with a one-line explanation), value type
// (registry suggestions with descriptions; unknown and removed types refused as you type), lifetime
// + reset_on, initial_value (JSON), max_size (accumulator) and fields (byKey). Each change is one
// undo step via editContainer.
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { FIELD_REDUCERS, LIFETIMES, REDUCERS, type StateDef } from '../../../domain/graph/graph.schema.ts';
import { useShallow } from 'zustand/react/shallow';
import { editContainer } from '../../store/actions.ts';
import { issuesOf } from '../../store/derived.ts';
import { useEditor } from '../../store/editor.store.ts';
import * as slots from '../../store/ops/slot.ops.ts';
import { CommitInput } from '../../ui/CommitInput.tsx';
import { Field, selectCls } from '../../ui/Field.tsx';
import { lifetimeHint, REDUCER_HELP } from '../../ui/stateStyles.ts';
import { ValueTypeInput } from './ValueTypeInput.tsx';

const reasonOf = (r: { ok: boolean; reason?: string }) => (r.ok ? null : (r as { reason: string }).reason);

export function SlotEditor({
  containerId,
  name,
  def,
  index,
  count,
}: {
  containerId: string;
  name: string;
  def: StateDef;
  index: number;
  count: number;
}) {
  const edit = (fn: Parameters<typeof editContainer>[1]) => reasonOf(editContainer(containerId, fn));
  const initialText = def.config.initial_value === undefined ? '' : JSON.stringify(def.config.initial_value);
  const fields = (def.config.fields ?? {}) as Record<string, string>;
  const tid = `slot-${name}`;
  return (
    <div
      data-testid={`slot-editor-${name}`}
      className="mb-2 rounded border border-zinc-800 bg-zinc-900/60 p-1.5"
    >
      <SlotIssues containerId={containerId} name={name} />
      <div className="mb-1 flex items-center gap-1">
        <CommitInput
          testId={`${tid}-name`}
          value={name}
          aria-label="slot name"
          onCommit={(v) => edit((c) => slots.renameSlot(c, name, v))}
        />
        <button
          type="button"
          title="Move up"
          disabled={index === 0}
          className="text-zinc-500 hover:text-zinc-200 disabled:opacity-30"
          onClick={() => edit((c) => slots.moveSlot(c, name, -1))}
        >
          <ArrowUp size={12} />
        </button>
        <button
          type="button"
          title="Move down"
          disabled={index === count - 1}
          className="text-zinc-500 hover:text-zinc-200 disabled:opacity-30"
          onClick={() => edit((c) => slots.moveSlot(c, name, 1))}
        >
          <ArrowDown size={12} />
        </button>
        <button
          type="button"
          data-testid={`${tid}-delete`}
          title="Delete slot"
          className="text-zinc-500 hover:text-red-400"
          onClick={() => edit((c) => slots.removeSlot(c, name))}
        >
          <Trash2 size={12} />
        </button>
      </div>
      <Field label="reducer">
        <select
          data-testid={`${tid}-reducer`}
          className={selectCls}
          value={def.type}
          onChange={(e) => edit((c) => slots.updateSlot(c, name, { type: e.target.value }))}
        >
          {!(REDUCERS as readonly string[]).includes(def.type) && (
            <option value={def.type}>{def.type} (unknown)</option>
          )}
          {REDUCERS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </Field>
      <div className="mb-1 pl-[88px] text-[10px] text-zinc-500" data-testid={`${tid}-reducer-help`}>
        {REDUCER_HELP[def.type] ?? 'unknown reducer: a run treats it as lastWrite'}
      </div>
      <Field label="value type">
        <ValueTypeInput
          testId={`${tid}-value-type`}
          value={def.value_type}
          onCommit={(v) => edit((c) => slots.updateSlot(c, name, { value_type: v }))}
        />
      </Field>
      <Field label="lifetime" hint={lifetimeHint(def.lifetime, def.reset_on)}>
        <select
          data-testid={`${tid}-lifetime`}
          className={selectCls}
          value={def.lifetime}
          onChange={(e) => edit((c) => slots.updateSlot(c, name, { lifetime: e.target.value }))}
        >
          {!(LIFETIMES as readonly string[]).includes(def.lifetime) && (
            <option value={def.lifetime}>{def.lifetime} (unknown)</option>
          )}
          {LIFETIMES.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
        <span className="truncate text-[10px] text-zinc-500">{lifetimeHint(def.lifetime, def.reset_on)}</span>
      </Field>
      {(def.lifetime === 'custom' || def.reset_on.length > 0) && (
        <Field label="reset_on" hint="signal names, comma separated">
          <CommitInput
            testId={`${tid}-reset-on`}
            value={def.reset_on.join(', ')}
            placeholder="my_signal, other_signal"
            onCommit={(v) =>
              edit((c) =>
                slots.updateSlot(c, name, {
                  reset_on: v
                    .split(',')
                    .map((x) => x.trim())
                    .filter(Boolean),
                }),
              )
            }
          />
        </Field>
      )}
      <Field label="initial">
        <CommitInput
          testId={`${tid}-initial`}
          value={initialText}
          placeholder="JSON, e.g. [] or {} or 0"
          onCommit={(v) => {
            const p = slots.parseInitialValue(v);
            if (!p.ok) return p.reason;
            return edit((c) => slots.setSlotConfig(c, name, 'initial_value', p.value));
          }}
        />
      </Field>
      {def.type === 'accumulator' && (
        <Field label="max_size">
          <CommitInput
            testId={`${tid}-max-size`}
            value={def.config.max_size === undefined ? '' : String(def.config.max_size)}
            placeholder="unlimited"
            onCommit={(v) =>
              edit((c) => slots.setSlotConfig(c, name, 'max_size', v.trim() === '' ? undefined : Number(v)))
            }
          />
        </Field>
      )}
      {def.type === 'byKey' && (
        <div className="mt-1">
          <div className="mb-0.5 text-[10px] text-zinc-500">fields (per-field reducer)</div>
          {Object.entries(fields).map(([f, r]) => (
            <div key={f} className="mb-0.5 flex items-center gap-1 text-xs">
              <span className="w-24 truncate text-zinc-300">{f}</span>
              <select
                className={selectCls}
                value={r}
                onChange={(e) =>
                  edit((c) => slots.setSlotConfig(c, name, 'fields', { ...fields, [f]: e.target.value }))
                }
              >
                {FIELD_REDUCERS.map((x) => (
                  <option key={x}>{x}</option>
                ))}
              </select>
              <button
                type="button"
                className="text-zinc-500 hover:text-red-400"
                title="Remove field"
                onClick={() => {
                  const next = { ...fields };
                  delete next[f];
                  edit((c) =>
                    slots.setSlotConfig(c, name, 'fields', Object.keys(next).length ? next : undefined),
                  );
                }}
              >
                <Trash2 size={11} />
              </button>
            </div>
          ))}
          <CommitInput
            testId={`${tid}-add-field`}
            value=""
            clearOnCommit
            placeholder="add field name + Enter"
            onCommit={(v) => {
              const f = v.trim();
              if (!f) return 'field name must not be empty';
              if (f in fields) return `field "${f}" already exists`;
              return edit((c) => slots.setSlotConfig(c, name, 'fields', { ...fields, [f]: 'lastWrite' }));
            }}
          />
        </div>
      )}
    </div>
  );
}

/** How each severity looks in place: only errors are red (an info note must not look like a fault). */
const SEVERITY_STYLE = {
  error: 'bg-red-950/60 text-red-300',
  warning: 'bg-amber-950/50 text-amber-300',
  info: 'bg-sky-950/50 text-sky-300',
} as const;

/** Validation issues about this slot (removed value type, unknown reducer, …), shown in place. */
function SlotIssues({ containerId, name }: { containerId: string; name: string }) {
  const issues = useEditor(
    useShallow((s) => issuesOf(s).all.filter((i) => i.containerId === containerId && i.slot === name)),
  );
  if (issues.length === 0) return null;
  return (
    <div data-testid={`slot-${name}-issues`} className="mb-1 space-y-0.5">
      {issues.map((i, k) => (
        <div
          key={k}
          data-severity={i.severity}
          className={`rounded px-1.5 py-0.5 text-[10px] leading-snug ${SEVERITY_STYLE[i.severity]}`}
        >
          {i.message}
        </div>
      ))}
    </div>
  );
}
