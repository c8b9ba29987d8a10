// Pure routing edits of one graph level, for `store.edit(op)` (one undo step each): declare, change
// and remove features, set an edge's condition/effect. A refusal comes back as a reason the inspector
// shows under the field.
import type { OpResult } from '../../domain/graph/graph.ops.ts';
import type { EdgeDef, GraphDef } from '../../domain/graph/graph.schema.ts';
import {
  FeatureDefSchema,
  type Condition,
  type EdgeRoute,
  type Effect,
  type FeatureDef,
  type FeatureDomain,
} from '../../domain/routing/routing.schema.ts';

const FEATURE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Why a feature declaration cannot stand beside `others` (null when it can). */
export function featureProblem(f: FeatureDef, others: readonly FeatureDef[]): string | null {
  if (!f.name) return 'a feature needs a name';
  if (!FEATURE_NAME.test(f.name))
    return `feature name "${f.name}" must be letters, digits and _ (not starting with a digit)`;
  if (others.some((o) => o.name === f.name)) return `a feature named ${f.name} already exists`;
  if (f.domain !== 'bool' && 'enum' in f.domain) {
    if (f.domain.enum.length === 0) return `${f.name} needs at least one value`;
    const seen = new Set<string>();
    for (const v of f.domain.enum) {
      const k = JSON.stringify(v);
      if (seen.has(k)) return `${f.name} lists ${String(v)} twice`;
      seen.add(k);
    }
  }
  if (f.domain !== 'bool' && 'int' in f.domain) {
    const [lo, hi] = f.domain.int;
    if (!Number.isInteger(lo) || !Number.isInteger(hi)) return `${f.name}: the range needs whole numbers`;
    if (lo > hi) return `${f.name}: min ${lo} is above max ${hi}`;
  }
  const r = FeatureDefSchema.safeParse(f);
  return r.success ? null : (r.error.issues[0]?.message ?? 'invalid feature');
}

function withFeatures(level: GraphDef, features: FeatureDef[]): GraphDef {
  const next = { ...level };
  if (features.length > 0) next.features = features;
  else delete next.features;
  return next;
}

export function addFeature(level: GraphDef, f: FeatureDef): OpResult {
  const list = level.features ?? [];
  const why = featureProblem(f, list);
  if (why) return { ok: false, reason: why };
  return { ok: true, graph: withFeatures(level, [...list, f]) };
}

/** Replaces feature `name`; a rename follows into every condition and effect of the level. */
export function updateFeature(level: GraphDef, name: string, f: FeatureDef): OpResult {
  const list = level.features ?? [];
  const i = list.findIndex((x) => x.name === name);
  if (i < 0) return { ok: false, reason: `no feature named ${name}` };
  const why = featureProblem(
    f,
    list.filter((_, j) => j !== i),
  );
  if (why) return { ok: false, reason: why };
  const next = withFeatures(
    level,
    list.map((x, j) => (j === i ? f : x)),
  );
  if (f.name === name) return { ok: true, graph: next };
  return { ok: true, graph: { ...next, edges: next.edges.map((e) => renameInEdge(e, name, f.name)) } };
}

/** Removes a feature; conditions still naming it stay (the Issues panel then lists them). */
export function removeFeature(level: GraphDef, name: string): OpResult {
  const list = level.features ?? [];
  if (!list.some((x) => x.name === name)) return { ok: false, reason: `no feature named ${name}` };
  return {
    ok: true,
    graph: withFeatures(
      level,
      list.filter((x) => x.name !== name),
    ),
  };
}

/** Sets (or, with undefined, removes) an edge's condition and effect together. */
export function setEdgeRoute(level: GraphDef, edgeId: string, route: EdgeRoute): OpResult {
  const i = level.edges.findIndex((e) => e.id === edgeId);
  if (i < 0) return { ok: false, reason: `no edge ${edgeId}` };
  const cur = level.edges[i]!;
  const next: EdgeDef = { ...cur };
  delete next.condition;
  delete next.effect;
  if (route.condition !== undefined) next.condition = route.condition;
  if (route.effect !== undefined) next.effect = route.effect;
  if (JSON.stringify(next) === JSON.stringify(cur)) return { ok: true, graph: level };
  return { ok: true, graph: { ...level, edges: level.edges.map((e, j) => (j === i ? next : e)) } };
}

export function renameInCondition(c: Condition, from: string, to: string): Condition {
  if ('all' in c) return { all: c.all.map((x) => renameInCondition(x, from, to)) };
  if ('any' in c) return { any: c.any.map((x) => renameInCondition(x, from, to)) };
  if ('not' in c) return { not: renameInCondition(c.not, from, to) };
  if ('feature' in c && c.feature === from) return { ...c, feature: to };
  return c;
}

function renameKey<V>(
  rec: Record<string, V> | undefined,
  from: string,
  to: string,
): Record<string, V> | undefined {
  if (!rec || !(from in rec)) return rec;
  return Object.fromEntries(Object.entries(rec).map(([k, v]) => [k === from ? to : k, v]));
}

export function renameInEffect(e: Effect, from: string, to: string): Effect {
  if (e === 'unconstrained') return e;
  const out: Exclude<Effect, 'unconstrained'> = {};
  const assign = renameKey(e.assign, from, to);
  const allow = renameKey(e.allow, from, to);
  if (assign) out.assign = assign;
  if (allow) out.allow = allow;
  return out;
}

function renameInEdge(e: EdgeDef, from: string, to: string): EdgeDef {
  if (e.condition === undefined && e.effect === undefined) return e;
  const next = { ...e };
  if (e.condition !== undefined) next.condition = renameInCondition(e.condition, from, to);
  if (e.effect !== undefined) next.effect = renameInEffect(e.effect, from, to);
  return next;
}

// ---- the feature editor's text fields ----

export type DomainKind = 'enum' | 'bool' | 'int';

export function domainKind(d: FeatureDomain): DomainKind {
  return d === 'bool' ? 'bool' : 'enum' in d ? 'enum' : 'int';
}

/** The feature editor's fields as typed, turned into a declaration or the reason it is not one. */
export function featureFromFields(fields: {
  name: string;
  kind: DomainKind;
  values: string;
  min: string;
  max: string;
  description: string;
}): { ok: true; feature: FeatureDef } | { ok: false; reason: string } {
  const name = fields.name.trim();
  let domain: FeatureDomain;
  if (fields.kind === 'bool') domain = 'bool';
  else if (fields.kind === 'enum') {
    const values = fields.values
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    if (values.length === 0) return { ok: false, reason: 'list the values, separated by commas' };
    domain = { enum: values };
  } else {
    const lo = Number(fields.min);
    const hi = Number(fields.max);
    if (
      fields.min.trim() === '' ||
      fields.max.trim() === '' ||
      !Number.isInteger(lo) ||
      !Number.isInteger(hi)
    )
      return { ok: false, reason: 'min and max must be whole numbers' };
    domain = { int: [lo, hi] };
  }
  const f: FeatureDef = { name, domain };
  if (fields.description.trim()) f.description = fields.description.trim();
  return { ok: true, feature: f };
}

/** The editor's text fields for an existing declaration. */
export function fieldsOf(f: FeatureDef) {
  const kind = domainKind(f.domain);
  return {
    name: f.name,
    kind,
    values: f.domain !== 'bool' && 'enum' in f.domain ? f.domain.enum.map(String).join(', ') : '',
    min: f.domain !== 'bool' && 'int' in f.domain ? String(f.domain.int[0]) : '0',
    max: f.domain !== 'bool' && 'int' in f.domain ? String(f.domain.int[1]) : '3',
    description: f.description ?? '',
  };
}

/** Whether a condition reads the feature anywhere. */
export function conditionUses(c: Condition, name: string): boolean {
  if ('all' in c) return c.all.some((x) => conditionUses(x, name));
  if ('any' in c) return c.any.some((x) => conditionUses(x, name));
  if ('not' in c) return conditionUses(c.not, name);
  return 'feature' in c && c.feature === name;
}

/** Ids of the level's edges whose condition or effect names the feature. */
export function edgesUsingFeature(level: GraphDef, name: string): string[] {
  return level.edges
    .filter(
      (e) =>
        (e.condition !== undefined && conditionUses(e.condition, name)) ||
        (e.effect !== undefined &&
          e.effect !== 'unconstrained' &&
          (name in (e.effect.assign ?? {}) || name in (e.effect.allow ?? {}))),
    )
    .map((e) => e.id);
}
