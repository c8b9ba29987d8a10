// The first step where two runs' states differ — where a paired episode of two batches (same seed,
// two graph versions) parts ways. A step's state is its nav_step snapshot (containers and node-local
// state), the same the Compare view loads (`GET /api/runs/{id}/state`); "differ" is the Compare
// view's own verdict (stateDiff.ts: a slot or partition added, removed or changed, a reducer /
// value type / lifetime change, a node's local state changed), so the view opened at that step
// always has something to show. A step one run reached and the other did not differs too. Pure.
import type { ContainerSnapshot } from '../protocol/protocol.ts';
import { deepEqual } from '../state/reducers.ts';
import { diffNodeStates, diffStates } from './stateDiff.ts';

export interface StepState {
  step: number;
  containers: Record<string, ContainerSnapshot>;
  nodeStates?: Record<string, unknown>;
}

export interface FirstDifference {
  step: number;
  /** `state`: both runs have the step and their states differ; `only_a`/`only_b`: one run never reached it. */
  reason: 'state' | 'only_a' | 'only_b';
  /** `container.slot` of every slot that differs at that step (state only). */
  slots: string[];
  /** Node ids whose local state differs at that step (state only). */
  nodes: string[];
}

/** The newest snapshot of each step (a restore may have stored a step twice), by step. */
function byStep(states: readonly StepState[]): Map<number, StepState> {
  return new Map(states.map((s) => [s.step, s]));
}

/** What differs between two snapshots, in the Compare view's terms (empty lists: nothing). */
export function stateDifferences(a: StepState, b: StepState): { slots: string[]; nodes: string[] } {
  const sameContainers = deepEqual(a.containers, b.containers);
  const sameNodes = deepEqual(a.nodeStates ?? {}, b.nodeStates ?? {});
  const slots = sameContainers
    ? []
    : diffStates(a, b).flatMap((c) =>
        c.slots.filter((s) => s.status !== 'same').map((s) => `${c.id}.${s.slot}`),
      );
  const nodes = sameNodes
    ? []
    : diffNodeStates(a, b)
        .filter((k) => k.status !== 'same')
        .map((k) => k.key);
  return { slots, nodes };
}

/** The first step (ascending) where `a` and `b` differ; null when every step matches. */
export function firstDifference(a: readonly StepState[], b: readonly StepState[]): FirstDifference | null {
  const ma = byStep(a);
  const mb = byStep(b);
  const steps = [...new Set([...ma.keys(), ...mb.keys()])].sort((x, y) => x - y);
  for (const step of steps) {
    const sa = ma.get(step);
    const sb = mb.get(step);
    if (!sa || !sb) return { step, reason: sa ? 'only_a' : 'only_b', slots: [], nodes: [] };
    const d = stateDifferences(sa, sb);
    if (d.slots.length > 0 || d.nodes.length > 0) return { step, reason: 'state', ...d };
  }
  return null;
}
