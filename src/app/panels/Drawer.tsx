// Bottom drawer with the State / Issues / Log / Timeline / Breakpoints / Batches tabs; its top edge
// is a sash that resizes it (the height is remembered: drawerSize.ts).
import { useEditor } from '../store/editor.store.ts';
import type { DrawerTab } from '../store/ui.slice.ts';
import { useIssueCount } from './issues/issueCount.ts';
import { StatePanel } from './state/StatePanel.tsx';
import { TIMELINE_TAB } from '../run/timelineTab.ts';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { loadBreakpoints, useBreakpoints } from '../debug/breakpoints.store.ts';
import { useRun } from '../run/run.store.ts';
import { BATCHES_TAB } from '../batches/batchesTab.ts';
import { lazyNamed } from '../ui/lazyNamed.ts';
import { ResizeSash } from '../ui/ResizeSash.tsx';
import { clampDrawerHeight, DRAWER_DEFAULT_PX, loadDrawerHeight, saveDrawerHeight } from './drawerSize.ts';

// State (the tab a graph opens on) and the Issues count on its tab button are part of the editor's
// first paint; the panels of the other tabs, Issues included, are loaded when first shown.
const IssuesPanel = lazyNamed(() => import('./issues/IssuesPanel.tsx'), 'IssuesPanel');
const LogPanel = lazyNamed(() => import('./log/LogPanel.tsx'), 'LogPanel');
const TimelinePanel = lazyNamed(() => import('../run/TimelinePanel.tsx'), 'TimelinePanel');
const BreakpointsPanel = lazyNamed(() => import('./breakpoints/BreakpointsPanel.tsx'), 'BreakpointsPanel');
const BatchesPanel = lazyNamed(() => import('../batches/BatchesPanel.tsx'), 'BatchesPanel');

const TABS: { id: DrawerTab; label: string }[] = [
  { id: 'state', label: 'State' },
  { id: 'issues', label: 'Issues' },
  { id: 'log', label: 'Log' },
  { id: TIMELINE_TAB, label: 'Timeline' },
  { id: 'breakpoints', label: 'Breakpoints' },
  { id: BATCHES_TAB, label: 'Batches' },
];

const clampToWindow = (px: number) => clampDrawerHeight(px, window.innerHeight);

/** The drawer's height: the kept one, clamped to the window (again whenever the window resizes). */
function useDrawerHeight(): [number, (px: number) => void] {
  const [kept, setKept] = useState(loadDrawerHeight);
  const [windowHeight, setWindowHeight] = useState(() => window.innerHeight);
  useEffect(() => {
    const onResize = () => setWindowHeight(window.innerHeight);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  const set = useCallback((px: number) => {
    setKept(px);
    saveDrawerHeight(px);
  }, []);
  return [clampDrawerHeight(kept, windowHeight), set];
}

export function Drawer() {
  const [height, setHeight] = useDrawerHeight();
  const section = useRef<HTMLElement>(null);
  const tab = useEditor((s) => s.drawerTab);
  const setTab = useEditor((s) => s.setDrawerTab);
  const { errors, warnings } = useIssueCount();
  const tabId = useEditor((s) => s.activeTabId);
  const bpCount = useBreakpoints(tabId).filter((b) => b.enabled).length;
  const hit = useRun((s) => s.breakpointHit);
  // A tab's saved breakpoints load when it becomes active (they are its graph's view settings).
  useEffect(() => {
    if (tabId) void loadBreakpoints(tabId);
  }, [tabId]);
  // A breakpoint hit brings the Breakpoints tab forward, where it says which one and who wrote.
  useEffect(() => {
    if (hit) setTab('breakpoints');
  }, [hit, setTab]);
  return (
    <section
      ref={section}
      className="relative flex shrink-0 flex-col border-t border-zinc-800 bg-zinc-925"
      style={{ height }}
      data-testid="drawer"
    >
      <ResizeSash
        target={section}
        height={height}
        clamp={clampToWindow}
        onResize={setHeight}
        defaultHeight={DRAWER_DEFAULT_PX}
        label="Resize the bottom panel"
        testId="drawer-sash"
      />
      <div className="flex shrink-0 items-center gap-0.5 overflow-x-auto border-b border-zinc-800 px-1 [scrollbar-width:none]">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            data-testid={`drawer-tab-${t.id}`}
            onClick={() => setTab(t.id)}
            className={`shrink-0 px-2 py-1 text-xs whitespace-nowrap ${tab === t.id ? 'border-b-2 border-sky-500 text-zinc-100' : 'text-zinc-500 hover:text-zinc-300'}`}
          >
            {t.label}
            {t.id === 'breakpoints' && bpCount > 0 && (
              <span className="ml-1 text-[10px] text-red-400" data-testid="bp-count">
                {bpCount}
              </span>
            )}
            {t.id === 'issues' && (errors > 0 || warnings > 0) && (
              <span className="ml-1 text-[10px]">
                {errors > 0 && <span className="text-red-400">{errors}</span>}
                {errors > 0 && warnings > 0 && ' · '}
                {warnings > 0 && <span className="text-amber-400">{warnings}</span>}
              </span>
            )}
          </button>
        ))}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <Suspense fallback={null}>
          {tab === 'state' ? (
            <StatePanel />
          ) : tab === 'issues' ? (
            <IssuesPanel />
          ) : tab === TIMELINE_TAB ? (
            <TimelinePanel />
          ) : tab === 'breakpoints' ? (
            <BreakpointsPanel />
          ) : tab === BATCHES_TAB ? (
            <BatchesPanel />
          ) : (
            <LogPanel />
          )}
        </Suspense>
      </div>
    </section>
  );
}
