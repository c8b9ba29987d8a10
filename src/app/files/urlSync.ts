// Keeps the address bar a deep link to what the user is looking at: a tab saved as `<id>` puts
// `?graph=<id>` in the URL (so a copied link or a reload opens that graph, also after Save as or
// Rename), an unsaved tab drops `graph` (a run tab keeps its `?run=<id>`). replaceState only, so
// switching tabs does not fill the Back history.
import { activeTab } from '../store/doc.slice.ts';
import type { EditorStore } from '../store/editor.store.ts';

/** The URL for the active tab's saved id, or null when `href` already says so. Pure, for tests. */
export function locationFor(href: string, savedId: string | null): string | null {
  const url = new URL(href);
  const params = url.searchParams;
  if (savedId) {
    if (params.get('graph') === savedId && !params.has('run')) return null;
    params.set('graph', savedId);
    params.delete('run');
  } else {
    if (!params.has('graph')) return null;
    params.delete('graph');
  }
  return url.toString();
}

/** Starts syncing; call after the deep links of the page load were honoured. Returns the unsubscribe. */
export function startUrlSync(store: EditorStore): () => void {
  const apply = () => {
    const next = locationFor(window.location.href, activeTab(store.getState())?.savedId ?? null);
    if (next) window.history.replaceState(window.history.state, '', next);
  };
  apply();
  return store.subscribe((s, prev) => {
    if (s.activeTabId === prev.activeTabId && s.tabs === prev.tabs) return;
    const id = activeTab(s)?.savedId ?? null;
    if (id !== (activeTab(prev)?.savedId ?? null) || s.activeTabId !== prev.activeTabId) apply();
  });
}
