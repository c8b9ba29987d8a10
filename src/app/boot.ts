// Startup: load the server catalog and node services (kept current by server notices), restore
// journaled tabs (unsaved work survives reloads and crashes), then honour the deep link
// `/?graph=<id>`, or open the demo graph, or an empty tab.
import { api } from './api/client.ts';
import { takeBootRequest } from './bootRequests.ts';
import { openSavedGraph, rereadUnreadable } from './files/documents.ts';
import { loadGraphList } from './files/graphList.ts';
import { startGraphsSync } from './files/graphsSync.ts';
import { readJournal, startJournal, type JournalEntry } from './files/journal.ts';
import { makeTab } from './store/doc.slice.ts';
import { editorStore, type EditorStore } from './store/editor.store.ts';
import { liveClient } from './live/connection.ts';
import { loadCatalog, loadServices, startServicesSync } from './services/servicesSync.ts';

export const DEMO_GRAPH_ID = 'grid_navigator';

async function restoreJournal(store: EditorStore, prefetched?: Promise<unknown>): Promise<boolean> {
  const entries = (await (prefetched ?? readJournal())) as JournalEntry[];
  if (entries.length === 0) return false;
  const tabs = entries.map((e) => ({
    ...makeTab({
      graph: e.graph,
      savedId: e.savedId,
      diskText: e.diskText,
      title: e.title,
      dirty: e.dirty,
      path: e.path,
      unreadable: e.unreadable ?? null,
    }),
    id: e.tabId,
    stateVisible: e.stateVisible,
  }));
  const active = entries.find((e) => e.active)?.tabId ?? tabs[0]?.id ?? null;
  store.setState({ tabs, activeTabId: active });
  // A file that did not read as a graph may have been fixed since: read each such file again.
  for (const t of tabs) if (t.unreadable) void rereadUnreadable(t.id, store);
  const restored = entries.filter((e) => e.dirty).length;
  if (restored)
    store
      .getState()
      .addLog('info', `restored ${restored} tab(s) with unsaved changes from the local journal`);
  return true;
}

export async function boot(store: EditorStore = editorStore): Promise<void> {
  // A deep link's graph, the catalog and the services report were sent by the entry module before
  // this bundle loaded (bootRequests.ts); without those answers (a test, a second boot) they are
  // sent now, side by side, never one after another.
  const wanted = new URLSearchParams(window.location.search).get('graph');
  const prefetched = wanted ? (takeBootRequest('graph', wanted) ?? api.getGraph(wanted)) : undefined;
  prefetched?.catch(() => {}); // failures are reported by openSavedGraph, which awaits it
  const catalog = loadCatalog(store, takeBootRequest('catalog'));
  // Node services: their health in the library, their types in the catalog (kept current by notices).
  const services = loadServices(store, takeBootRequest('services'));
  // The explorer's list, in before boot ends so the sidebar does not change height after it.
  const graphs = loadGraphList(takeBootRequest('graphs'));
  startServicesSync(store, liveClient());
  startGraphsSync(store, liveClient());
  const restored = await restoreJournal(store, takeBootRequest('journal'));
  // The deep-linked graph opens with the server's catalog and services report in place (both were
  // asked for with it): opened before them, a big graph would render and validate again as each
  // lands (new ports, service issues), right after its first render.
  if (wanted) await Promise.all([catalog, services]).then(() => openSavedGraph(wanted, store, prefetched));
  else if (!restored) {
    const list = await graphs;
    if (list.some((g) => g._id === DEMO_GRAPH_ID)) await openSavedGraph(DEMO_GRAPH_ID, store);
  }
  if (store.getState().tabs.length === 0) store.getState().newTab();
  startJournal(store);
  await Promise.all([catalog, graphs]);
}
