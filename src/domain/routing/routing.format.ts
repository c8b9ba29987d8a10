// The saved form of the routing extension: one `x-statewire` block per graph level, written last and
// only when the level declares features or has routed edges — a graph without routing saves exactly
// as before (reference files keep their bytes). Key order is fixed so saves are stable.
import type { EdgeDef, GraphDef } from '../graph/graph.schema.ts';
import type { Condition, Effect, FeatureDef } from './routing.schema.ts';

type JsonObject = Record<string, unknown>;

function canonicalFeature(f: FeatureDef): JsonObject {
  const domain =
    f.domain === 'bool'
      ? 'bool'
      : 'enum' in f.domain
        ? { enum: [...f.domain.enum] }
        : { int: [f.domain.int[0], f.domain.int[1]] };
  const out: JsonObject = { name: f.name, domain };
  if (f.description !== undefined) out.description = f.description;
  return out;
}

export function canonicalCondition(c: Condition): JsonObject {
  if ('all' in c) return { all: c.all.map(canonicalCondition) };
  if ('any' in c) return { any: c.any.map(canonicalCondition) };
  if ('not' in c) return { not: canonicalCondition(c.not) };
  if ('slot' in c) return { slot: c.slot, path: c.path, op: c.op, value: c.value };
  if ('in' in c) return { feature: c.feature, in: [...c.in] };
  return { feature: c.feature, eq: c.eq };
}

export function canonicalEffect(e: Effect): unknown {
  if (e === 'unconstrained') return e;
  const out: JsonObject = {};
  if (e.assign) out.assign = { ...e.assign };
  if (e.allow)
    out.allow = Object.fromEntries(
      Object.entries(e.allow).map(([f, pairs]) => [f, pairs.map(([a, b]) => [a, b])]),
    );
  return out;
}

const routed = (e: EdgeDef): boolean => e.condition !== undefined || e.effect !== undefined;

/** The `x-statewire` block of one graph level, or undefined when it has nothing to say. */
export function extensionBlock(graph: GraphDef): JsonObject | undefined {
  const features = graph.features ?? [];
  const edges = graph.edges.filter(routed);
  if (features.length === 0 && edges.length === 0) return undefined;
  const out: JsonObject = {};
  if (features.length > 0) out.features = features.map(canonicalFeature);
  if (edges.length > 0) {
    // fromEntries keeps an edge literally named `__proto__` as data.
    out.edges = Object.fromEntries(
      edges.map((e) => {
        const r: JsonObject = {};
        if (e.condition !== undefined) r.condition = canonicalCondition(e.condition);
        if (e.effect !== undefined) r.effect = canonicalEffect(e.effect);
        return [e.id, r];
      }),
    );
  }
  return out;
}
