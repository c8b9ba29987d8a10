// The `run_result` payload (protocol.ts RunResultDataSchema): a run's outputs and final container
// values in one object, so a script or CI job reads results without replaying the event stream.
// Pure: built from the run context, the live state and the container states the caller picks.
import type { RunEndStatus, RunResultData } from '../domain/protocol/protocol.ts';
import type { ContainerState } from './container.ts';
import type { LiveState } from './liveState.ts';
import type { RunContext } from './runContext.ts';

export interface RunEnd {
  status?: RunEndStatus;
  error?: string;
  stepLimit?: number;
}

/** portNames of the graph's own graphOuts (not those inside composites), in node order. */
function topLevelOutputs(rc: RunContext): string[] {
  const names: string[] = [];
  for (const n of rc.flat.nodes) {
    if (n.type !== 'graphOut' || rc.flat.compositePath.has(n.id)) continue;
    const port = typeof n.config.portName === 'string' && n.config.portName ? n.config.portName : 'output';
    if (!names.includes(port)) names.push(port);
  }
  return names;
}

export function buildRunResult(
  rc: RunContext,
  live: LiveState,
  states: ReadonlyMap<string, ContainerState>,
  end: RunEnd & { status: RunEndStatus },
): RunResultData {
  const outputs: Record<string, unknown> = {};
  for (const port of topLevelOutputs(rc)) outputs[port] = live.harvest[port] ?? null;
  const containers: RunResultData['containers'] = {};
  const keyed: RunResultData['keyed'] = {};
  for (const [id, c] of rc.containers) {
    const state = states.get(id) ?? c.state;
    const slots: Record<string, unknown> = {};
    for (const s of c.slots) {
      const parts = state.keyed[s.name];
      if (parts && Object.keys(parts).length > 0) {
        slots[s.name] = parts;
        (keyed[id] ??= []).push(s.name);
      } else slots[s.name] = state.values[s.name] ?? null;
    }
    containers[id] = slots;
  }
  return {
    status: end.status,
    steps: live.step,
    outputs,
    containers,
    keyed,
    ...(end.status === 'error' && end.error !== undefined ? { error: end.error } : {}),
    ...(end.stepLimit !== undefined ? { stepLimit: end.stepLimit } : {}),
  };
}
