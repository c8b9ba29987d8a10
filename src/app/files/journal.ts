// Local journal of every open tab in IndexedDB, written after every change, so a crash, a closed
// window or a reload restores unsaved work exactly (graph, undo-less, dirty flag, saved id).
// `document.documentElement.dataset.journal` is "pending" while a write is in flight, then "saved".
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { Tab } from '../store/doc.slice.ts';
import type { EditorStore } from '../store/editor.store.ts';
import type { UnreadableFile } from './savedGraph.ts';

const DB = 'statewire';
const STORE = 'journal';

export interface JournalEntry {
  tabId: string;
  order: number;
  title: string;
  graph: GraphDef;
  path: string[];
  savedId: string | null;
  diskText: string | null;
  dirty: boolean;
  stateVisible: boolean;
  active: boolean;
  /** A tab showing a file that does not read as a graph (boot reads the file again). */
  unreadable?: UnreadableFile | null;
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'tabId' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('indexedDB open failed'));
  });
}

let dbPromise: Promise<IDBDatabase> | null = null;
const db = () => (dbPromise ??= openDb());

export async function readJournal(): Promise<JournalEntry[]> {
  try {
    const d = await db();
    return await new Promise((resolve, reject) => {
      const req = d.transaction(STORE, 'readonly').objectStore(STORE).getAll();
      req.onsuccess = () => resolve((req.result as JournalEntry[]).sort((a, b) => a.order - b.order));
      req.onerror = () => reject(req.error ?? new Error('journal read failed'));
    });
  } catch {
    return [];
  }
}

async function writeAll(entries: JournalEntry[]): Promise<void> {
  const d = await db();
  await new Promise<void>((resolve, reject) => {
    const tx = d.transaction(STORE, 'readwrite');
    const os = tx.objectStore(STORE);
    os.clear();
    for (const e of entries) os.put(e);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('journal write failed'));
  });
}

export function entriesOf(tabs: readonly Tab[], activeId: string | null): JournalEntry[] {
  return tabs.map((t, order) => ({
    tabId: t.id,
    order,
    title: t.title,
    graph: t.graph,
    path: t.path,
    savedId: t.savedId,
    diskText: t.diskText,
    dirty: t.dirty,
    stateVisible: t.stateVisible,
    active: t.id === activeId,
    unreadable: t.unreadable,
  }));
}

/** Starts journaling: every change to the tab list is written (latest state wins, one write at a time). */
export function startJournal(store: EditorStore): () => void {
  let writing = false;
  let queued = false;
  const mark = (v: string) => {
    document.documentElement.dataset.journal = v;
  };
  const flush = async () => {
    if (writing) {
      queued = true;
      return;
    }
    writing = true;
    mark('pending');
    try {
      do {
        queued = false;
        const s = store.getState();
        await writeAll(entriesOf(s.tabs, s.activeTabId));
      } while (queued);
      mark('saved');
    } catch (e) {
      mark('error');
      store.getState().addLog('error', `could not journal unsaved work: ${(e as Error).message}`);
    } finally {
      writing = false;
    }
  };
  mark('saved');
  return store.subscribe((s, prev) => {
    if (s.tabs !== prev.tabs || s.activeTabId !== prev.activeTabId) void flush();
  });
}
