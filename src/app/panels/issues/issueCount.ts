// The Issues tab's badge (errors and warnings of the active graph), apart from the panel itself:
// the badge is part of the editor's first paint, the panel (a virtualized list) loads when shown.
import { activeTab } from '../../store/doc.slice.ts';
import { useEditor } from '../../store/editor.store.ts';
import { issuesOf } from '../../store/derived.ts';
import type { Issue } from '../../store/graphIo.ts';

const EMPTY: Issue[] = [];

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
