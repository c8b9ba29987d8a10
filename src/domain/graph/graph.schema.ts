// The graph format as zod schemas: the single source of the TypeScript types (z.infer).
// These schemas describe the *normalized in-memory model*: every default of the reference backend's
// load (docs/reference-system.md §1.1–1.7) is filled in, so code never has to ask "is this key present?".
// Tolerance for real-world files (legacy keys, stray keys, warnings) lives in graph.parse.ts, and the
// reference's canonical save form (omitted defaults, key order) in graph.format.ts.
import { z } from 'zod';
import {
  ConditionSchema,
  EffectSchema,
  EXTENSION_KEY,
  FeatureDefSchema,
  StatewireBlockSchema,
  type FeatureDef,
} from '../routing/routing.schema.ts';

export const PositionSchema = z.object({ x: z.number(), y: z.number() });
export type Position = z.infer<typeof PositionSchema>;

/** Reducers the reference backend understands. */
export const REFERENCE_REDUCERS = ['accumulator', 'lastWrite', 'counter'] as const;
/** Seed-004 reducers we add; the reference backend would treat them as lastWrite. */
export const EXTENSION_REDUCERS = ['merge', 'union', 'byKey'] as const;
export const REDUCERS = [...REFERENCE_REDUCERS, ...EXTENSION_REDUCERS] as const;
export type ReducerName = (typeof REDUCERS)[number];
/** Reducers allowed as a byKey field policy (byKey does not nest). */
export const FIELD_REDUCERS = ['accumulator', 'lastWrite', 'counter', 'merge', 'union'] as const;

export const LIFETIMES = ['forever', 'step', 'episode', 'run', 'custom'] as const;
export type Lifetime = (typeof LIFETIMES)[number];

/** State value-type registry of the reference (memory-shaped types). */
export const STATE_VALUE_TYPES = [
  'TEXT',
  'BOOL',
  'METRICS',
  'POSE',
  'POINTCLOUD',
  'OCCUPANCY_MAP',
  'EMBEDDING',
  'EPISODE_CONTEXT',
  'ANY',
] as const;
/** Raw wire payload types a container may not hold; a run refuses them naming container and slot. */
export const REMOVED_VALUE_TYPES = [
  'STATE',
  'IMAGE',
  'DEPTH',
  'ACTION',
  'OBSERVATION',
  'STEP_RESULT',
] as const;

const JsonValueSchema: z.ZodType<unknown> = z.unknown();

/**
 * Slot config. Known keys are typed; any other key is kept verbatim (real files may carry more).
 * `fields` is our byKey policy: `{field: reducer}`.
 */
export const StateConfigSchema = z
  .object({
    initial_value: JsonValueSchema.optional(),
    max_size: z.number().int().positive().optional(),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .catchall(z.unknown());
export type StateConfig = z.infer<typeof StateConfigSchema>;

export const StateDefSchema = z.object({
  /** Reducer name. Kept as a free string: unknown names load (with a warning) and round-trip. */
  type: z.string().default('lastWrite'),
  value_type: z.string().default('ANY'),
  config: StateConfigSchema.default({}),
  /** Kept as a free string: unknown lifetimes load (warning: treated as forever). */
  lifetime: z.string().default('forever'),
  reset_on: z.array(z.string()).default([]),
});
export type StateDef = z.infer<typeof StateDefSchema>;

export const ContainerDefSchema = z.object({
  id: z.string().min(1),
  label: z.string().default(''),
  position: PositionSchema.default({ x: 0, y: 0 }),
  states: z.record(z.string(), StateDefSchema).default({}),
});
export type ContainerDef = z.infer<typeof ContainerDefSchema>;

export const GRAPH_STATE_ID = 'graph_state';

export const AccessGrantDefSchema = z.object({
  id: z.string().min(1),
  node_id: z.string().min(1),
  container_id: z.string().min(1),
});
export type AccessGrantDef = z.infer<typeof AccessGrantDefSchema>;

export const HOOK_EVENTS = [
  'PreNodeExecute',
  'PostNodeExecute',
  'GraphStart',
  'GraphComplete',
  'GraphError',
] as const;

export const HookDefSchema = z.object({
  event: z.string(),
  command: z.string(),
  match_node_type: z.string().default('*'),
  match_node_id: z.string().optional(),
  timeout_ms: z.number().default(1000),
  enabled: z.boolean().default(true),
});
export type HookDef = z.infer<typeof HookDefSchema>;

export const EdgeDefSchema = z.object({
  id: z.string().min(1),
  source: z.string().min(1),
  target: z.string().min(1),
  sourceHandle: z.string().default(''),
  targetHandle: z.string().default(''),
  /** Statewire routing (src/domain/routing): saved in the `x-statewire` block, not on the edge. */
  condition: ConditionSchema.optional(),
  effect: EffectSchema.optional(),
});
export type EdgeDef = z.infer<typeof EdgeDefSchema>;

/** One entry of iterIn `initPorts` or iterOut `ports`. */
export const LoopPortSchema = z
  .object({
    name: z.string().min(1),
    wire_type: z.string().optional(),
    persist: z.boolean().optional(),
    required: z.boolean().optional(),
  })
  .catchall(z.unknown());
export type LoopPort = z.infer<typeof LoopPortSchema>;

/** A synthesized iterIn port (docs/reference-system.md §1.9), always recomputed, never trusted from a file. */
export const SynthesizedPortSchema = z.object({
  name: z.string(),
  wire_type: z.string(),
  persist: z.boolean(),
  origin: z.enum(['init', 'iterOut']),
  writer_name: z.string(),
});
export type SynthesizedPort = z.infer<typeof SynthesizedPortSchema>;

/** Typed view of an iterIn's config (documentation + JSON Schema; node config itself stays open). */
export const IterInConfigSchema = z
  .object({
    version: z.number().optional(),
    pairedWith: z.string().optional(),
    initPorts: z.array(LoopPortSchema).default([]),
    ports: z.array(SynthesizedPortSchema).optional(),
    step_budget: z.number().int().nullable().optional(),
  })
  .catchall(z.unknown());
export type IterInConfig = z.infer<typeof IterInConfigSchema>;

export const IterOutConfigSchema = z
  .object({
    pairedWith: z.string().optional(),
    ports: z.array(LoopPortSchema).default([]),
  })
  .catchall(z.unknown());
export type IterOutConfig = z.infer<typeof IterOutConfigSchema>;

export const NodeConfigSchema = z.record(z.string(), z.unknown());
export type NodeConfig = z.infer<typeof NodeConfigSchema>;

export interface NodeDef {
  id: string;
  type: string;
  label: string;
  position: Position;
  config: NodeConfig;
  subgraph?: GraphDef;
}

export interface GraphDef {
  name: string;
  description: string;
  nodes: NodeDef[];
  edges: EdgeDef[];
  containers: ContainerDef[];
  access_grants: AccessGrantDef[];
  hooks: HookDef[];
  step_budget: number | null;
  eval_graph: boolean;
  kind: 'graph' | 'node';
  group: string;
  presetId: string | null;
  /** Statewire routing features (src/domain/routing); saved in the `x-statewire` block. */
  features?: FeatureDef[];
}

// Recursive schemas (a composite node's subgraph is a whole graph). zod 4 resolves the cycle
// through getters; the explicit interfaces above keep the inferred types readable.
export const NodeDefSchema: z.ZodType<NodeDef, unknown> = z.object({
  id: z.string().min(1),
  type: z.string().default('unknown'),
  label: z.string().default(''),
  position: PositionSchema.default({ x: 0, y: 0 }),
  config: NodeConfigSchema.default({}),
  get subgraph() {
    return GraphDefSchema.optional();
  },
}) as unknown as z.ZodType<NodeDef, unknown>;

export const DEFAULT_STEP_BUDGET = 500;
/** What the runtime uses when `step_budget` is explicitly null (the framework default). */
export const RUNTIME_DEFAULT_STEP_BUDGET = 1000;

export const GraphDefSchema: z.ZodType<GraphDef, unknown> = z.object({
  name: z.string().default(''),
  description: z.string().default(''),
  get nodes() {
    return z.array(NodeDefSchema).default([]);
  },
  edges: z.array(EdgeDefSchema).default([]),
  containers: z.array(ContainerDefSchema).default([]),
  access_grants: z.array(AccessGrantDefSchema).default([]),
  hooks: z.array(HookDefSchema).default([]),
  step_budget: z.number().int().nullable().default(DEFAULT_STEP_BUDGET),
  eval_graph: z.boolean().default(true),
  kind: z.enum(['graph', 'node']).default('graph'),
  group: z.string().default(''),
  presetId: z.string().nullable().default(null),
  features: z.array(FeatureDefSchema).optional(),
  // The saved form of `features` and the edges' condition/effect (graph.format.ts writes it, the
  // parser folds it back into the model). Declared here for the JSON Schema only: GraphDef has no
  // such key.
  [EXTENSION_KEY]: StatewireBlockSchema.optional(),
}) as unknown as z.ZodType<GraphDef, unknown>;

/** An empty graph with every default, for new documents and tests. */
export function emptyGraph(name = ''): GraphDef {
  return {
    name,
    description: '',
    nodes: [],
    edges: [],
    containers: [],
    access_grants: [],
    hooks: [],
    step_budget: DEFAULT_STEP_BUDGET,
    eval_graph: true,
    kind: 'graph',
    group: '',
    presetId: null,
  };
}
