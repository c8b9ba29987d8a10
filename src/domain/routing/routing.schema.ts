// Conditional routing (docs/routing.md): graph-level *features* — small declared pieces of run state with a
// finite domain, unset at run start — observed by data-edge *conditions* and changed only through an
// outgoing edge's *effect*. From a routing port exactly one compatible edge must exist.
//
// In memory a graph carries `features` and an edge its `condition`/`effect` (the editor and the
// engine read them there). In a saved file they live in the Statewire extension block
// `"x-statewire": {features, edges: {<edge id>: {condition?, effect?}}}` (see routing.format.ts), a
// top-level key the reference backend drops on load without touching anything else, so reference
// files keep their exact bytes and a reference run simply sees unconditional edges.
import { z } from 'zod';

/** The key of the Statewire extension block in a saved graph file. */
export const EXTENSION_KEY = 'x-statewire';

/** A feature value: an enum member, a boolean, or an integer of an int range. */
export const FeatureValueSchema = z.union([z.string(), z.number(), z.boolean()]);
export type FeatureValue = z.infer<typeof FeatureValueSchema>;

export const EnumDomainSchema = z
  .object({ enum: z.array(FeatureValueSchema).min(1).describe('the allowed values, in order') })
  .strict();
export const IntDomainSchema = z
  .object({
    int: z
      .tuple([z.number().int(), z.number().int()])
      .refine(([lo, hi]) => lo <= hi, { message: 'int range [min, max] needs min <= max' })
      .describe('inclusive integer range [min, max]'),
  })
  .strict();

/** `{enum: [...]}`, `"bool"` (true/false) or `{int: [min, max]}` (inclusive). */
export const FeatureDomainSchema = z.union([z.literal('bool'), EnumDomainSchema, IntDomainSchema]);
export type FeatureDomain = z.infer<typeof FeatureDomainSchema>;

export const FeatureDefSchema = z
  .object({
    name: z.string().min(1),
    domain: FeatureDomainSchema,
    description: z.string().optional(),
  })
  .strict();
export type FeatureDef = z.infer<typeof FeatureDefSchema>;

/** Comparisons on a granted slot's value. `contains`: a string holds a substring / an array an element. */
export const SLOT_OPS = ['==', '!=', '<', '<=', '>', '>=', 'contains'] as const;
export type SlotOp = (typeof SLOT_OPS)[number];

export interface FeatureInCondition {
  feature: string;
  in: FeatureValue[];
}
export interface FeatureEqCondition {
  feature: string;
  eq: FeatureValue;
}
export interface AllCondition {
  all: Condition[];
}
export interface AnyCondition {
  any: Condition[];
}
export interface NotCondition {
  not: Condition;
}
export interface SlotCondition {
  /** `container.slot` — the routing node must hold a grant to the container. */
  slot: string;
  /** JSON path into the slot's value: `$`, `$.x`, `$.items[0]`, `$["odd key"]`. */
  path: string;
  op: SlotOp;
  value: unknown;
}
export type Condition =
  FeatureInCondition | FeatureEqCondition | AllCondition | AnyCondition | NotCondition | SlotCondition;

export const FeatureInConditionSchema = z
  .object({ feature: z.string().min(1), in: z.array(FeatureValueSchema).min(1) })
  .strict();
export const FeatureEqConditionSchema = z
  .object({ feature: z.string().min(1), eq: FeatureValueSchema })
  .strict();
export const SlotConditionSchema = z
  .object({
    slot: z.string().regex(/^[^.]+\..+$/, 'slot must be "container.slot"'),
    path: z.string().regex(/^\$/, 'path must start with $'),
    op: z.enum(SLOT_OPS),
    value: z.unknown(),
  })
  .strict();

// Recursive through getters (zod 4), so the JSON Schema gets one $defs entry per combinator.
export const ConditionSchema: z.ZodType<Condition> = z.union([
  FeatureInConditionSchema,
  FeatureEqConditionSchema,
  z
    .object({
      get all() {
        return z.array(ConditionSchema).min(1);
      },
    })
    .strict(),
  z
    .object({
      get any() {
        return z.array(ConditionSchema).min(1);
      },
    })
    .strict(),
  z
    .object({
      get not() {
        return ConditionSchema;
      },
    })
    .strict(),
  SlotConditionSchema,
]) as unknown as z.ZodType<Condition>;

/**
 * What taking the edge may do to the features (checked against the state before the visit and the
 * node's proposals):
 * - `assign {f: v}`: taking the edge sets f to v (a proposal of another value for f is incompatible);
 * - `allow {f: [[from, to], …]}`: a proposed change of f must be one of these transitions
 *   (an unchanged f is always fine; an unset f cannot be initialised through allow);
 * - `"unconstrained"`: any proposal is accepted.
 * A feature neither assigned nor allowed must stay unchanged; an edge without effect changes nothing.
 */
export const EffectObjectSchema = z
  .object({
    assign: z.record(z.string(), FeatureValueSchema).optional(),
    allow: z.record(z.string(), z.array(z.tuple([FeatureValueSchema, FeatureValueSchema]))).optional(),
  })
  .strict();
export const EffectSchema = z.union([z.literal('unconstrained'), EffectObjectSchema]);
export type Effect = z.infer<typeof EffectSchema>;
export type EffectObject = z.infer<typeof EffectObjectSchema>;

/** The routing part of one edge as the extension block stores it. */
export const EdgeRouteSchema = z
  .object({ condition: ConditionSchema.optional(), effect: EffectSchema.optional() })
  .strict();
export type EdgeRoute = z.infer<typeof EdgeRouteSchema>;

/** The `x-statewire` block of one graph level (the file, or a composite's subgraph). */
export const StatewireBlockSchema = z
  .object({
    features: z.array(FeatureDefSchema).optional(),
    edges: z.record(z.string(), EdgeRouteSchema).optional(),
  })
  .strict()
  .describe(
    'Statewire extension block (ignored by the reference backend): feature declarations and the condition/effect of data edges by edge id',
  );
export type StatewireBlock = z.infer<typeof StatewireBlockSchema>;

/** The values of a domain, in order, or undefined when it has more than `limit`. */
export function domainValues(domain: FeatureDomain, limit = Infinity): FeatureValue[] | undefined {
  if (domain === 'bool') return [false, true];
  if ('enum' in domain) return domain.enum.length <= limit ? [...domain.enum] : undefined;
  const [lo, hi] = domain.int;
  if (hi - lo + 1 > limit) return undefined;
  const out: number[] = [];
  for (let v = lo; v <= hi; v++) out.push(v);
  return out;
}

export function domainSize(domain: FeatureDomain): number {
  if (domain === 'bool') return 2;
  if ('enum' in domain) return domain.enum.length;
  return domain.int[1] - domain.int[0] + 1;
}

/** Whether a value lies in a feature's domain (enum members compare with ===). */
export function inDomain(domain: FeatureDomain, value: unknown): value is FeatureValue {
  if (domain === 'bool') return typeof value === 'boolean';
  if ('enum' in domain) return domain.enum.some((v) => v === value);
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= domain.int[0] && value <= domain.int[1]
  );
}

export function describeDomain(domain: FeatureDomain): string {
  if (domain === 'bool') return 'bool';
  if ('enum' in domain) return `{${domain.enum.map((v) => JSON.stringify(v)).join(', ')}}`;
  return `int [${domain.int[0]}, ${domain.int[1]}]`;
}

export const isConditional = (e: { condition?: Condition }): boolean => e.condition !== undefined;
