// Open / save / save-as / rename / delete through /api/graphs, with stale-save detection: a tab
// remembers the canonical text of the file as it was when opened or last saved; saving first
// re-reads the file and, if someone changed it meanwhile, asks instead of overwriting — showing what
// they changed (the graph diff from the version this tab read to the one on disk).
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { diffGraphs, graphDiffLines } from '../../domain/graph/graph.diff.ts';
import { api, ApiError, errorCodeOf, messageOf } from '../api/client.ts';
import { issuesOf } from '../store/derived.ts';
import { activeTab, type Tab } from '../store/doc.slice.ts';
import { editorStore, type EditorStore } from '../store/editor.store.ts';
import { formatGraphText, parseGraphText, validateGraph, type Issue } from '../store/graphIo.ts';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { readSavedGraph, unreadableRefusal, whereOf, type UnreadableFile } from './savedGraph.ts';
import { askSaveWithErrors } from './saveConfirm.ts';

/**
 * After a graph opens: the drawer switches to Issues when loading it warned or it has validation
 * errors; otherwise (clean, or only warnings/info notes from validation) it stays where it was, State by default.
 */
export function showIssuesOnLoad(store: EditorStore, loadWarnings: number): void {
  const errors = issuesOf(store.getState()).all.some((i) => i.severity === 'error');
  if (loadWarnings > 0 || errors) store.getState().setDrawerTab('issues');
}

function log(store: EditorStore, level: 'info' | 'warn' | 'error', msg: string) {
  store.getState().addLog(level, msg);
}

/** "typo_graph does not read as a graph: line 2, column 27: invalid JSON …" for toasts and the log. */
export function unreadableMessage(id: string, file: UnreadableFile): string {
  const first = file.issues[0];
  return `${id} does not read as a graph${first ? ` (${whereOf(first)}: ${first.message})` : ''}`;
}

/** `prefetched`: the graph's GET already under way (boot starts a deep link's fetch first thing). */
export async function openSavedGraph(
  id: string,
  store: EditorStore = editorStore,
  prefetched?: Promise<unknown>,
): Promise<boolean> {
  const existing = store.getState().tabs.find((t) => t.savedId === id);
  if (existing) {
    store.getState().setActiveTab(existing.id);
    return true;
  }
  try {
    const r = readSavedGraph(await (prefetched ?? api.getGraph(id)));
    if (r.kind === 'unreadable') {
      // An error view, never an editable empty graph (src/app/files/UnreadableFileView.tsx).
      store.getState().openTab({ graph: emptyGraph(id), savedId: id, title: id, unreadable: r.file });
      store.getState().setDrawerTab('issues');
      log(store, 'error', `opened ${unreadableMessage(id, r.file)}`);
      return true;
    }
    store.getState().openTab({
      graph: r.graph,
      savedId: id,
      diskText: formatGraphText(r.graph),
      loadWarnings: r.warnings,
      title: r.graph.name || id,
    });
    showIssuesOnLoad(store, r.warnings.length);
    log(store, 'info', `opened ${id}`);
    return true;
  } catch (e) {
    store.getState().showToast(`could not open ${id}: ${(e as Error).message}`, 'error');
    return false;
  }
}

function bodyOf(graph: GraphDef): unknown {
  return JSON.parse(formatGraphText(graph)) as unknown;
}

/** The validation errors of a tab's graph (the Issues panel's, for the active tab). */
export function tabErrors(tab: Tab, store: EditorStore = editorStore): Issue[] {
  const s = store.getState();
  const all = activeTab(s)?.id === tab.id ? issuesOf(s).all : validateGraph(tab.graph, s.catalog);
  return all.filter((i) => i.severity === 'error');
}

export interface SaveOptions {
  /** The user already answered "Save anyway" to the graph's errors. */
  allowErrors?: boolean;
  /** Runs when a save that first asked about errors is accepted and written. */
  onSaved?: () => void;
}

/**
 * Save in place; a never-saved tab opens the Save-as dialog (which lists the graph's errors). A
 * graph with validation errors asks first (nothing is written until "Save anyway"). Returns true
 * when written.
 */
export async function saveTab(
  tabId?: string,
  store: EditorStore = editorStore,
  opts: SaveOptions = {},
): Promise<boolean> {
  const s = store.getState();
  const tab = tabId ? s.tabs.find((t) => t.id === tabId) : activeTab(s);
  if (!tab) return false;
  if (tab.unreadable) {
    s.showToast(`nothing to save: ${unreadableMessage(tab.savedId ?? tab.title, tab.unreadable)}`, 'error');
    return false;
  }
  if (!tab.savedId) {
    // The Save-as dialog is the question here: it names the errors beside the name field.
    s.setDialog({ kind: 'saveAs', tabId: tab.id });
    return false;
  }
  if (!opts.allowErrors) {
    const errors = tabErrors(tab, store);
    if (errors.length > 0) {
      askSaveWithErrors({
        tabId: tab.id,
        title: tab.title,
        errors: errors.length,
        messages: errors.slice(0, 5).map((i) => i.message),
        ...(opts.onSaved ? { onSaved: opts.onSaved } : {}),
      });
      return false;
    }
  }
  let etag: string | undefined;
  try {
    const r = readSavedGraph(await api.getGraph(tab.savedId));
    if (r.kind === 'unreadable') {
      // Someone broke the file since it was opened: its text is not replaced without a yes.
      askReplaceUnreadable(store, tab.id, tab.savedId, r.file);
      return false;
    }
    if (tab.diskText !== null && formatGraphText(r.graph) !== tab.diskText) {
      s.setDialog({ kind: 'conflict', tabId: tab.id, changes: diskChanges(tab, r.graph) });
      return false;
    }
    // Same content as when opened: write against exactly this version, so a change landing
    // between this read and the write is refused by the server (409) instead of overwritten.
    etag = r.etag ?? undefined;
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) {
      s.showToast(`save failed: ${(e as Error).message}`, 'error');
      return false;
    }
  }
  return overwrite(tab, store, etag);
}

/**
 * What changed on disk since `tab` read the file: the structural diff (domain/graph/graph.diff.ts)
 * from the version it read to `onDisk`, one line per change; [] when the read version is unknown.
 */
export function diskChanges(tab: Pick<Tab, 'diskText'>, onDisk: GraphDef): string[] {
  if (tab.diskText === null) return [];
  const then = parseGraphText(tab.diskText);
  return then.ok ? graphDiffLines(diffGraphs(then.graph, onDisk)) : [];
}

function askReplaceUnreadable(store: EditorStore, tabId: string, id: string, file: UnreadableFile): void {
  store.getState().setDialog({ kind: 'replaceUnreadable', tabId, id, issues: file.issues, etag: file.etag });
}

/**
 * Writes the tab to its saved id; without `etag` regardless of what is on disk (the "overwrite"
 * answer). A file on disk that does not read as a graph is replaced only with `replaceUnreadable`,
 * which only the "Replace the unreadable file" answer passes (with the etag of the version it showed).
 */
export async function overwrite(
  tab: Tab,
  store: EditorStore = editorStore,
  etag?: string,
  replaceUnreadable = false,
): Promise<boolean> {
  const s = store.getState();
  const fresh = s.tabs.find((t) => t.id === tab.id) ?? tab;
  if (!fresh.savedId || fresh.unreadable) return false;
  try {
    try {
      await api.putGraph(fresh.savedId, bodyOf(fresh.graph), etag, { replaceUnreadable });
    } catch (e) {
      const refused = unreadableRefusal(e);
      if (refused) {
        askReplaceUnreadable(store, fresh.id, fresh.savedId, refused);
        return false;
      }
      if (e instanceof ApiError && e.status === 409 && etag) {
        // Changed between the read and the write: read it again to say what changed.
        const now = await api.getGraph(fresh.savedId).then(readSavedGraph, () => null);
        const changes = now?.kind === 'graph' ? diskChanges(fresh, now.graph) : [];
        s.setDialog({ kind: 'conflict', tabId: fresh.id, changes });
        return false;
      }
      if (!(e instanceof ApiError && e.status === 404)) throw e;
      await api.createGraph(bodyOf(fresh.graph), { overwrite: true });
    }
    s.markSaved(fresh.id, fresh.savedId, formatGraphText(fresh.graph), fresh.graph.name || fresh.title);
    s.showToast(`saved ${fresh.savedId}`, 'info');
    return true;
  } catch (e) {
    saveFailed(store, fresh.savedId, e);
    return false;
  }
}

/**
 * A refused write (507 disk full, 5xx…): the tab is NOT marked saved, so it stays dirty with every
 * edit, and the reason is shown as a toast and kept in the log (the toast fades).
 */
function saveFailed(store: EditorStore, id: string, e: unknown): void {
  const why = e instanceof ApiError ? messageOf(e.body, e.message) : (e as Error).message;
  const msg =
    errorCodeOf(e) === 'disk-full'
      ? `save of ${id} failed: the server's disk is full. Your changes are still here, unsaved: free some space and save again. (${why})`
      : `save of ${id} failed: ${why}. Your changes are still here, unsaved.`;
  store.getState().showToast(msg, 'error');
  log(store, 'error', msg);
}

/** Tells whoever lists saved graphs (the explorer) that the set of files changed. */
export const GRAPHS_CHANGED_EVENT = 'statewire:graphs-changed';
function graphsChanged() {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(GRAPHS_CHANGED_EVENT));
}

/**
 * A typed save name: "folder/sub/name" saves `name` into that folder (as the explorer shows
 * folders), a plain name into `fallbackFolder` (the root unless given).
 */
export function splitSaveName(typed: string, fallbackFolder = ''): { folder: string; name: string } {
  const parts = typed
    .split('/')
    .map((p) => p.trim())
    .filter(Boolean);
  const name = parts.pop() ?? '';
  return { folder: parts.length ? parts.join('/') : fallbackFolder, name };
}

/** Folder part of a saved id ("team/nav" → "team", "nav" → ""). */
export function folderOf(id: string): string {
  const i = id.lastIndexOf('/');
  return i < 0 ? '' : id.slice(0, i);
}

/**
 * Save as a new file named `name` (the graph's name becomes it too; "folder/name" saves into that
 * folder). 409 → asks to overwrite.
 */
export async function saveTabAs(
  tabId: string,
  name: string,
  opts: { folder?: string; overwrite?: boolean; replaceUnreadable?: boolean } = {},
  store: EditorStore = editorStore,
): Promise<
  { ok: true; id: string } | { ok: false; reason: string; exists?: boolean; unreadable?: UnreadableFile }
> {
  const s = store.getState();
  const tab = s.tabs.find((t) => t.id === tabId);
  if (!tab) return { ok: false, reason: 'tab is closed' };
  if (tab.unreadable)
    return {
      ok: false,
      reason: `nothing to save: ${unreadableMessage(tab.savedId ?? tab.title, tab.unreadable)}`,
    };
  const split = splitSaveName(name, opts.folder);
  if (!split.name) return { ok: false, reason: 'name must not be empty' };
  const graph = { ...tab.graph, name: split.name };
  try {
    const res = await api.createGraph(bodyOf(graph), {
      ...opts,
      ...(split.folder ? { folder: split.folder } : {}),
    });
    graphsChanged();
    const text = formatGraphText(graph);
    store.setState((st) => ({ tabs: st.tabs.map((t) => (t.id === tabId ? { ...t, graph } : t)) }));
    s.markSaved(tabId, res.id, text, graph.name);
    s.showToast(`saved as ${res.id}`, 'info');
    return { ok: true, id: res.id };
  } catch (e) {
    const refused = unreadableRefusal(e);
    if (refused)
      return {
        ok: false,
        // The dialog lists the parse errors under this line.
        reason: `a file "${name}" exists but does not read as a graph; replacing it loses its text:`,
        unreadable: refused,
      };
    if (e instanceof ApiError && e.status === 409)
      return { ok: false, reason: `a graph named "${name}" already exists`, exists: true };
    if (errorCodeOf(e) === 'disk-full')
      return {
        ok: false,
        reason: `the server's disk is full; nothing was saved (${messageOf((e as ApiError).body, '')})`,
      };
    return { ok: false, reason: (e as Error).message };
  }
}

/** The "reload" answer of a stale save: replace the tab with the disk version (undo can go back). */
export async function reloadFromDisk(tabId: string, store: EditorStore = editorStore): Promise<void> {
  const s = store.getState();
  const tab = s.tabs.find((t) => t.id === tabId);
  if (!tab?.savedId) return;
  const r = readSavedGraph(await api.getGraph(tab.savedId));
  if (r.kind === 'unreadable') {
    // The tab keeps the user's version: the disk holds nothing this editor can show as a graph.
    const msg = `not reloaded: ${unreadableMessage(tab.savedId, r.file)}. Your version is unchanged.`;
    s.showToast(msg, 'error');
    log(store, 'error', msg);
    return;
  }
  s.reloadTab(tabId, r.graph, formatGraphText(r.graph));
}

/**
 * Reads an unreadable tab's file again (its Reload button, a change in workspace/graphs, boot after
 * the journal): a fixed file becomes an ordinary tab; a still broken one shows the new errors.
 */
export async function rereadUnreadable(tabId: string, store: EditorStore = editorStore): Promise<void> {
  const tab = store.getState().tabs.find((t) => t.id === tabId);
  if (!tab?.unreadable || !tab.savedId) return;
  try {
    const r = readSavedGraph(await api.getGraph(tab.savedId));
    if (r.kind === 'unreadable') store.getState().rereadTab(tabId, { unreadable: r.file });
    else {
      store.getState().rereadTab(tabId, { graph: r.graph, warnings: r.warnings });
      log(store, 'info', `${tab.savedId} reads as a graph again: opened it`);
    }
  } catch (e) {
    log(store, 'warn', `could not read ${tab.savedId} again: ${(e as Error).message}`);
  }
}

/** The "Replace the unreadable file" answer: writes the tab over the file version the dialog showed. */
export async function replaceUnreadable(
  tabId: string,
  etag: string | null,
  store: EditorStore = editorStore,
): Promise<boolean> {
  const tab = store.getState().tabs.find((t) => t.id === tabId);
  if (!tab) return false;
  const ok = await overwrite(tab, store, etag ?? undefined, true);
  if (ok) graphsChanged();
  return ok;
}

export async function deleteSaved(id: string, store: EditorStore = editorStore): Promise<void> {
  await api.deleteGraph(id);
  graphsChanged();
  store.setState((st) => ({
    tabs: st.tabs.map((t) => (t.savedId === id ? { ...t, savedId: null, diskText: null, dirty: true } : t)),
  }));
  store.getState().addLog('info', `deleted ${id}`);
}

/**
 * Rename = save under the new name, then delete the old file. A plain new name stays in the old
 * file's folder; "folder/name" moves it.
 */
export async function renameSaved(tabId: string, newName: string, store: EditorStore = editorStore) {
  const tab = store.getState().tabs.find((t) => t.id === tabId);
  const old = tab?.savedId;
  const r = await saveTabAs(tabId, newName, old ? { folder: folderOf(old) } : {}, store);
  if (r.ok && old && old !== r.id) {
    await api.deleteGraph(old).catch(() => undefined);
    graphsChanged(); // the explorer refetched on save, while the old file was still there
  }
  return r;
}
