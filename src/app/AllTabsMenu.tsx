// "All tabs": when the tab strip holds more tabs than it shows, a chevron beside it lists every
// open tab (title, detail, unsaved mark); picking one activates it (and the strip scrolls to it).
import { ChevronDown } from 'lucide-react';
import { editorStore } from './store/editor.store.ts';
import type { TabLabel } from './tabLabels.ts';
import { useMenu } from './ui/useDismiss.ts';

export function AllTabsMenu({
  tabs,
  labels,
  active,
}: {
  tabs: readonly { id: string; dirty: boolean }[];
  labels: ReadonlyMap<string, TabLabel>;
  active: string | null;
}) {
  const { open, close, toggle, menu, trigger } = useMenu();
  return (
    <div className="relative shrink-0 self-center">
      <button
        ref={trigger}
        type="button"
        data-testid="all-tabs"
        aria-haspopup="menu"
        aria-expanded={open}
        title={`All ${tabs.length} tabs`}
        className="flex items-center rounded px-0.5 text-[10px] text-zinc-400 hover:bg-zinc-800 hover:text-zinc-200"
        onClick={toggle}
      >
        <ChevronDown size={13} />
        {tabs.length}
      </button>
      {open && (
        <div
          ref={menu}
          role="menu"
          data-testid="all-tabs-list"
          className="absolute top-full right-0 z-40 mt-0.5 max-h-[60vh] w-72 overflow-y-auto rounded border border-zinc-700 bg-zinc-900 py-1 shadow-lg"
        >
          {tabs.map((t) => {
            const label = labels.get(t.id);
            return (
              <button
                key={t.id}
                type="button"
                role="menuitem"
                title={label?.tooltip}
                data-testid="all-tabs-item"
                className={`flex w-full items-center gap-1.5 px-3 py-0.5 text-left text-xs outline-none hover:bg-zinc-800 focus-visible:bg-zinc-800 ${t.id === active ? 'text-sky-300' : 'text-zinc-200'}`}
                onClick={() => {
                  close();
                  editorStore.getState().setActiveTab(t.id);
                }}
              >
                <span className="min-w-0 truncate">{label?.title}</span>
                {label?.detail && (
                  <span className="min-w-0 shrink-[2] truncate text-[10px] text-zinc-500">
                    {label.detail}
                  </span>
                )}
                {t.dirty && <span className="ml-auto h-1.5 w-1.5 shrink-0 rounded-full bg-amber-400" />}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
