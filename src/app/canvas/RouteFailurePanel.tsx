// The canvas notice of a failed route decision: the run stopped because a routing node had no
// compatible edge, or several; the message names the node, the edges and the feature values, and
// says that nothing of that step was committed. "Show" selects the node (its edges are marked red).
import { Panel } from '@xyflow/react';
import { GitBranch, X } from 'lucide-react';
import { useRun, runStore } from '../run/run.store.ts';
import { editorStore, useEditor } from '../store/editor.store.ts';

export function RouteFailurePanel() {
  const failure = useRun((s) => s.routeFailure);
  const runTab = useRun((s) => s.tabId);
  const mine = useEditor((s) => runTab === null || runTab === s.activeTabId);
  if (!failure || !mine) return null;
  return (
    <Panel position="top-center">
      <div
        data-testid="route-failure"
        data-node={failure.node_id}
        className="flex max-w-[640px] items-start gap-2 rounded border border-red-500/70 bg-red-950/95 px-2 py-1.5 text-xs text-red-100 shadow-lg"
      >
        <GitBranch size={13} className="mt-0.5 shrink-0 text-red-400" />
        <div className="min-w-0">
          <div className="font-semibold">
            Run stopped at step {failure.step}: route of {failure.node_id} failed ({failure.code})
          </div>
          <div className="mt-0.5 leading-snug break-words text-red-200" data-testid="route-failure-message">
            {failure.message}
          </div>
          <div className="mt-0.5 text-[11px] text-red-300/80">
            Nothing of step {failure.step} was committed; the run&apos;s state is that of step{' '}
            {failure.step - 1}.
          </div>
        </div>
        <button
          type="button"
          className="shrink-0 rounded px-1 text-[11px] text-red-200 hover:bg-red-900"
          onClick={() => editorStore.getState().focus([failure.node_id])}
        >
          Show
        </button>
        <button
          type="button"
          title="Dismiss"
          data-testid="route-failure-dismiss"
          className="shrink-0 text-red-300 hover:text-white"
          onClick={() => runStore.setState({ routeFailure: null })}
        >
          <X size={12} />
        </button>
      </div>
    </Panel>
  );
}
