// The node handler contract: what a built-in or plugin node type implements. Handlers see exactly
// their granted containers, their own node-local state (docs/architecture.md "Run state and durability") and a few run services.
import type { FeatureValue } from '../domain/routing/routing.schema.ts';
import type { FireList } from './dynamic.ts';

/** A granted container as a node sees it (bound to the node, so writes are attributed to it). */
export interface ContainerHandle {
  /** The id the node's own graph uses for this container. */
  readonly id: string;
  read(slot: string, key?: string): unknown;
  /** Folds `value` into the slot with its reducer; returns the new value. */
  write(slot: string, value: unknown, key?: string): unknown;
  /** Drops `key` from every keyed slot; returns the slots that had a partition for it. */
  evict(key: string): string[];
  slots(): string[];
}

export interface LlmRequest {
  system: string;
  prompt: string;
  temperature: number;
  max_tokens: number;
  n: number;
  model?: string;
}

export interface LlmResponse {
  texts: string[];
  usage: Record<string, unknown>;
}

export interface LlmProvider {
  readonly name: string;
  /** `signal`: the run was stopped; give up the call (its answer would be dropped). */
  complete(req: LlmRequest, signal?: AbortSignal): Promise<LlmResponse>;
}

/** A log/error event reported by a node (e.g. pushed by a node service); not a node failure. */
export interface NodeReport {
  severity: 'error' | 'warning' | 'info' | 'debug';
  message: string;
  code?: string;
  details?: Record<string, unknown>;
}

export interface NodeContext {
  readonly node: { id: string; type: string; label: string; config: Readonly<Record<string, unknown>> };
  /** The run this fire belongs to (node services get it as `_exec.execution_id`). */
  readonly runId: string;
  /** Root step in progress (1-based; the completed count once the loop has ended). */
  readonly step: number;
  /** Iterations completed by the node's own loop scope. */
  readonly scopeStep: number;
  readonly scopeId: string;
  /** Exactly the granted containers, keyed by id; indexing an ungranted id throws a GrantError. */
  readonly containers: Readonly<Record<string, ContainerHandle>>;
  /** The graph_state container, only with a grant to it. */
  readonly graph_state: ContainerHandle | null;
  container(id: string): ContainerHandle;
  /** Node-local state (frozen); replace it by returning `{state}`. */
  readonly state: unknown;
  emitSignal(name: string, payload?: unknown): void;
  /**
   * Proposes a routing feature value (docs/routing.md). The outgoing edge taken when the visit ends
   * must accept it (assign, allow or unconstrained effect), else the run fails without committing the
   * step. Throws at once for an undeclared feature, a value outside its domain, or null (no reset).
   */
  proposeFeature(name: string, value: FeatureValue): void;
  emitViewer(fields: Record<string, unknown>): void;
  /** Reports LLM usage (`llm_usage` event). */
  reportUsage(usage: Record<string, unknown>): void;
  log(message: string): void;
  /** Emits an `error_event` of the given severity for this node; the node keeps running. */
  report(event: NodeReport): void;
  /**
   * Runs an external call once per idempotency key (recorded/replayed through RunOptions.effects;
   * effects.ts). `perform` gets the key to send along (a service's `_exec.call_id`); `kind` names
   * the call's kind in the record (`llm` by default, `service`).
   */
  effect<T>(request: unknown, perform: (key: string) => Promise<T>, kind?: string): Promise<T>;
  readonly llm: LlmProvider;
  now(): number;
  /**
   * Aborted when the run is stopped. A handler waiting on I/O (a node service, an LLM endpoint)
   * passes it on, so a stop never waits for a slow answer; whatever the fire then returns or
   * throws is dropped (the node did not fire).
   */
  readonly signal: AbortSignal;
}

export type NodeOutputs = Record<string, unknown>;

export interface HandlerResult {
  outputs: NodeOutputs;
  /** New node-local state; omit to keep the current one. */
  state?: unknown;
  /** Dynamic children to fire now, in order (docs/reference-system.md §3.12); see dynamic.ts. */
  fireList?: FireList;
}

export interface NodeHandler {
  /** Initial node-local state (called once at run start; frozen by the engine). */
  initState?(node: { id: string; config: Readonly<Record<string, unknown>> }): unknown;
  fire(inputs: Readonly<Record<string, unknown>>, ctx: NodeContext): HandlerResult | Promise<HandlerResult>;
}

/** Plugins may also export a bare function returning outputs. */
export type HandlerInput =
  | NodeHandler
  | ((inputs: Readonly<Record<string, unknown>>, ctx: NodeContext) => NodeOutputs | Promise<NodeOutputs>);

export function toHandler(h: HandlerInput): NodeHandler {
  if (typeof h === 'function') return { fire: async (inputs, ctx) => ({ outputs: await h(inputs, ctx) }) };
  return h;
}

export const cfgString = (config: Readonly<Record<string, unknown>>, key: string, dflt = ''): string =>
  typeof config[key] === 'string' ? (config[key] as string) : dflt;
export const cfgNumber = (config: Readonly<Record<string, unknown>>, key: string, dflt: number): number =>
  typeof config[key] === 'number' && Number.isFinite(config[key]) ? (config[key] as number) : dflt;
