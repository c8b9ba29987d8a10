// The effect form of the edge inspector: no effect, "unconstrained" (any proposed change), or rules —
// `assign` (taking the edge sets the feature) and `allow` (a proposed change must be one of these
// transitions). Controlled, like ConditionRow: it edits an EffectForm draft.
import { Plus, X } from 'lucide-react';
import { domainValues, type FeatureDef, type FeatureValue } from '../../domain/routing/routing.schema.ts';
import { CommitInput } from '../ui/CommitInput.tsx';
import { selectCls } from '../ui/Field.tsx';
import type { EffectForm, EffectRule } from './conditionForm.ts';
import { valueText } from './conditionText.ts';

const SELECT_LIMIT = 200;

function ValueSelect({
  feature,
  value,
  testId,
  onChange,
}: {
  feature: FeatureDef | undefined;
  value: FeatureValue | undefined;
  testId: string;
  onChange: (v: FeatureValue | undefined) => void;
}) {
  const all = feature ? domainValues(feature.domain, SELECT_LIMIT) : undefined;
  if (!all)
    return (
      <CommitInput
        testId={testId}
        value={value === undefined ? '' : String(value)}
        className="w-16 font-mono"
        onCommit={(t) => {
          const n = Number(t);
          if (t.trim() === '') onChange(undefined);
          else onChange(Number.isInteger(n) ? n : t.trim());
          return null;
        }}
      />
    );
  return (
    <select
      data-testid={testId}
      className={`${selectCls} font-mono`}
      value={value === undefined ? '' : JSON.stringify(value)}
      onChange={(e) =>
        onChange(e.target.value === '' ? undefined : (JSON.parse(e.target.value) as FeatureValue))
      }
    >
      <option value="">—</option>
      {all.map((v) => (
        <option key={JSON.stringify(v)} value={JSON.stringify(v)}>
          {valueText(v)}
        </option>
      ))}
    </select>
  );
}

function newRule(kind: EffectRule['kind'], features: readonly FeatureDef[]): EffectRule {
  const f = features[0];
  const vals = f ? domainValues(f.domain, SELECT_LIMIT) : undefined;
  if (kind === 'assign') return { kind, feature: f?.name ?? '', value: vals?.[0] };
  return { kind, feature: f?.name ?? '', from: vals?.[0], to: vals?.[1] ?? vals?.[0] };
}

export function EffectEditor({
  form,
  features,
  onChange,
}: {
  form: EffectForm;
  features: readonly FeatureDef[];
  onChange: (next: EffectForm) => void;
}) {
  const rules = form.mode === 'rules' ? form.rules : [];
  const setRule = (i: number, r: EffectRule) =>
    onChange({ mode: 'rules', rules: rules.map((x, j) => (j === i ? r : x)) });
  return (
    <div data-testid="effect-editor" className="space-y-1">
      <select
        data-testid="effect-mode"
        className={selectCls}
        value={form.mode}
        onChange={(e) => {
          const mode = e.target.value as EffectForm['mode'];
          onChange(mode === 'rules' ? { mode, rules: [newRule('assign', features)] } : { mode });
        }}
      >
        <option value="none">no effect (features unchanged)</option>
        <option value="rules">assign / allow</option>
        <option value="unconstrained">unconstrained (any change)</option>
      </select>
      {rules.map((r, i) => {
        const feature = features.find((f) => f.name === r.feature);
        const t = `effect-rule-${i}`;
        return (
          <div key={i} data-testid={t} className="flex flex-wrap items-center gap-1 pl-1">
            <select
              data-testid={`${t}-kind`}
              className={selectCls}
              value={r.kind}
              onChange={(e) =>
                setRule(i, newRule(e.target.value as EffectRule['kind'], feature ? [feature] : features))
              }
            >
              <option value="assign">assign</option>
              <option value="allow">allow</option>
            </select>
            <select
              data-testid={`${t}-feature`}
              className={`${selectCls} font-mono`}
              value={r.feature}
              onChange={(e) => {
                const f = features.find((x) => x.name === e.target.value);
                setRule(i, newRule(r.kind, f ? [f] : []));
              }}
            >
              {!feature && <option value={r.feature}>{r.feature || '— feature —'}</option>}
              {features.map((f) => (
                <option key={f.name} value={f.name}>
                  {f.name}
                </option>
              ))}
            </select>
            {r.kind === 'assign' ? (
              <>
                <span className="text-zinc-500">:=</span>
                <ValueSelect
                  feature={feature}
                  value={r.value}
                  testId={`${t}-value`}
                  onChange={(value) => setRule(i, { ...r, value })}
                />
              </>
            ) : (
              <>
                <ValueSelect
                  feature={feature}
                  value={r.from}
                  testId={`${t}-from`}
                  onChange={(from) => setRule(i, { ...r, from })}
                />
                <span className="text-zinc-500">→</span>
                <ValueSelect
                  feature={feature}
                  value={r.to}
                  testId={`${t}-to`}
                  onChange={(to) => setRule(i, { ...r, to })}
                />
              </>
            )}
            <button
              type="button"
              title="Remove this rule"
              className="ml-auto text-zinc-500 hover:text-red-400"
              onClick={() => onChange({ mode: 'rules', rules: rules.filter((_, j) => j !== i) })}
            >
              <X size={12} />
            </button>
          </div>
        );
      })}
      {form.mode === 'rules' && (
        <div className="flex gap-2 pl-1">
          {(['assign', 'allow'] as const).map((k) => (
            <button
              key={k}
              type="button"
              data-testid={`effect-add-${k}`}
              className="flex items-center gap-0.5 text-[11px] text-sky-400 hover:underline"
              onClick={() => onChange({ mode: 'rules', rules: [...rules, newRule(k, features)] })}
            >
              <Plus size={11} /> {k}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
