// The condition form of the edge inspector: one row per condition node — a feature with its `in`
// values picked from the domain, a slot comparison (slot, JSON path, operator, value), or a
// combinator (all / any / not) holding further rows. Controlled: it edits a ConditionForm draft and
// reports every change; the caller decides whether the draft is a condition to commit.
import type { ReactNode } from 'react';
import { Plus, X } from 'lucide-react';
import {
  domainValues,
  SLOT_OPS,
  type FeatureDef,
  type FeatureValue,
  type SlotOp,
} from '../../domain/routing/routing.schema.ts';
import { CommitInput } from '../ui/CommitInput.tsx';
import { selectCls } from '../ui/Field.tsx';
import { defaultLeaf, type ConditionForm } from './conditionForm.ts';
import { valueText } from './conditionText.ts';

/** Domains with at most this many values are picked with checkboxes; larger ones are typed. */
const PICK_LIMIT = 24;

type Kind = ConditionForm['kind'];
const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'feature', label: 'feature ∈' },
  { kind: 'slot', label: 'slot value' },
  { kind: 'all', label: 'all of' },
  { kind: 'any', label: 'any of' },
  { kind: 'not', label: 'not' },
];

/** Changes a row's kind, keeping what it held: a combinator wraps the old row, a leaf unwraps one. */
export function changeKind(f: ConditionForm, kind: Kind, features: readonly FeatureDef[]): ConditionForm {
  if (f.kind === kind) return f;
  if (kind === 'all' || kind === 'any') {
    if (f.kind === 'all' || f.kind === 'any') return { kind, children: f.children };
    return { kind, children: [f] };
  }
  if (kind === 'not') return { kind: 'not', child: f };
  const inner = f.kind === 'not' ? f.child : f.kind === 'all' || f.kind === 'any' ? f.children[0] : undefined;
  if (inner?.kind === kind) return inner;
  if (kind === 'slot') return { kind: 'slot', slot: '', path: '$', op: '==', valueText: '' };
  const leaf = defaultLeaf(features);
  return leaf.kind === 'feature' ? leaf : { kind: 'feature', feature: '', values: [] };
}

function ValuesPicker({
  form,
  feature,
  testId,
  onChange,
}: {
  form: Extract<ConditionForm, { kind: 'feature' }>;
  feature: FeatureDef | undefined;
  testId: string;
  onChange: (values: FeatureValue[]) => void;
}) {
  const all = feature ? domainValues(feature.domain, PICK_LIMIT) : undefined;
  if (!all) {
    const numeric = feature !== undefined && feature.domain !== 'bool' && 'int' in feature.domain;
    return (
      <CommitInput
        testId={`${testId}-values-text`}
        value={form.values.map(String).join(', ')}
        placeholder="values, comma separated"
        onCommit={(t) => {
          const parts = t
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean);
          if (numeric && parts.some((p) => !Number.isInteger(Number(p))))
            return 'values must be whole numbers';
          onChange(numeric ? parts.map(Number) : parts);
          return null;
        }}
      />
    );
  }
  const has = (v: FeatureValue) => form.values.some((x) => x === v);
  return (
    <div className="flex flex-wrap gap-x-2 gap-y-0.5" data-testid={`${testId}-values`}>
      {all.map((v) => (
        <label key={String(v)} className="flex items-center gap-0.5 font-mono text-[11px] text-zinc-300">
          <input
            type="checkbox"
            data-testid={`${testId}-value-${String(v)}`}
            checked={has(v)}
            onChange={(e) =>
              // Keep the domain's order, so the chip reads the same however the values were clicked.
              onChange(all.filter((x) => (x === v ? e.target.checked : has(x))))
            }
          />
          {valueText(v)}
        </label>
      ))}
    </div>
  );
}

export function ConditionRow({
  form,
  features,
  slots,
  testId,
  onChange,
  onRemove,
}: {
  form: ConditionForm;
  features: readonly FeatureDef[];
  /** `container.slot` names the routing node may read (suggestions for the slot field). */
  slots: readonly string[];
  testId: string;
  onChange: (next: ConditionForm) => void;
  onRemove?: () => void;
}) {
  const head = (
    <div className="flex items-center gap-1">
      <select
        data-testid={`${testId}-kind`}
        className={selectCls}
        value={form.kind}
        onChange={(e) => onChange(changeKind(form, e.target.value as Kind, features))}
      >
        {KINDS.map((k) => (
          <option key={k.kind} value={k.kind}>
            {k.label}
          </option>
        ))}
      </select>
      {form.kind === 'feature' && (
        <select
          data-testid={`${testId}-feature`}
          className={`${selectCls} min-w-0 flex-1 font-mono`}
          value={form.feature}
          onChange={(e) => onChange({ kind: 'feature', feature: e.target.value, values: [] })}
        >
          {!features.some((f) => f.name === form.feature) && (
            <option value={form.feature}>
              {form.feature ? `${form.feature} (undeclared)` : '— feature —'}
            </option>
          )}
          {features.map((f) => (
            <option key={f.name} value={f.name}>
              {f.name}
            </option>
          ))}
        </select>
      )}
      {onRemove && (
        <button
          type="button"
          title="Remove this condition"
          data-testid={`${testId}-remove`}
          className="ml-auto text-zinc-500 hover:text-red-400"
          onClick={onRemove}
        >
          <X size={12} />
        </button>
      )}
    </div>
  );
  let body: ReactNode;
  if (form.kind === 'feature') {
    body = (
      <ValuesPicker
        form={form}
        feature={features.find((f) => f.name === form.feature)}
        testId={testId}
        onChange={(values) => onChange({ ...form, values })}
      />
    );
  } else if (form.kind === 'slot') {
    const listId = `${testId}-slots`;
    body = (
      <div className="space-y-0.5">
        <div className="flex items-center gap-1">
          <CommitInput
            testId={`${testId}-slot`}
            value={form.slot}
            placeholder="container.slot"
            list={listId}
            onCommit={(t) => {
              onChange({ ...form, slot: t.trim() });
              return /^[^.]+\..+$/.test(t.trim()) ? null : 'slot must be "container.slot"';
            }}
          />
          <datalist id={listId}>
            {slots.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <CommitInput
            testId={`${testId}-path`}
            value={form.path}
            placeholder="$"
            className="w-16 font-mono"
            onCommit={(t) => {
              onChange({ ...form, path: t.trim() });
              return t.trim().startsWith('$') ? null : 'path must start with $';
            }}
          />
        </div>
        <div className="flex items-center gap-1">
          <select
            data-testid={`${testId}-op`}
            className={selectCls}
            value={form.op}
            onChange={(e) => onChange({ ...form, op: e.target.value as SlotOp })}
          >
            {SLOT_OPS.map((op) => (
              <option key={op} value={op}>
                {op}
              </option>
            ))}
          </select>
          <CommitInput
            testId={`${testId}-value`}
            value={form.valueText}
            placeholder="value (JSON, or text)"
            className="font-mono"
            onCommit={(t) => {
              onChange({ ...form, valueText: t });
              return null;
            }}
          />
        </div>
      </div>
    );
  } else if (form.kind === 'not') {
    body = (
      <ConditionRow
        form={form.child}
        features={features}
        slots={slots}
        testId={`${testId}-0`}
        onChange={(child) => onChange({ kind: 'not', child })}
      />
    );
  } else {
    const kids = form.children;
    body = (
      <div className="space-y-1">
        {kids.map((c, i) => (
          <ConditionRow
            key={i}
            form={c}
            features={features}
            slots={slots}
            testId={`${testId}-${i}`}
            onChange={(next) => onChange({ ...form, children: kids.map((x, j) => (j === i ? next : x)) })}
            onRemove={() => onChange({ ...form, children: kids.filter((_, j) => j !== i) })}
          />
        ))}
        <button
          type="button"
          data-testid={`${testId}-add`}
          className="flex items-center gap-0.5 text-[11px] text-sky-400 hover:underline"
          onClick={() => onChange({ ...form, children: [...kids, defaultLeaf(features)] })}
        >
          <Plus size={11} /> condition
        </button>
      </div>
    );
  }
  const nested = form.kind === 'all' || form.kind === 'any' || form.kind === 'not';
  return (
    <div data-testid={testId} className="space-y-1">
      {head}
      <div className={nested ? 'border-l border-zinc-700 pl-2' : 'pl-1'}>{body}</div>
    </div>
  );
}
