// Top bar: File menu, tabs (dirty dot, close with confirm), the canvas toolbar (State toggle,
// undo/redo, layout, fit, snap, palette), the run toolbar, the live connection's status and the run
// notices (runs started elsewhere, branches kept by a restore).
import { useState } from 'react';
import { Database, Grid3x3, LayoutDashboard, Maximize, Plus, Redo2, Search, Undo2, X } from 'lucide-react';
import { closeActiveTab, COMMANDS, runCommand } from './commands/commands.ts';
import { importFileIntoNewTab } from './files/importExport.ts';
import { activeTab } from './store/doc.slice.ts';
import { editorStore, useEditor } from './store/editor.store.ts';
import { ConnectionStatus } from './live/ConnectionStatus.tsx';
import { RunNotices } from './run/RunNotices.tsx';
import { RunToolbar } from './run/RunToolbar.tsx';
import { BatchButton } from './batches/BatchForm.tsx';
import { Button } from './ui/Button.tsx';
import { useShallow } from 'zustand/react/shallow';

function FileMenu() {
  const [open, setOpen] = useState(false);
  return (
    <div className="relative">
      <Button variant="ghost" data-testid="file-menu" onClick={() => setOpen((o) => !o)}>
        File
      </Button>
      {open && (
        <div
          className="absolute top-full left-0 z-40 mt-0.5 w-56 rounded border border-zinc-700 bg-zinc-900 py-1 shadow-lg"
          onMouseLeave={() => setOpen(false)}
        >
          {COMMANDS.filter((c) => c.id.startsWith('file.')).map((c) => (
            <button
              key={c.id}
              type="button"
              data-testid={`menu-${c.id}`}
              className="flex w-full px-3 py-0.5 text-left text-xs text-zinc-200 hover:bg-zinc-800"
              onClick={() => {
                setOpen(false);
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

function Tabs() {
  const tabs = useEditor(
    useShallow((s) => s.tabs.map((t) => `${t.id}\u0000${t.title}\u0000${t.dirty ? 1 : 0}`)),
  );
  const active = useEditor((s) => s.activeTabId);
  return (
    <div className="flex min-w-0 flex-1 items-end gap-0.5 overflow-x-auto" data-testid="tabs">
      {tabs.map((key) => {
        const [id = '', title, dirty] = key.split('\u0000');
        const isActive = id === active;
        return (
          <div
            key={id}
            data-testid="tab"
            data-active={isActive ? 'true' : 'false'}
            data-dirty={dirty === '1' ? 'true' : 'false'}
            onClick={() => editorStore.getState().setActiveTab(id)}
            className={`group flex max-w-[200px] cursor-pointer items-center gap-1 rounded-t px-2 py-1 text-xs ${isActive ? 'bg-zinc-800 text-zinc-100' : 'text-zinc-400 hover:bg-zinc-900'}`}
          >
            <span className="truncate" data-testid="tab-title">
              {title}
            </span>
            {dirty === '1' && (
              <span
                data-testid="dirty-dot"
                title="unsaved changes"
                className="h-1.5 w-1.5 shrink-0 rounded-full bg-amber-400"
              />
            )}
            <button
              type="button"
              title="Close tab"
              data-testid="tab-close"
              className="text-zinc-500 opacity-0 group-hover:opacity-100 hover:text-zinc-200"
              onClick={(e) => {
                e.stopPropagation();
                editorStore.getState().setActiveTab(id);
                closeActiveTab();
              }}
            >
              <X size={11} />
            </button>
          </div>
        );
      })}
      <button
        type="button"
        title="New graph (Alt+N)"
        className="px-1 pb-1 text-zinc-500 hover:text-zinc-200"
        onClick={() => runCommand('file.new')}
      >
        <Plus size={13} />
      </button>
    </div>
  );
}

export function TopBar() {
  const stateVisible = useEditor((s) => activeTab(s)?.stateVisible ?? false);
  const canUndo = useEditor((s) => (activeTab(s)?.past.length ?? 0) > 0);
  const canRedo = useEditor((s) => (activeTab(s)?.future.length ?? 0) > 0);
  const snap = useEditor((s) => s.snapToGrid);
  return (
    <header className="flex h-9 shrink-0 items-center gap-1 border-b border-zinc-800 bg-zinc-925 px-2">
      <span className="mr-2 text-xs font-bold tracking-wide text-sky-400">Statewire</span>
      <FileMenu />
      <Tabs />
      <div className="flex items-center gap-0.5">
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
          <Database size={13} /> State
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
        className="ml-2 flex min-w-[120px] items-center justify-end gap-1 border-l border-zinc-800 pl-2"
      >
        <RunToolbar />
        <BatchButton />
      </div>
      <ConnectionStatus />
      <RunNotices />
    </header>
  );
}
