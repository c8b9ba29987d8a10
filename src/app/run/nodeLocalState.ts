// Node-local state (a handler's own state: the env's episode and pose, a policy's counters, a
// history's lines) as the run shows it: the live step's during a run, the inspected step's while
// the timeline inspects one (full values once fetched). The timeline's value table and the node
// inspector read it from here, so both show the same step.
import { useEditor } from '../store/editor.store.ts';
import { liveStep, shownPartial, useRun, type RunState } from './run.store.ts';

// A selector must return a stable object: a fresh `{}` per call would loop useSyncExternalStore.
const NO_NODE_STATES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** Every node's local state at the shown step (the inspected one, else the latest). */
export function shownNodeStates(s: RunState): Record<string, unknown> {
  if (s.inspectedStep === null)
    return shownPartial(s)?.nodeStates ?? s.snapshots[s.step]?.nodeStates ?? NO_NODE_STATES;
  if (s.inspected?.step === s.inspectedStep) return s.inspected.nodeStates;
  return s.snapshots[s.inspectedStep]?.nodeStates ?? NO_NODE_STATES;
}

export interface NodeLocalStateView {
  value: unknown;
  /** The step the value belongs to. */
  step: number;
  /** True while the timeline inspects a step (else the value is the live one). */
  inspecting: boolean;
}

/** One node's local state at the shown step, for the followed run of the active tab; undefined if none. */
export function useNodeLocalState(nodeId: string): NodeLocalStateView | undefined {
  const runTab = useRun((s) => s.tabId);
  const activeTabId = useEditor((s) => s.activeTabId);
  const value = useRun((s) => shownNodeStates(s)[nodeId]);
  const step = useRun((s) => s.inspectedStep ?? liveStep(s));
  const inspecting = useRun((s) => s.inspectedStep !== null);
  if (value === undefined || (runTab !== null && runTab !== activeTabId)) return undefined;
  return { value, step, inspecting };
}
