// Keeps the address bar a deep link to what the user is looking at: a tab saved as `<id>` puts
// `?graph=<id>` in the URL (so a copied link or a reload opens that graph, also after Save as or
// Rename), a run's tab `?run=<id>` of the run it shows (also after a fork or a branch made in it), and
// any other unsaved tab drops `graph`. replaceState only, so switching tabs does not fill the Back
// history.
import { activeTab, type Tab } from '../store/doc.slice.ts';
import type { EditorStore } from '../store/editor.store.ts';

/**
 * The URL for the active tab (its saved id, else the run it shows), or null when `href` already says
 * so. Pure, for tests.
 */
export function locationFor(
  href: string,
  savedId: string | null,
  runId: string | null = null,
): string | null {
  const url = new URL(href);
  const params = url.searchParams;
  if (savedId) {
    if (params.get('graph') === savedId && !params.has('run')) return null;
    params.set('graph', savedId);
    params.delete('run');
  } else if (runId) {
    if (params.get('run') === runId && !params.has('graph')) return null;
    params.set('run', runId);
    params.delete('graph');
  } else {
    if (!params.has('graph')) return null;
    params.delete('graph');
  }
  return url.toString();
}

/** What the URL says of a tab: changes when its saved id or the run it shows does. */
const whereOf = (t: Tab | undefined) => `${t?.savedId ?? ''}\n${t?.runId ?? ''}`;

export function startUrlSync(store: EditorStore): () => void {
  const apply = () => {
    const tab = activeTab(store.getState());
    const next = locationFor(window.location.href, tab?.savedId ?? null, tab?.runId ?? null);
    if (next) window.history.replaceState(window.history.state, '', next);
  };
  apply();
  return store.subscribe((s, prev) => {
    if (s.activeTabId === prev.activeTabId && s.tabs === prev.tabs) return;
    if (whereOf(activeTab(s)) !== whereOf(activeTab(prev)) || s.activeTabId !== prev.activeTabId) apply();
  });
}
