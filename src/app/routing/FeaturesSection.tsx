// Graph inspector › Features: the level's declared routing features (name, domain, description),
// each editable in place, plus "Add feature". Every accepted change is one store edit (undoable);
// a refused one shows its reason under the form and leaves the graph as it was.
import { useState } from 'react';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import type { FeatureDef } from '../../domain/routing/routing.schema.ts';
import { domainText } from './conditionText.ts';
import { currentLevel, editorStore, useEditor } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import { selectCls } from '../ui/Field.tsx';
import {
  addFeature,
  edgesUsingFeature,
  featureFromFields,
  fieldsOf,
  removeFeature,
  updateFeature,
  type DomainKind,
} from './routing.ops.ts';

const NO_FEATURES: FeatureDef[] = [];
const inputCls =
  'w-full min-w-0 rounded border border-zinc-700 bg-zinc-950 px-1.5 py-0.5 text-xs outline-none focus:border-sky-600';

type Fields = ReturnType<typeof fieldsOf>;
type TextKey = Exclude<keyof Fields, 'kind'>;
const NEW_FIELDS: Fields = { name: '', kind: 'enum', values: '', min: '0', max: '3', description: '' };

function FeatureEditor({
  initial,
  testId,
  onSave,
  onCancel,
}: {
  initial: Fields;
  testId: string;
  onSave: (f: FeatureDef) => string | null;
  onCancel: () => void;
}) {
  const [fields, setFields] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const patch = (p: Partial<Fields>) => {
    setFields((f) => ({ ...f, ...p }));
    setError(null);
  };
  const text = (key: TextKey, cls: string, placeholder?: string, autoFocus?: boolean) => (
    <input
      data-testid={`feature-${key}`}
      className={`${inputCls} ${cls}`}
      placeholder={placeholder}
      value={fields[key]}
      autoFocus={autoFocus}
      onChange={(e) => patch({ [key]: e.target.value })}
    />
  );
  const save = () => {
    const r = featureFromFields(fields);
    const why = r.ok ? onSave(r.feature) : r.reason;
    setError(why);
  };
  return (
    <div
      data-testid={testId}
      className="mb-1 space-y-1 rounded border border-zinc-700 bg-zinc-900 p-1.5"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') save();
        if (e.key === 'Escape') onCancel();
      }}
    >
      <div className="flex gap-1">
        {text('name', 'font-mono', 'name (e.g. phase)', true)}
        <select
          data-testid="feature-kind"
          className={selectCls}
          value={fields.kind}
          onChange={(e) => patch({ kind: e.target.value as DomainKind })}
        >
          <option value="enum">enum</option>
          <option value="bool">bool</option>
          <option value="int">int range</option>
        </select>
      </div>
      {fields.kind === 'enum' &&
        text('values', 'font-mono', 'values, comma separated (explore, exploit, done)')}
      {fields.kind === 'int' && (
        <div className="flex items-center gap-1 text-[11px] text-zinc-500">
          min {text('min', 'w-16 font-mono')}
          max {text('max', 'w-16 font-mono')}
        </div>
      )}
      {text('description', '', 'description (optional)')}
      {error && (
        <div data-testid="feature-error" className="text-[10px] text-red-400">
          {error}
        </div>
      )}
      <div className="flex justify-end gap-1">
        <Button variant="ghost" onClick={onCancel} data-testid="feature-cancel">
          Cancel
        </Button>
        <Button variant="primary" onClick={save} data-testid="feature-save">
          Save
        </Button>
      </div>
    </div>
  );
}

export function FeaturesSection() {
  const features = useEditor((s) => currentLevel(s).features ?? NO_FEATURES);
  /** The feature being edited (its name), '' for a new one, null when none. */
  const [editing, setEditing] = useState<string | null>(null);
  const edit = editorStore.getState().edit;
  const done = (r: { ok: boolean; reason?: string }) => {
    if (r.ok) setEditing(null);
    return r.ok ? null : (r.reason ?? 'refused');
  };
  return (
    <div data-testid="features-section" className="mt-3">
      <div className="mb-1 flex items-center text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">
        Features ({features.length})
        <button
          type="button"
          data-testid="feature-add"
          title="Declare a routing feature: a small piece of graph state edge conditions can read"
          className="ml-auto flex items-center gap-0.5 rounded px-1 text-[10px] font-normal tracking-normal text-sky-400 normal-case hover:bg-zinc-800"
          onClick={() => setEditing('')}
        >
          <Plus size={11} /> Add feature
        </button>
      </div>
      {features.length === 0 && editing !== '' && (
        <div className="text-[11px] text-zinc-500 italic">
          No features. Declare one (e.g. phase ∈ {'{explore, exploit, done}'}) to route edges on it.
        </div>
      )}
      {features.map((f) =>
        editing === f.name ? (
          <FeatureEditor
            key={f.name}
            testId={`feature-editor-${f.name}`}
            initial={fieldsOf(f)}
            onSave={(next) => done(edit((g) => updateFeature(g, f.name, next)))}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <div
            key={f.name}
            data-testid={`feature-row-${f.name}`}
            className="group mb-0.5 rounded px-1 py-0.5 text-xs hover:bg-zinc-800/60"
          >
            <div className="flex items-center gap-1.5">
              <span className="font-mono text-amber-300">{f.name}</span>
              <span
                className="min-w-0 truncate font-mono text-[11px] text-zinc-400"
                title={domainText(f.domain)}
              >
                {domainText(f.domain)}
              </span>
              <button
                type="button"
                title={`Edit ${f.name}`}
                data-testid={`feature-edit-${f.name}`}
                className="ml-auto text-zinc-500 hover:text-sky-400"
                onClick={() => setEditing(f.name)}
              >
                <Pencil size={11} />
              </button>
              <button
                type="button"
                title={`Remove ${f.name} (conditions naming it will be flagged in Issues)`}
                data-testid={`feature-remove-${f.name}`}
                className="text-zinc-500 hover:text-red-400"
                onClick={() => {
                  const uses = edgesUsingFeature(currentLevel(editorStore.getState()), f.name);
                  const r = edit((g) => removeFeature(g, f.name));
                  if (r.ok && uses.length > 0)
                    editorStore
                      .getState()
                      .showToast(
                        `${f.name} removed; ${uses.length} edge${uses.length === 1 ? '' : 's'} still name it (see Issues)`,
                        'info',
                      );
                }}
              >
                <Trash2 size={11} />
              </button>
            </div>
            {f.description && <div className="truncate text-[11px] text-zinc-500">{f.description}</div>}
          </div>
        ),
      )}
      {editing === '' && (
        <FeatureEditor
          testId="feature-editor-new"
          initial={NEW_FIELDS}
          onSave={(f) => done(edit((g) => addFeature(g, f)))}
          onCancel={() => setEditing(null)}
        />
      )}
    </div>
  );
}
