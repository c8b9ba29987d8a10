// The edge inspector's condition/effect form as plain data, and its two-way conversion with the
// format's Condition/Effect objects (src/domain/routing/routing.schema.ts). The form may hold a draft
// that is not a valid condition yet (no value picked, a slot comparison's value half typed);
// `conditionFromForm` says what is missing instead of producing one, so the edge is only ever set
// to a condition the schema accepts.
import {
  ConditionSchema,
  EdgeRouteSchema,
  EffectSchema,
  SLOT_OPS,
  type Condition,
  type EdgeRoute,
  type Effect,
  type FeatureDef,
  type FeatureValue,
  type SlotOp,
} from '../../domain/routing/routing.schema.ts';
import { canonicalCondition, canonicalEffect } from '../../domain/routing/routing.format.ts';

export type ConditionForm =
  /** `{feature, in}` (or `{feature, eq}` when `eq` and exactly one value). */
  | { kind: 'feature'; feature: string; values: FeatureValue[]; eq?: boolean }
  | { kind: 'all' | 'any'; children: ConditionForm[] }
  | { kind: 'not'; child: ConditionForm }
  /** `valueText`: JSON, or plain text meaning a string. */
  | { kind: 'slot'; slot: string; path: string; op: SlotOp; valueText: string };

export type FormResult<T> = { ok: true; value: T } | { ok: false; error: string };

export function conditionToForm(c: Condition): ConditionForm {
  if ('all' in c) return { kind: 'all', children: c.all.map(conditionToForm) };
  if ('any' in c) return { kind: 'any', children: c.any.map(conditionToForm) };
  if ('not' in c) return { kind: 'not', child: conditionToForm(c.not) };
  if ('slot' in c)
    return { kind: 'slot', slot: c.slot, path: c.path, op: c.op, valueText: slotValueText(c.value) };
  if ('eq' in c) return { kind: 'feature', feature: c.feature, values: [c.eq], eq: true };
  return { kind: 'feature', feature: c.feature, values: [...c.in] };
}

/** A slot comparison's value in its text box: a plain string unquoted unless it would read as JSON. */
export function slotValueText(v: unknown): string {
  if (typeof v === 'string') {
    try {
      JSON.parse(v);
      return JSON.stringify(v);
    } catch {
      return v;
    }
  }
  return JSON.stringify(v) ?? 'null';
}

/** The text box's value: JSON when it parses, else the text itself as a string. */
export function parseSlotValue(text: string): unknown {
  const t = text.trim();
  if (t === '') return '';
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return t;
  }
}

function fail<T>(error: string): FormResult<T> {
  return { ok: false, error };
}

export function conditionFromForm(f: ConditionForm): FormResult<Condition> {
  switch (f.kind) {
    case 'feature':
      if (!f.feature) return fail('pick a feature');
      if (f.values.length === 0) return fail(`pick at least one value of ${f.feature}`);
      return {
        ok: true,
        value:
          f.eq && f.values.length === 1
            ? { feature: f.feature, eq: f.values[0]! }
            : { feature: f.feature, in: [...f.values] },
      };
    case 'all':
    case 'any': {
      if (f.children.length === 0) return fail(`'${f.kind}' needs at least one condition`);
      const out: Condition[] = [];
      for (const c of f.children) {
        const r = conditionFromForm(c);
        if (!r.ok) return r;
        out.push(r.value);
      }
      return { ok: true, value: f.kind === 'all' ? { all: out } : { any: out } };
    }
    case 'not': {
      const r = conditionFromForm(f.child);
      return r.ok ? { ok: true, value: { not: r.value } } : r;
    }
    case 'slot': {
      if (!/^[^.]+\..+$/.test(f.slot)) return fail('slot must be "container.slot"');
      if (!f.path.startsWith('$')) return fail('path must start with $ (e.g. $ or $.score)');
      if (!SLOT_OPS.includes(f.op)) return fail(`operator must be one of ${SLOT_OPS.join(' ')}`);
      return {
        ok: true,
        value: { slot: f.slot, path: f.path, op: f.op, value: parseSlotValue(f.valueText) },
      };
    }
  }
}

/** A new leaf for the form: the first declared feature with its first value, else a slot comparison. */
export function defaultLeaf(features: readonly FeatureDef[]): ConditionForm {
  const f = features[0];
  if (!f) return { kind: 'slot', slot: '', path: '$', op: '==', valueText: '' };
  const first = firstValue(f);
  return { kind: 'feature', feature: f.name, values: first === undefined ? [] : [first] };
}

function firstValue(f: FeatureDef): FeatureValue | undefined {
  if (f.domain === 'bool') return true;
  if ('enum' in f.domain) return f.domain.enum[0];
  return f.domain.int[0];
}

// ---- effects ----

export type EffectRule =
  | { kind: 'assign'; feature: string; value: FeatureValue | undefined }
  | { kind: 'allow'; feature: string; from: FeatureValue | undefined; to: FeatureValue | undefined };

export type EffectForm =
  { mode: 'none' } | { mode: 'unconstrained' } | { mode: 'rules'; rules: EffectRule[] };

export function effectToForm(e: Effect | undefined): EffectForm {
  if (e === undefined) return { mode: 'none' };
  if (e === 'unconstrained') return { mode: 'unconstrained' };
  const rules: EffectRule[] = [];
  for (const [feature, value] of Object.entries(e.assign ?? {}))
    rules.push({ kind: 'assign', feature, value });
  for (const [feature, pairs] of Object.entries(e.allow ?? {}))
    for (const [from, to] of pairs) rules.push({ kind: 'allow', feature, from, to });
  return { mode: 'rules', rules };
}

export function effectFromForm(f: EffectForm): FormResult<Effect | undefined> {
  if (f.mode === 'none') return { ok: true, value: undefined };
  if (f.mode === 'unconstrained') return { ok: true, value: 'unconstrained' };
  if (f.rules.length === 0) return fail('add an assign or allow rule, or choose "no effect"');
  const assign: Record<string, FeatureValue> = {};
  const allow: Record<string, [FeatureValue, FeatureValue][]> = {};
  for (const r of f.rules) {
    if (!r.feature) return fail('pick the feature of each rule');
    if (r.kind === 'assign') {
      if (r.value === undefined) return fail(`pick the value assigned to ${r.feature}`);
      if (r.feature in assign) return fail(`${r.feature} is assigned twice`);
      assign[r.feature] = r.value;
    } else {
      if (r.from === undefined || r.to === undefined)
        return fail(`pick both ends of the ${r.feature} transition`);
      (allow[r.feature] ??= []).push([r.from, r.to]);
    }
  }
  const out: {
    assign?: Record<string, FeatureValue>;
    allow?: Record<string, [FeatureValue, FeatureValue][]>;
  } = {};
  if (Object.keys(assign).length > 0) out.assign = assign;
  if (Object.keys(allow).length > 0) out.allow = allow;
  return { ok: true, value: out };
}

// ---- raw JSON ----

/** What the raw JSON box shows: the edge's `{condition, effect}` in the saved (canonical) form. */
export function routeToJson(route: EdgeRoute): string {
  const out: Record<string, unknown> = {};
  if (route.condition !== undefined) out.condition = canonicalCondition(route.condition);
  if (route.effect !== undefined) out.effect = canonicalEffect(route.effect);
  return JSON.stringify(out, null, 2);
}

/** Reads the raw JSON box: invalid JSON or a shape the format refuses is an error naming where. */
export function routeFromJson(text: string): FormResult<EdgeRoute> {
  let raw: unknown;
  try {
    raw = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
  } catch (e) {
    return fail(`not valid JSON: ${(e as Error).message}`);
  }
  const r = EdgeRouteSchema.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0];
  const at = issue?.path.length ? `at ${issue.path.join('.')}: ` : '';
  return fail(`${at}${issue?.message ?? 'not a condition/effect object'} (keys: condition, effect)`);
}

/** The schema check of a form result (the form builds only valid shapes; this guards the edge). */
export function validRoute(route: EdgeRoute): boolean {
  return (
    (route.condition === undefined || ConditionSchema.safeParse(route.condition).success) &&
    (route.effect === undefined || EffectSchema.safeParse(route.effect).success)
  );
}
