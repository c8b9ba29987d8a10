// The engine's public contract: what the server's run manager and the `statewire run` CLI drive.
// The engine is pure TypeScript over src/domain: no HTTP, sockets, database; clock and ids injected.
import type { GraphDef } from '../domain/graph/graph.schema.ts';
import type { EngineEvent, RunEndStatus, RunResultData, RunStatus } from '../domain/protocol/protocol.ts';
import type { Breakpoint, BreakpointHit } from '../domain/debug/breakpoints.ts';
import type { LlmProvider } from './handler.types.ts';
import type { NodeRegistry } from './registry.ts';
import type { EffectStore } from './effects.ts';

/** Receives every event in order. The host stamps runId/seq/ts and may persist before broadcasting. */
export type EventSink = (event: EngineEvent) => void;

/** Recorded external effects (docs/architecture.md "Run state and durability"): the server stores them durably, keyed by an idempotency key. */
export type { EffectCall, EffectStore } from './effects.ts';

/** A complete, JSON-serializable run state after a root step (see checkpoint.ts). */
export interface Checkpoint {
  step: number;
  /** Opaque to hosts beyond being JSON; unchanged sub-objects are shared between checkpoints. */
  state: unknown;
}

/** The host's side of breakpoints (the server's run manager, the CLI's --break). */
export interface BreakpointHost {
  /** The breakpoints in force now (read as events happen, so an edit applies at once). */
  list(): readonly Breakpoint[];
  /**
   * A breakpoint hit inside a root step (its `breakpoint_hit` event is already emitted): the engine
   * fires nothing more until the promise resolves. A hit at the end of a root step does not call
   * this: `stepOnce` returns it instead, so the host pauses between steps (restorable, as any pause).
   */
  pause(hit: BreakpointHit): Promise<void>;
}

export interface RunOptions {
  runId: string;
  /** Injected clock (ms); defaults to Date.now in hosts, a fake clock in tests. */
  now?: () => number;
  /** Overrides graph.step_budget. */
  stepBudget?: number;
  /** Max checkpoints kept in memory; default: keep all. */
  retention?: number;
  /** Recorded effects; when absent every call is fresh and nothing is recorded. */
  effects?: EffectStore;
  /** Ignore recorded responses (still record the new ones). */
  freshEffects?: boolean;
  /** Identity of the run's lineage for effect keys (root run id; forks keep their parent's lineage). */
  lineage?: string;
  /** Start from this checkpoint instead of run start (fork / restore-into-new-engine). */
  fromCheckpoint?: Checkpoint;
  /** Node types (built-ins + plugins); default: `createRegistry()` (built-ins only). */
  registry?: NodeRegistry;
  /**
   * LLM provider for llmCall; default: the OpenAI-compatible endpoint named by STATEWIRE_LLM_BASE_URL /
   * STATEWIRE_LLM_MODEL (+ _API_KEY) when set, else the deterministic offline provider.
   */
  llm?: LlmProvider;
  /** Data and node breakpoints; none when absent. */
  breakpoints?: BreakpointHost;
}

/** `breakpoint`: a breakpoint hit by the step's last events; the host should pause before the next step. */
export interface StepOutcome {
  done: boolean;
  breakpoint?: BreakpointHit;
}

export interface EngineRun {
  /**
   * `idle` before the first step, `running` between steps, `paused` after a restore (resumable),
   * then `done` | `error` | `stopped` at the end. Hosts own `paused` in their own sense (the loop).
   */
  readonly status: RunStatus;
  /** Root steps completed so far. */
  readonly step: number;
  /**
   * Advance exactly one root step (one iteration of the outermost loop; a DAG is one step),
   * emitting its events. Resolves when the step is complete; `done` when the run ended.
   */
  stepOnce(): Promise<StepOutcome>;
  /** Request a stop; the current fire completes, then status becomes `stopped`. */
  stop(): void;
  /** Steps with a checkpoint held in memory, ascending. */
  checkpointSteps(): number[];
  checkpoint(step: number): Checkpoint | undefined;
  /**
   * Rewind to a checkpoint (from memory or given); later checkpoints are discarded and a `restored`
   * event carries the state. Throws a RangeError for an unknown step, and while a step is running.
   */
  restore(target: number | Checkpoint): void;
  /**
   * The `run_result` payload (protocol.ts): how the run ended, root steps, each top-level graphOut's
   * value by portName and every container's final values. Hosts emit it as the run's last event.
   * `end` overrides what the engine knows: the status (e.g. `stopped` while paused, `interrupted`),
   * the error text, or the host's step limit that stopped it.
   */
  result(end?: { status?: RunEndStatus; error?: string; stepLimit?: number }): RunResultData;
}

/** Builds a run for a graph (throws a typed BuildError naming container/slot/node on a bad graph). */
export type CreateRun = (graph: GraphDef, options: RunOptions, sink: EventSink) => EngineRun;
