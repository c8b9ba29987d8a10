// The live protocol: every event the engine emits, the server logs and broadcasts over socket.io,
// `statewire run --json` prints, and the app applies. One schema per event type; names follow the
// reference (docs/reference-system.md §4.2) where it has them. Envelope: {type, runId, seq, ts, data}.
import { BreakpointHitSchema } from '../debug/breakpoints.ts';
import { FeatureValueSchema } from '../routing/routing.schema.ts';
import { z } from 'zod';

export const RunStatusSchema = z.enum([
  'idle',
  'running',
  'paused',
  'done',
  'error',
  'stopped',
  'interrupted',
]);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const ClearedRefSchema = z.object({
  container: z.string(),
  slot: z.string(),
  key: z.string().optional(),
});
export type ClearedRef = z.infer<typeof ClearedRefSchema>;

/** One slot in a snapshot: the reference's preview shape plus `lifetime` and the full `value`. */
export const SlotSnapshotSchema = z.object({
  type: z.string(),
  value_type: z.string(),
  lifetime: z.string(),
  /** Full value (unkeyed template slot). */
  value: z.unknown().optional(),
  size: z.number().optional(),
  preview: z.string().optional(),
  /** Keyed partitions: count in `keys`, values in `keyed` (full values). */
  keys: z.number().optional(),
  keyed: z.record(z.string(), z.unknown()).optional(),
});
export type SlotSnapshot = z.infer<typeof SlotSnapshotSchema>;

export const ContainerSnapshotSchema = z.object({
  label: z.string(),
  owner: z.string(),
  states: z.record(z.string(), SlotSnapshotSchema),
});
export type ContainerSnapshot = z.infer<typeof ContainerSnapshotSchema>;

/** Routing features (src/domain/routing) by name: every declared feature, `null` while unset. */
export const FeatureValuesSchema = z
  .record(z.string(), FeatureValueSchema.nullable())
  .describe('every declared routing feature by name; null while unset');
export type FeatureValues = z.infer<typeof FeatureValuesSchema>;

/** Engine-emitted: `running` at start, `error` at an error end, `stopped` after stop(); hosts add paused/idle. */
export const NavStatusDataSchema = z.object({
  status: RunStatusSchema,
  step: z.number().int(),
  error: z.string().optional(),
});

/**
 * One per root step (a DAG run is one step). `containers` is taken *before* that step's `step_end`
 * clear, so step-lifetime slots show what the step wrote; `cleared` lists what `step_end` then cleared
 * (the checkpoint of the step is the state after that clear). Reference top-level fields (`action`,
 * `action_name`, `position`, `orientation`, `metrics`, `response`) are added from graphOut ports.
 */
export const NavStepDataSchema = z
  .object({
    step: z.number().int(),
    containers: z.record(z.string(), ContainerSnapshotSchema),
    nodeStates: z.record(z.string(), z.unknown()),
    /** Routing features at the end of the step (none declared: `{}`). */
    features: FeatureValuesSchema.default({}),
    cleared: z.array(ClearedRefSchema),
    /** graphOut harvest keyed by portName (the reference puts these at top level; we keep both). */
    outputs: z.record(z.string(), z.unknown()).default({}),
    done: z.boolean().default(false),
  })
  .catchall(z.unknown());
export type NavStepData = z.infer<typeof NavStepDataSchema>;

export const NavCompleteDataSchema = z.object({
  step: z.number().int(),
  metrics: z.record(z.string(), z.unknown()).default({}),
  terminated: z.boolean().default(true),
});

export const NodeStatusSchema = z.enum(['idle', 'queued', 'running', 'done', 'error']);
export const NodeStatusDataSchema = z.object({
  node_id: z.string(),
  status: NodeStatusSchema,
  step: z.number().int(),
  duration_ms: z.number().optional(),
  error: z.string().optional(),
});

export const SignalDataSchema = z.object({
  signal: z.string(),
  /** Scope id: the iterIn id of the loop scope that emitted it, "" for the graph scope. */
  scope: z.string(),
  payload: z.unknown().optional(),
  cleared: z.array(ClearedRefSchema),
});

export const StateWrittenDataSchema = z.object({
  node_id: z.string(),
  grant_id: z.string().optional(),
  container: z.string(),
  slot: z.string(),
  key: z.string().optional(),
  reducer: z.string(),
  step: z.number().int(),
  before: z.unknown(),
  after: z.unknown(),
});

export const ExecLogDataSchema = z.object({
  step: z.number().int(),
  node_id: z.string(),
  node_type: z.string(),
  node_label: z.string(),
  duration_ms: z.number(),
  queue_wait_ms: z.number().default(0),
  compute_ms: z.number().default(0),
  error: z.string().nullable().default(null),
  has_inner_log: z.boolean().default(false),
  /** Set for dynamic fire-list children (`<spawner>::dyn<i>`). */
  parent_node_id: z.string().optional(),
  dynamic_index: z.number().int().optional(),
});

export const ViewerDataSchema = z.object({
  node_id: z.string(),
  step: z.number().int(),
  fields: z.record(z.string(), z.unknown()),
});

export const ErrorEnvelopeSchema = z.object({
  id: z.string(),
  ts: z.string(),
  severity: z.enum(['error', 'warning', 'info', 'debug']),
  source: z.enum(['node', 'graph', 'api', 'ws', 'frontend', 'plugin', 'eval', 'log']),
  code: z.string(),
  title: z.string(),
  message: z.string(),
  scope: z.record(z.string(), z.unknown()).default({}),
  details: z.record(z.string(), z.unknown()).default({}),
  hint: z.string().default(''),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** Full run state at a step (what restore rebuilds and GET /api/runs/{id}/state returns). */
export const RunStateSchema = z.object({
  step: z.number().int(),
  containers: z.record(z.string(), ContainerSnapshotSchema),
  nodeStates: z.record(z.string(), z.unknown()),
  features: FeatureValuesSchema.default({}),
});

/**
 * A breakpoint hit (src/domain/debug/breakpoints.ts). When it pauses the run inside a root step (a
 * data hit, before the next node fires; a node breakpoint), `state` is the run's state there: the
 * last completed step's plus what this step did so far, the hit's write included, with `step` the
 * step in progress. Views show it as the current state while the run is paused there. A hit at the
 * end of a step has no `state` (that step's nav_step is it).
 */
export const BreakpointHitEventSchema = BreakpointHitSchema.extend({ state: RunStateSchema.optional() });

/** One outgoing edge of a routed port as the route decision saw it. */
export const RouteCandidateSchema = z.object({
  edge_id: z.string(),
  target: z.string(),
  /** The condition against the state before the visit (true for an edge without condition). */
  condition_holds: z.boolean(),
  /** The effect against that state and the node's proposals (true for no effect and no change). */
  effect_ok: z.boolean(),
  /** The condition as text (`phase == explore`); absent without condition. */
  condition: z.string().optional(),
  /** The effect as text (`assign phase=exploit`); absent without effect. */
  effect: z.string().optional(),
  /** Why the effect refused the proposals (when effect_ok is false). */
  effect_reason: z.string().optional(),
});
export type RouteCandidate = z.infer<typeof RouteCandidateSchema>;

/**
 * A route decision: when a node with a routed port (an output with an edge carrying a condition or
 * an effect) finished its visit, exactly one compatible edge of that port was found and taken; the
 * others did not deliver. One event per routed port and visit. A failed decision (none or several
 * compatible) is an error_event (`ROUTE_MISSING`, `ROUTE_AMBIGUOUS`, `ROUTE_UNSET_FEATURE`, …) instead.
 */
export const RouteDataSchema = z.object({
  step: z.number().int(),
  node_id: z.string(),
  /** The source handle ("default" for the whole result). */
  port: z.string(),
  edge_id: z.string(),
  taken: z.literal(true),
  /** `<condition text> with <feature values it read>`, e.g. `phase == explore with phase=explore`. */
  reason: z.string(),
  candidates: z.array(RouteCandidateSchema),
  /** Features before the visit and after the taken edge's effect. */
  before: FeatureValuesSchema,
  after: FeatureValuesSchema,
});
export type RouteData = z.infer<typeof RouteDataSchema>;

export const RestoredDataSchema = RunStateSchema.extend({ restored_to: z.number().int() });
export const GapDataSchema = z.object({ fromSeq: z.number().int(), toSeq: z.number().int() });
export const EffectDataSchema = z.object({
  node_id: z.string(),
  step: z.number().int(),
  key: z.string(),
  /**
   * `recorded`: a fresh call whose response was stored; `replayed`: this run's own stored response
   * (a resume, a restore); `reused`: the parent run's answer to the same call, taken by a fork
   * (docs/replay.md "Re-run without paying twice") and recorded as the fork's own.
   */
  mode: z.enum(['recorded', 'replayed', 'reused']),
  /** `reused`: the run and the call key the answer was recorded under. */
  from: z.object({ run_id: z.string(), key: z.string() }).optional(),
});
export const LlmUsageDataSchema = z.object({
  node_id: z.string(),
  step: z.number().int(),
  usage: z.record(z.string(), z.unknown()),
});

/** How a run ended, as its `run_result` says (a subset of RunStatus). */
export const RunEndStatusSchema = z.enum(['done', 'error', 'stopped', 'interrupted']);
export type RunEndStatus = z.infer<typeof RunEndStatusSchema>;

/**
 * The last event of a run's stream (`statewire run --json` prints it as its last line; the server
 * logs it when the run ends), so a script reads a run's results without replaying events.
 * - `status`: how it ended — `done` (stop signal, budget or drained), `error`, `stopped` (stop
 *   request or the host's step limit, see `stepLimit`), `interrupted` (server shut down; restorable).
 * - `steps`: root steps completed.
 * - `outputs`: each top-level graphOut's last value by `portName` (null if it never received one).
 * - `containers`: every container's final values, `{container: {slot: value}}`, taken after the
 *   after-loop band and before `run_end` clears `run`-lifetime slots; full values (not previews).
 *   A slot holding keyed partitions is `{key: value}` of its partitions and is named in `keyed`.
 * - `keyed`: `{container: [slot, …]}` for the slots reported as partitions (`{}` when none).
 * - `error`: the reason, when `status` is `error`.
 * - `stepLimit`: set when the host stopped the run at its step limit (`statewire run --steps N`).
 */
export const RunResultDataSchema = z
  .object({
    status: RunEndStatusSchema.describe('how the run ended'),
    steps: z.number().int().nonnegative().describe('root steps completed'),
    outputs: z
      .record(z.string(), z.unknown())
      .describe("each top-level graphOut's last value by portName (null if it never received one)"),
    containers: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .describe(
        '{container: {slot: value}}: final full values, before run_end clears run-lifetime slots; a keyed slot is {key: value}',
      ),
    keyed: z
      .record(z.string(), z.array(z.string()))
      .default({})
      .describe('{container: [slot]}: the slots reported as {key: value} partitions'),
    error: z.string().optional().describe('the reason, when status is error'),
    stepLimit: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('the host step limit that stopped the run (statewire run --steps N)'),
  })
  .describe('run_result: the last event of a run (outputs and final container values)');
export type RunResultData = z.infer<typeof RunResultDataSchema>;

export const EVENT_DATA_SCHEMAS = {
  nav_status: NavStatusDataSchema,
  nav_step: NavStepDataSchema,
  nav_complete: NavCompleteDataSchema,
  node_status: NodeStatusDataSchema,
  signal: SignalDataSchema,
  state_written: StateWrittenDataSchema,
  exec_log: ExecLogDataSchema,
  viewer_data: ViewerDataSchema,
  error_event: ErrorEnvelopeSchema,
  restored: RestoredDataSchema,
  gap: GapDataSchema,
  effect: EffectDataSchema,
  llm_usage: LlmUsageDataSchema,
  run_result: RunResultDataSchema,
  breakpoint_hit: BreakpointHitEventSchema,
  route: RouteDataSchema,
} as const;

export type EventType = keyof typeof EVENT_DATA_SCHEMAS;
export const EVENT_TYPES = Object.keys(EVENT_DATA_SCHEMAS) as EventType[];
export type EventData<T extends EventType> = z.input<(typeof EVENT_DATA_SCHEMAS)[T]>;

/** What the engine emits (the host stamps runId/seq/ts). */
export type EngineEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

/** What travels on the socket, in the log and in `statewire run --json`. */
export const EventEnvelopeSchema = z.object({
  type: z.enum(EVENT_TYPES as [EventType, ...EventType[]]),
  runId: z.string(),
  seq: z.number().int().positive(),
  ts: z.string(),
  data: z.unknown(),
});
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;

// ---- client → server socket messages ----
export const SubscribeMessageSchema = z.object({
  runId: z.string().optional(),
  afterSeq: z.number().int().nonnegative().optional(),
  /** Ask for full slot values in nav_step (default: previews only, as the reference). */
  fullValues: z.boolean().optional(),
  /**
   * Receive `events` messages (one run's envelopes in seq order, packed in columns: `{runId, t0,
   * seq, type, dt, data}`, packedEvents.ts) instead of one message per envelope: one socket frame per
   * page or per committed batch, which is what lets hundreds of viewers follow a fast run. A replay
   * batch is followed by an empty batch asking for a socket.io ack: call it once what came before is
   * applied; the server keeps at most two unacknowledged batches per client (an ack that never comes
   * counts as given after 10 s).
   */
  batch: z.boolean().optional(),
});
export type SubscribeMessage = z.infer<typeof SubscribeMessageSchema>;
