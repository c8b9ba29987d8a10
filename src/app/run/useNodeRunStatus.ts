// For canvas nodes: the live status of one node of the followed run (idle/queued/running/done/error,
// with duration and error), selected by id so only that node re-renders when it changes.
import { useEditor } from '../store/editor.store.ts';
import { useRun, viewerLineOf, type NodeRunStatus, type ViewerLine } from './run.store.ts';

export function useNodeRunStatus(nodeId: string): NodeRunStatus | undefined {
  const runTab = useRun((s) => s.tabId);
  const activeTabId = useEditor((s) => s.activeTabId);
  const status = useRun((s) => s.nodeStatus[nodeId]);
  return runTab === null || runTab === activeTabId ? status : undefined;
}

/**
 * For viewer nodes on the canvas: the latest viewer_data line of the followed run, by id; while the
 * timeline inspects a step, the line the viewer showed at that step (so it matches the containers).
 */
export function useNodeViewerLine(nodeId: string): ViewerLine | undefined {
  const runTab = useRun((s) => s.tabId);
  const activeTabId = useEditor((s) => s.activeTabId);
  const line = useRun((s) => viewerLineOf(s, nodeId));
  return runTab === null || runTab === activeTabId ? line : undefined;
}
