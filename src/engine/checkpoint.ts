// Checkpoints: the complete run state after a root step — container values (incl. keyed), node-local
// state, iterIn slots, scope counters, pending inputs, queue, step counter. Values are immutable
// (deep-frozen), so a checkpoint copies only the small records that index them: an unchanged value is
// shared by reference with every other checkpoint, and a long history costs memory in proportion to
// what changed (durable progress without re-deriving it: docs/architecture.md "Run state and durability").
import type { ContainerState, StateContainer } from './container.ts';
import type { LiveState } from './liveState.ts';
import { deepFreeze } from './freeze.ts';
import type { Checkpoint } from './run.api.ts';
import { sameEntries, share, ShareMemo } from './share.ts';
import type { TextPool } from './texts.ts';

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

/** Freezes the entries of a record the executor keeps mutating (the record itself stays mutable). */
function freezeEntries<T extends object>(r: T): T {
  for (const v of Object.values(r)) deepFreeze(v);
  return r;
}

/**
 * A frozen copy of the live state's indexes; the values inside are shared, not copied. With `prev`
 * (the previous checkpoint's live state), every record equal to its counterpart there is shared with
 * it (share.ts), so a step retains only the records it changed.
 */
export function captureLive(L: LiveState, prev?: LiveState, memo: ShareMemo = new ShareMemo()): LiveState {
  const own = <T extends object>(r: T, p: T | undefined): T => share(freezeEntries(r), p, true, memo);
  // carry/latches/harvest/features are replaced, never edited in place: freezing them is safe.
  const kept = <T>(v: T, p: T | undefined): T => share(deepFreeze(v), p, false, memo);
  // Spelled out rather than spread from L: a spread object, frozen, gets a hidden class of its own
  // per checkpoint (share.ts), which would cost more than the record itself.
  return Object.freeze({
    step: L.step,
    firings: L.firings,
    phase: L.phase,
    status: L.status,
    queue: own(L.queue, prev?.queue),
    pending: own(L.pending, prev?.pending),
    slots: own(L.slots, prev?.slots),
    arrived: own(L.arrived, prev?.arrived),
    scopes: own(L.scopes, prev?.scopes),
    carry: kept(L.carry, prev?.carry),
    latches: kept(L.latches, prev?.latches),
    harvest: kept(L.harvest, prev?.harvest),
    nodeStates: own(L.nodeStates, prev?.nodeStates),
    errors: own(L.errors, prev?.errors),
    errorCount: L.errorCount,
    rootTerminated: L.rootTerminated,
    features: kept(L.features, prev?.features),
  });
}

/**
 * Points the executor's live records at the checkpoint's equal, shared ones, so the next capture
 * finds them identical (a reference check) instead of comparing their content again.
 */
export function adoptCaptured(L: LiveState, captured: LiveState): void {
  for (const map of ['pending', 'slots', 'arrived', 'scopes', 'nodeStates'] as const) {
    const mine = L[map] as Record<string, unknown>;
    const theirs = captured[map] as Record<string, unknown>;
    for (const k of Object.keys(theirs)) mine[k] = theirs[k];
  }
  for (let i = 0; i < captured.errors.length; i++) L.errors[i] = captured.errors[i]!;
  L.carry = captured.carry;
  L.latches = captured.latches;
  L.harvest = captured.harvest;
  L.features = captured.features;
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

/**
 * The checkpoint of the current state. `prev`: the state of the checkpoint before it (the last one
 * taken or restored), whose records the new one shares wherever they are equal. `texts`: the run's
 * text pool, whose copy of a repeated text the checkpoint keeps instead of the step's own.
 */
export function makeCheckpoint(
  L: LiveState,
  containers: ReadonlyMap<string, StateContainer>,
  prev?: CheckpointState,
  texts?: TextPool,
): Checkpoint {
  // One memo for the whole capture: a value both a container and the live state hold is kept once.
  // The live state goes first: its records (an iterOut's harvest) have counterparts in the previous
  // step where a container list's newest entry has none, so what is made of such a value there
  // shares the most with the previous step.
  const memo = new ShareMemo(texts);
  const live = captureLive(L, prev?.live, memo);
  const cs: Record<string, ContainerState> = {};
  for (const [id, c] of containers) cs[id] = share(c.checkpoint(), prev?.containers[id], false, memo);
  const shared = prev && sameEntries(cs, prev.containers) ? prev.containers : Object.freeze(cs);
  const state: CheckpointState = { v: 1, live, containers: shared };
  adoptCaptured(L, state.live);
  for (const [id, c] of containers) c.adopt(shared[id]!);
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
