// For canvas nodes: the live status of one node of the followed run (idle/queued/running/done/error,
// with duration and error), its latest viewer line, the last event it reported and whether a
// breakpoint stopped at it, selected by id so only that node re-renders when they change.
import { useShallow } from 'zustand/react/shallow';
import { useEditor } from '../store/editor.store.ts';
import { useRun, viewerLineOf, type NodeReport, type NodeRunStatus, type ViewerLine } from './run.store.ts';

export interface NodeRun {
  status: NodeRunStatus | undefined;
  viewer: ViewerLine | undefined;
  /** The last event the node reported (e.g. pushed by its node service). */
  report: NodeReport | undefined;
  /** The node a breakpoint stopped before, or the writer of the slot a breakpoint hit. */
  atBreakpoint: boolean;
}

/**
 * Everything a canvas node shows of the run, in one run-store subscription (shallow-compared): a
 * thousand nodes mount and check a thousand subscriptions, not six thousand (status and viewer line
 * each took three, the breakpoint one more).
 */
export function useNodeRun(nodeId: string): NodeRun {
  const activeTabId = useEditor((s) => s.activeTabId);
  return useRun(
    useShallow((s): NodeRun => {
      const followed = s.tabId === null || s.tabId === activeTabId;
      return {
        status: followed ? s.nodeStatus[nodeId] : undefined,
        viewer: followed ? viewerLineOf(s, nodeId) : undefined,
        report: followed ? s.nodeReports[nodeId] : undefined,
        atBreakpoint: s.breakpointHit?.node_id === nodeId,
      };
    }),
  );
}
