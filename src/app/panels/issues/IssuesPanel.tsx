// Issues panel: live validate() of the active graph plus the warnings its file was loaded with.
// Clicking an issue selects and centres the node, container, slot or edge it names.
import { AlertCircle, AlertTriangle, Info } from 'lucide-react';
import { activeTab } from '../../store/doc.slice.ts';
import { editorStore, useEditor } from '../../store/editor.store.ts';
import { issuesOf } from '../../store/derived.ts';
import type { Issue } from '../../store/graphIo.ts';

const EMPTY: Issue[] = [];

function focusIssue(i: Issue) {
  const s = editorStore.getState();
  const target = i.containerId ?? i.nodeId;
  if (target) {
    s.focus([target]);
    return;
  }
  // An issue of the edge itself (its condition, effect, ends) selects that edge and centres its ends.
  if (i.edgeId) {
    const tab = activeTab(s);
    if (tab?.graph.edges.some((x) => x.id === i.edgeId)) s.focus([i.edgeId]);
  }
}

function Row({ issue, origin }: { issue: Issue; origin: 'load' | 'live' }) {
  const Icon = issue.severity === 'error' ? AlertCircle : issue.severity === 'warning' ? AlertTriangle : Info;
  const tone =
    issue.severity === 'error'
      ? 'text-red-400'
      : issue.severity === 'warning'
        ? 'text-amber-400'
        : 'text-sky-400';
  return (
    <button
      type="button"
      data-testid="issue-row"
      data-severity={issue.severity}
      data-code={issue.code}
      onClick={() => focusIssue(issue)}
      className="flex w-full items-start gap-1.5 px-2 py-0.5 text-left text-xs hover:bg-zinc-800"
    >
      <Icon size={12} className={`mt-0.5 shrink-0 ${tone}`} />
      <span className="text-zinc-200">{issue.message}</span>
      <span className="ml-auto shrink-0 font-mono text-[10px] text-zinc-500">
        {issue.path}
        {origin === 'load' ? ' · on load' : ''}
      </span>
    </button>
  );
}

export function IssuesPanel() {
  const live = useEditor((s) => issuesOf(s).all);
  const load = useEditor((s) => activeTab(s)?.loadWarnings ?? EMPTY);
  if (live.length === 0 && load.length === 0)
    return <div className="p-2 text-xs text-zinc-500">No issues.</div>;
  return (
    <div data-testid="issues-list" className="py-1">
      {live.map((i, k) => (
        <Row key={`l${k}`} issue={i} origin="live" />
      ))}
      {load.map((i, k) => (
        <Row key={`w${k}`} issue={i} origin="load" />
      ))}
    </div>
  );
}

/** Issues of one severity, live and on-load alike (load issues may be errors, warnings or infos). */
export function countSeverity(severity: Issue['severity'], ...lists: readonly Issue[][]): number {
  let n = 0;
  for (const list of lists) for (const i of list) if (i.severity === severity) n += 1;
  return n;
}

/** The drawer tab's badge: errors and warnings; infos are listed in the panel but not counted. */
export function useIssueCount(): { errors: number; warnings: number } {
  const errors = useEditor((s) =>
    countSeverity('error', issuesOf(s).all, activeTab(s)?.loadWarnings ?? EMPTY),
  );
  const warnings = useEditor((s) =>
    countSeverity('warning', issuesOf(s).all, activeTab(s)?.loadWarnings ?? EMPTY),
  );
  return { errors, warnings };
}
