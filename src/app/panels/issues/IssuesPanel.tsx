// Issues panel: live validate() of the active graph plus the warnings its file was loaded with.
// Clicking an issue selects and centres the node, container, slot or edge it names.
// Virtualized (useRowVirtualizer.ts): a big generated graph can have hundreds of issues, and 500
// rows in the page cost ~15% more main-thread time per canvas pan input (canvas.dashed_vs_solid).
import { useMemo, useRef } from 'react';
import { AlertCircle, AlertTriangle, Info } from 'lucide-react';
import { activeTab } from '../../store/doc.slice.ts';
import { editorStore, useEditor } from '../../store/editor.store.ts';
import { issuesOf } from '../../store/derived.ts';
import type { Issue } from '../../store/graphIo.ts';
import { useRowVirtualizer } from '../useRowVirtualizer.ts';

const EMPTY: Issue[] = [];
/** Estimated height of a one-line row (px); rows are measured once rendered. */
const ROW_H = 20;

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

interface RowProps {
  issue: Issue;
  origin: 'load' | 'live';
  index: number;
  top: number;
  measure: (el: HTMLElement | null) => void;
}

function Row({ issue, origin, index, top, measure }: RowProps) {
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
      ref={measure}
      data-index={index}
      data-testid="issue-row"
      data-severity={issue.severity}
      data-code={issue.code}
      onClick={() => focusIssue(issue)}
      style={{ transform: `translateY(${top}px)` }}
      className="absolute inset-x-0 top-0 flex items-start gap-1.5 px-2 py-0.5 text-left text-xs hover:bg-zinc-800"
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
  const rows = useMemo(
    () => [
      ...live.map((issue) => ({ issue, origin: 'live' as const })),
      ...load.map((issue) => ({ issue, origin: 'load' as const })),
    ],
    [live, load],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useRowVirtualizer(rows.length, scroller, ROW_H);
  if (rows.length === 0)
    return (
      <div data-testid="issues-empty" className="p-2 text-xs text-zinc-500">
        No issues.
      </div>
    );
  return (
    <div
      ref={scroller}
      data-testid="issues-list"
      data-count={rows.length}
      className="h-full overflow-y-auto py-1"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const r = rows[item.index]!;
          return (
            <Row
              key={item.key}
              issue={r.issue}
              origin={r.origin}
              index={item.index}
              top={item.start}
              measure={virtualizer.measureElement}
            />
          );
        })}
      </div>
    </div>
  );
}
