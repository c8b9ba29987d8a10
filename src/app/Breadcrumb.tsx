// Breadcrumb shown while editing inside a composite: click a crumb to go back up.
import { activeTab } from './store/doc.slice.ts';
import { editorStore, useEditor } from './store/editor.store.ts';
import { useShallow } from 'zustand/react/shallow';

export function Breadcrumb() {
  const path = useEditor(useShallow((s) => activeTab(s)?.path ?? []));
  const title = useEditor((s) => activeTab(s)?.title ?? '');
  if (path.length === 0) return null;
  return (
    <nav
      data-testid="breadcrumb"
      className="absolute top-2 left-2 z-10 flex items-center gap-1 rounded bg-zinc-900/90 px-2 py-1 text-xs"
    >
      {[title, ...path].map((p, i) => (
        <span key={i} className="flex items-center gap-1">
          {i > 0 && <span className="text-zinc-600">/</span>}
          {i < path.length ? (
            <button
              type="button"
              data-testid={`crumb-${i}`}
              className="text-sky-400 hover:underline"
              onClick={() => editorStore.getState().exitToDepth(i)}
            >
              {p}
            </button>
          ) : (
            <span className="text-zinc-200">{p}</span>
          )}
        </span>
      ))}
    </nav>
  );
}
