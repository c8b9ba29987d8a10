// The executor's live state, in a module of its own so the executor, the run context (which builds
// the initial one), checkpoints and the run result share the one shape without importing each other.
// What a run fixes at build lives apart, in RunContext.
import type { RunStatus } from '../domain/protocol/protocol.ts';
import type { FeatureState } from '../domain/routing/routing.eval.ts';

/** One loop scope (keyed by its iterIn id). */
export interface ScopeState {
  /** Iterations completed since the scope was (re)entered. */
  counter: number;
  terminated: boolean;
  /** Its iterIn has fired and its iterOut not yet ended it. */
  active: boolean;
}

/** Everything that decides what happens next; a checkpoint is a frozen copy of it plus containers. */
export interface LiveState {
  /** Root steps completed. */
  step: number;
  /** Fires so far, against the runaway cap. */
  firings: number;
  phase: 'init' | 'loop' | 'after' | 'finished';
  status: RunStatus;
  /** Node ids ready to fire, first in first out. */
  queue: string[];
  /** Inputs delivered to a node (by port) and not yet consumed by its fire. */
  pending: Record<string, Record<string, unknown>>;
  /** An iterIn's input slots; persistent ports keep theirs across iterations. */
  slots: Record<string, Record<string, unknown>>;
  /** The handles delivered to an iterIn since it last fired. */
  arrived: Record<string, string[]>;
  scopes: Record<string, ScopeState>;
  /** An iterOut's carried values, for its final side. */
  carry: Record<string, Record<string, unknown>>;
  /** Inner-scope graphOut values held until their scope terminates. */
  latches: Record<string, unknown>;
  /** graphOut values by portName (nav_step outputs, run_result). */
  harvest: Record<string, unknown>;
  /** Node-local state (handler `initState` / `{state}`). */
  nodeStates: Record<string, unknown>;
  errors: { node_id: string; message: string }[];
  /** error_events emitted (numbers their ids). */
  errorCount: number;
  /** Every root loop has ended: only the graph-scope after-loop band may still fire. */
  rootTerminated: boolean;
  /** Routing features: every declared one, null while unset (routing.ts). */
  features: FeatureState;
}
