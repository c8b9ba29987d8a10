// Checkpoints: the complete run state after a root step — container values (incl. keyed), node-local
// state, iterIn slots, scope counters, pending inputs, queue, step counter. Values are immutable
// (deep-frozen), so a checkpoint copies only the small records that index them: an unchanged value is
// shared by reference with every other checkpoint, and a long history costs memory in proportion to
// what changed (seed 003: durable progress without re-deriving it).
import type { ContainerState, StateContainer } from './container.ts';
import type { LiveState } from './executor.ts';
import { deepFreeze } from './freeze.ts';
import type { Checkpoint } from './run.api.ts';

export interface CheckpointState {
  v: 1;
  live: LiveState;
  containers: Record<string, ContainerState>;
}

const mapValues = <T, U>(r: Record<string, T>, f: (v: T) => U): Record<string, U> => {
  const out: Record<string, U> = {};
  for (const k of Object.keys(r)) out[k] = f(r[k]!);
  return out;
};

/** A frozen copy of the live state's indexes; the values inside are shared, not copied. */
export function captureLive(L: LiveState): LiveState {
  return deepFreeze({
    ...L,
    queue: [...L.queue],
    pending: { ...L.pending },
    slots: { ...L.slots },
    arrived: { ...L.arrived },
    scopes: { ...L.scopes },
    nodeStates: { ...L.nodeStates },
    errors: [...L.errors],
  });
}

/** A mutable live state from a checkpoint (outer records copied; inner values stay frozen). */
export function thawLive(L: LiveState): LiveState {
  return {
    ...L,
    queue: [...L.queue],
    pending: { ...L.pending },
    slots: { ...L.slots },
    arrived: { ...L.arrived },
    scopes: mapValues(L.scopes, (s) => ({ ...s })),
    carry: { ...L.carry },
    latches: { ...L.latches },
    harvest: { ...L.harvest },
    nodeStates: { ...L.nodeStates },
    errors: [...L.errors],
    // Checkpoints from before routing existed have no features: every feature then reads unset.
    features: L.features ?? {},
  };
}

export function makeCheckpoint(L: LiveState, containers: ReadonlyMap<string, StateContainer>): Checkpoint {
  const cs: Record<string, ContainerState> = {};
  for (const [id, c] of containers) cs[id] = c.checkpoint();
  const state: CheckpointState = { v: 1, live: captureLive(L), containers: cs };
  return Object.freeze({ step: L.step, state: Object.freeze(state) });
}

export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

/** Validates the shape of a (possibly JSON round-tripped) checkpoint and freezes it. */
export function readCheckpoint(cp: Checkpoint): CheckpointState {
  const s = cp.state as Partial<CheckpointState> | null;
  if (!s || typeof s !== 'object' || s.v !== 1 || !s.live || !s.containers) {
    throw new CheckpointError(
      `checkpoint for step ${cp.step} has an unknown shape (expected {v:1, live, containers})`,
    );
  }
  return deepFreeze(s as CheckpointState);
}

/** Restores containers and returns a fresh mutable live state. */
export function applyCheckpoint(cp: Checkpoint, containers: ReadonlyMap<string, StateContainer>): LiveState {
  const s = readCheckpoint(cp);
  for (const [id, c] of containers) {
    const st = s.containers[id];
    if (st) c.restore(st);
    else c.clear();
  }
  return thawLive(s.live);
}
