// The config fields a node type declares in its `config_schema`, as a form (configSchema.ts decides
// the control per property). Every change is one `setNodeConfig` edit, so one undo step; a refused
// value (bad number, bad JSON) shows its reason under the field and changes nothing.
import { setNodeConfig } from '../../../domain/graph/graph.ops.ts';
import { editorStore } from '../../store/editor.store.ts';
import { CommitInput } from '../../ui/CommitInput.tsx';
import { Field, selectCls } from '../../ui/Field.tsx';
import { fieldText, fits, parseFieldText, placeholderOf, type ConfigFieldSpec } from './configSchema.ts';

function commit(nodeId: string, key: string, value: unknown): string | null {
  const r = editorStore.getState().edit((g) => setNodeConfig(g, nodeId, key, value));
  return r.ok ? null : r.reason;
}

function commitText(nodeId: string, f: ConfigFieldSpec, text: string): string | null {
  const p = parseFieldText(f, text);
  return p.ok ? commit(nodeId, f.key, p.value) : p.reason;
}

const optionText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function Control({ nodeId, field, value }: { nodeId: string; field: ConfigFieldSpec; value: unknown }) {
  const testId = `config-${field.key}`;
  if (field.readOnly)
    return (
      <span data-testid={testId} className="text-xs text-zinc-300">
        {optionText(value ?? field.default ?? '')}
      </span>
    );
  switch (field.kind) {
    case 'boolean': {
      const shown = value ?? field.default ?? false;
      return (
        <input
          type="checkbox"
          data-testid={testId}
          checked={shown === true}
          onChange={(e) => commit(nodeId, field.key, e.target.checked)}
        />
      );
    }
    case 'enum':
      return (
        <select
          data-testid={testId}
          className={`${selectCls} min-w-0 flex-1`}
          value={value === undefined ? '' : optionText(value)}
          onChange={(e) => {
            const r =
              e.target.value === ''
                ? commit(nodeId, field.key, undefined)
                : commitText(nodeId, field, e.target.value);
            if (r) editorStore.getState().showToast(r, 'refusal');
          }}
        >
          <option value="">
            {'default' in field ? `(default: ${optionText(field.default)})` : '(unset)'}
          </option>
          {(field.enumValues ?? []).map((v) => (
            <option key={optionText(v)} value={optionText(v)}>
              {optionText(v)}
            </option>
          ))}
        </select>
      );
    default: {
      const json = field.kind === 'json';
      return (
        <CommitInput
          testId={testId}
          value={fieldText(field, value)}
          placeholder={placeholderOf(field) || (field.kind === 'array' ? 'a, b, c' : undefined)}
          multiline={json || field.multiline}
          inputMode={field.kind === 'number' || field.kind === 'integer' ? 'decimal' : undefined}
          onCommit={(t) => commitText(nodeId, field, t)}
        />
      );
    }
  }
}

const KIND_HINT: Partial<Record<ConfigFieldSpec['kind'], string>> = {
  array: 'comma-separated, or a JSON array',
  json: 'JSON',
  integer: 'whole number',
};

export function ConfigSchemaForm({
  nodeId,
  fields,
  config,
}: {
  nodeId: string;
  fields: readonly ConfigFieldSpec[];
  config: Readonly<Record<string, unknown>>;
}) {
  return (
    <>
      {fields.map((f) => {
        const value = config[f.key];
        // A stored value the control cannot show is edited as JSON instead of being rewritten.
        const field: ConfigFieldSpec = fits(f, value) ? f : { ...f, kind: 'json' };
        const mismatch = field !== f;
        const hint = [
          f.description,
          KIND_HINT[field.kind],
          mismatch ? `the stored value is not a ${f.kind}` : '',
          placeholderOf(f),
        ]
          .filter(Boolean)
          .join(' · ');
        return (
          <div key={f.key} data-testid={`config-field-${f.key}`} data-kind={field.kind}>
            <Field label={`${f.label}${f.required ? ' *' : ''}`} hint={hint}>
              <Control nodeId={nodeId} field={field} value={value} />
            </Field>
            {mismatch && (
              <div className="mb-1 pl-[88px] text-[10px] text-amber-400">
                stored value is not a {f.kind}; edit it as JSON
              </div>
            )}
          </div>
        );
      })}
    </>
  );
}
