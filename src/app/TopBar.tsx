// Top bar: File menu, tabs (dirty dot, close with confirm), the canvas toolbar (State toggle,
// undo/redo, layout, fit, snap, palette), the run toolbar, the live connection's status and the run
// notices (runs started elsewhere, branches kept by a restore), and who else has the active tab's
// graph or run open (live/PresenceChips.tsx).
import { useLayoutEffect, useRef, useState } from 'react';
import { Database, Grid3x3, LayoutDashboard, Maximize, Plus, Redo2, Search, Undo2, X } from 'lucide-react';
import { closeActiveTab, COMMANDS, runCommand } from './commands/commands.ts';
import { importFileIntoNewTab } from './files/importExport.ts';
import { activeTab } from './store/doc.slice.ts';
import { editorStore, useEditor } from './store/editor.store.ts';
import { ConnectionStatus } from './live/ConnectionStatus.tsx';
import { PresenceChips } from './live/PresenceChips.tsx';
import { RunNotices } from './run/RunNotices.tsx';
import { RunToolbar } from './run/RunToolbar.tsx';
import { BatchButton } from './batches/BatchForm.tsx';
import { Button } from './ui/Button.tsx';
import { useMenu } from './ui/useDismiss.ts';
import { useShallow } from 'zustand/react/shallow';
import { tabLabels } from './tabLabels.ts';
import { AllTabsMenu } from './AllTabsMenu.tsx';

function FileMenu() {
  const { open, close, toggle, menu, trigger } = useMenu();
  return (
    <div className="relative shrink-0">
      <Button
        ref={trigger}
        variant="ghost"
        data-testid="file-menu"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={toggle}
      >
        File
      </Button>
      {open && (
        <div
          ref={menu}
          role="menu"
          data-testid="file-menu-list"
          className="absolute top-full left-0 z-40 mt-0.5 w-56 rounded border border-zinc-700 bg-zinc-900 py-1 shadow-lg"
        >
          {COMMANDS.filter((c) => c.id.startsWith('file.')).map((c) => (
            <button
              key={c.id}
              type="button"
              role="menuitem"
              data-testid={`menu-${c.id}`}
              className="flex w-full px-3 py-0.5 text-left text-xs text-zinc-200 outline-none hover:bg-zinc-800 focus-visible:bg-zinc-800"
              onClick={() => {
                close();
                c.run();
              }}
            >
              {c.title}
              {c.shortcut && <span className="ml-auto text-[10px] text-zinc-500">{c.shortcut}</span>}
            </button>
          ))}
        </div>
      )}
      <input
        id="import-file-input"
        data-testid="import-file-input"
        type="file"
        accept=".json,application/json"
        className="hidden"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void importFileIntoNewTab(f);
          e.target.value = '';
        }}
      />
    </div>
  );
}

/** Closes tab `id` the way its close button does (asking first when it has unsaved changes). */
function closeTab(id: string) {
  editorStore.getState().setActiveTab(id);
  closeActiveTab();
}

/**
 * Keeps `el` (a tab) wholly inside the strip's visible part, with a little room beside it when
 * there is room (a tab is never wider than the strip: see its max-width).
 */
function scrollTabIntoView(strip: HTMLElement, el: HTMLElement) {
  const margin = Math.max(0, Math.min(24, (strip.clientWidth - el.offsetWidth) / 2));
  const left = el.offsetLeft;
  const right = left + el.offsetWidth;
  if (left < strip.scrollLeft) strip.scrollLeft = Math.max(0, left - margin);
  else if (right > strip.scrollLeft + strip.clientWidth)
    strip.scrollLeft = right - strip.clientWidth + margin;
}

// The tab strip scrolls sideways without a scrollbar over the titles (the mouse wheel scrolls it;
// the active tab is always scrolled into view; "all tabs" lists them when they do not all fit).
// It keeps a minimum width: run messages and toolbars beside it never squeeze it away.
function Tabs() {
  const keys = useEditor(
    useShallow((s) =>
      s.tabs.map((t) => [t.id, t.title, t.dirty ? 1 : 0, t.savedId ?? '', t.runId ?? ''].join('\u0000')),
    ),
  );
  const active = useEditor((s) => s.activeTabId);
  const tabs = keys.map((key) => {
    const [id = '', title = '', dirty, savedId, runId] = key.split('\u0000');
    return { id, title, dirty: dirty === '1', savedId: savedId || null, runId: runId || null };
  });
  const labels = tabLabels(tabs);
  const strip = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  // The strip's width changes without a tab changing (a run's controls appear beside it, the window
  // resizes) and so does a tab's (its label settles): each time, overflow is re-checked and the
  // active tab brought back into view.
  useLayoutEffect(() => {
    const el = strip.current;
    if (!el) return;
    const tab = el.querySelector<HTMLElement>('[data-testid="tab"][data-active="true"]');
    const check = () => {
      setOverflows(el.scrollWidth > el.clientWidth + 1);
      if (tab) scrollTabIntoView(el, tab);
    };
    check();
    const ro = new ResizeObserver(check);
    ro.observe(el);
    if (tab) ro.observe(tab);
    return () => ro.disconnect();
  }, [active, keys, overflows]);
  return (
    <div className="flex min-w-[160px] flex-1 items-end self-stretch" data-testid="tab-strip">
      <div
        ref={strip}
        className="relative flex min-w-0 items-end gap-0.5 self-stretch overflow-x-auto overflow-y-hidden [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
        data-testid="tabs"
        onWheel={(e) => {
          // A vertical wheel scrolls the strip sideways (it has no vertical extent to scroll).
          if (Math.abs(e.deltaY) > Math.abs(e.deltaX)) e.currentTarget.scrollLeft += e.deltaY;
        }}
      >
        {tabs.map((t) => {
          const isActive = t.id === active;
          const label = labels.get(t.id);
          return (
            <div
              key={t.id}
              data-testid="tab"
              data-active={isActive ? 'true' : 'false'}
              data-dirty={t.dirty ? 'true' : 'false'}
              title={label?.tooltip}
              onClick={() => editorStore.getState().setActiveTab(t.id)}
              onAuxClick={(e) => {
                if (e.button === 1) closeTab(t.id);
              }}
              // At most as wide as the strip's visible part (narrow windows, a run's toolbar beside
              // it): the active tab can always be wholly in view, its title truncated.
              className={`group flex max-w-[min(240px,100%)] shrink-0 cursor-pointer items-center gap-1 rounded-t px-2 py-1 text-xs whitespace-nowrap ${isActive ? 'bg-zinc-800 text-zinc-100' : 'text-zinc-400 hover:bg-zinc-900'}`}
            >
              <span className="min-w-0 truncate" data-testid="tab-title">
                {t.title}
              </span>
              {label?.detail && (
                <span
                  className="max-w-[120px] min-w-0 shrink-[2] truncate text-[10px] text-zinc-500"
                  data-testid="tab-detail"
                >
                  {label.detail}
                </span>
              )}
              {t.dirty && (
                <span
                  data-testid="dirty-dot"
                  title="unsaved changes"
                  className="h-1.5 w-1.5 shrink-0 rounded-full bg-amber-400"
                />
              )}
              <button
                type="button"
                title="Close tab (middle-click)"
                data-testid="tab-close"
                className={`shrink-0 text-zinc-500 group-hover:opacity-100 hover:text-zinc-200 focus-visible:opacity-100 ${isActive ? 'opacity-100' : 'opacity-0'}`}
                onClick={(e) => {
                  e.stopPropagation();
                  closeTab(t.id);
                }}
              >
                <X size={11} />
              </button>
            </div>
          );
        })}
      </div>
      <button
        type="button"
        title="New graph (Alt+N)"
        className="shrink-0 px-1 pb-1 text-zinc-500 hover:text-zinc-200"
        onClick={() => runCommand('file.new')}
      >
        <Plus size={13} />
      </button>
      {overflows && <AllTabsMenu tabs={tabs} labels={labels} active={active} />}
    </div>
  );
}

export function TopBar() {
  const stateVisible = useEditor((s) => activeTab(s)?.stateVisible ?? false);
  const canUndo = useEditor((s) => (activeTab(s)?.past.length ?? 0) > 0);
  const canRedo = useEditor((s) => (activeTab(s)?.future.length ?? 0) > 0);
  const snap = useEditor((s) => s.snapToGrid);
  const savedId = useEditor((s) => activeTab(s)?.savedId ?? null);
  const runId = useEditor((s) => activeTab(s)?.runId ?? null);
  return (
    <header className="flex h-9 shrink-0 items-center gap-1 border-b border-zinc-800 bg-zinc-925 px-2">
      <span className="mr-2 shrink-0 text-xs font-bold tracking-wide text-sky-400 max-xl:hidden">
        Statewire
      </span>
      <FileMenu />
      <Tabs />
      <div className="flex shrink-0 items-center gap-0.5">
        <Button
          variant="ghost"
          title="Undo (Ctrl+Z)"
          data-testid="undo"
          disabled={!canUndo}
          onClick={() => runCommand('edit.undo')}
        >
          <Undo2 size={13} />
        </Button>
        <Button
          variant="ghost"
          title="Redo (Ctrl+Shift+Z)"
          data-testid="redo"
          disabled={!canRedo}
          onClick={() => runCommand('edit.redo')}
        >
          <Redo2 size={13} />
        </Button>
        <Button
          variant="ghost"
          data-testid="state-toggle"
          aria-pressed={stateVisible}
          title="Show containers, grants and state handles (S)"
          className={stateVisible ? '!text-violet-300' : ''}
          onClick={() => runCommand('view.state')}
        >
          <Database size={13} /> <span className="max-xl:hidden">State</span>
        </Button>
        <Button variant="ghost" title="Auto-layout (L)" onClick={() => runCommand('view.layout')}>
          <LayoutDashboard size={13} />
        </Button>
        <Button variant="ghost" title="Fit view (F)" onClick={() => runCommand('view.fit')}>
          <Maximize size={13} />
        </Button>
        <Button
          variant="ghost"
          title="Snap to grid (G)"
          aria-pressed={snap}
          className={snap ? '!text-sky-300' : ''}
          onClick={() => runCommand('view.snap')}
        >
          <Grid3x3 size={13} />
        </Button>
        <Button variant="ghost" title="Command palette (Ctrl+K)" onClick={() => runCommand('view.palette')}>
          <Search size={13} />
        </Button>
      </div>
      <div
        data-testid="run-toolbar"
        // min-w-0: only a run error's text gives way when the window is narrow (it truncates; its
        // tooltip has it whole), never the tabs or a control.
        className="ml-2 flex min-w-0 items-center gap-1 border-l border-zinc-800 pl-2"
      >
        <RunToolbar />
        <BatchButton />
      </div>
      <PresenceChips graph={savedId} run={runId} />
      <ConnectionStatus />
      <RunNotices />
    </header>
  );
}
