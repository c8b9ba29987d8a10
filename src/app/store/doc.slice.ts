// Document slice: one entry per open tab, each holding the graph (root), the composite path being
// edited, and snapshot undo history. Every edit goes through `edit`, which runs a pure operation on
// the current level and records exactly one undo entry; graphs share unchanged sub-objects, so
// snapshots are cheap.
import type { StateCreator } from 'zustand';
import { emptyGraph, type GraphDef } from '../../domain/graph/graph.schema.ts';
import type { OpResult } from '../../domain/graph/graph.ops.ts';
import { levelAt, replaceLevel, validPath } from './graphPath.ts';
import { formatGraphText, type Issue } from './graphIo.ts';
import type { UnreadableFile } from '../files/savedGraph.ts';
import type { EditorState } from './editor.store.ts';

export const HISTORY_LIMIT = 200;

export interface Tab {
  id: string;
  title: string;
  graph: GraphDef;
  /** Composite node ids from the root to the level being edited. */
  path: string[];
  past: GraphDef[];
  future: GraphDef[];
  /** Id under /api/graphs, or null for a never-saved document. */
  savedId: string | null;
  /** The run this tab was opened to show (`/?run=`, Runs, a batch episode); null for a graph file. */
  runId: string | null;
  dirty: boolean;
  /** Canonical text of the file as last read from / written to disk (stale-save detection). */
  diskText: string | null;
  /** Warnings from parsing the file this tab was opened from. */
  loadWarnings: Issue[];
  /** Show containers, grants and state handles (default: on when the graph has containers). */
  stateVisible: boolean;
  /** Bumped on every change; the journal and the issues panel key on it. */
  revision: number;
  /**
   * Set when the saved file does not read as a graph: the tab shows the error and the file's text
   * instead of a canvas, and refuses every edit and save (its empty graph is not the file's content).
   */
  unreadable: UnreadableFile | null;
}

export interface OpenInit {
  graph: GraphDef;
  savedId?: string | null;
  runId?: string | null;
  diskText?: string | null;
  title?: string;
  loadWarnings?: Issue[];
  dirty?: boolean;
  path?: string[];
  unreadable?: UnreadableFile | null;
}

export interface DocSlice {
  tabs: Tab[];
  activeTabId: string | null;
  openTab(init: OpenInit): string;
  newTab(): string;
  closeTab(id: string): void;
  setActiveTab(id: string): void;
  /** Runs `op` on the active level; on success records one undo step. Returns the op's outcome. */
  edit(op: (level: GraphDef) => OpResult): OpResult;
  /** Same as edit, on the root graph (tab-wide edits such as renaming the graph). */
  editRoot(op: (root: GraphDef) => OpResult): OpResult;
  undo(): void;
  redo(): void;
  enterComposite(nodeId: string): void;
  exitToDepth(depth: number): void;
  markSaved(tabId: string, savedId: string, diskText: string, title: string): void;
  /** Replaces a tab's document with the disk version (the "reload" answer of a stale save). */
  reloadTab(tabId: string, graph: GraphDef, diskText: string): void;
  /** An unreadable tab read again: still unreadable (new errors/text), or now a graph to edit. */
  rereadTab(
    tabId: string,
    read: { unreadable: UnreadableFile } | { graph: GraphDef; warnings: Issue[] },
  ): void;
  setStateVisible(visible: boolean): void;
  /**
   * A run's tab now shows another run (a fork made in it, a branch, a run picked in Runs): its label
   * names the run it shows. A graph file's tab stays the file's.
   */
  showRunInTab(tabId: string, runId: string): void;
}

let tabCounter = 0;
export function newTabId(): string {
  tabCounter += 1;
  return `tab_${Date.now().toString(36)}_${tabCounter}`;
}

export function makeTab(init: OpenInit): Tab {
  return {
    id: newTabId(),
    title: init.title ?? (init.graph.name || 'Untitled'),
    graph: init.graph,
    path: init.path ?? [],
    past: [],
    future: [],
    savedId: init.savedId ?? null,
    runId: init.runId ?? null,
    dirty: init.dirty ?? false,
    diskText: init.diskText ?? null,
    loadWarnings: init.loadWarnings ?? [],
    stateVisible: init.graph.containers.length > 0 || init.graph.access_grants.length > 0,
    revision: 0,
    unreadable: init.unreadable ?? null,
  };
}

/**
 * The graph of a new tab. `eval_graph` is off until the user turns it on (Graph inspector): an
 * evaluation graph must have a graphOut, and a blank canvas that opens with that error reads as
 * something already broken. Files keep the format's default (true when the key is absent).
 */
export const newGraph = (): GraphDef => ({ ...emptyGraph('Untitled'), eval_graph: false });

/** Why an edit of an unreadable tab is refused. */
export const unreadableReason = (t: Tab): string =>
  `${t.savedId ?? t.title} could not be read as a graph, so it cannot be edited here: fix the file (see the error view), then Reload`;

export function activeTab(s: Pick<DocSlice, 'tabs' | 'activeTabId'>): Tab | undefined {
  return s.tabs.find((t) => t.id === s.activeTabId);
}

export const createDocSlice: StateCreator<EditorState, [], [], DocSlice> = (set, get) => {
  const patchTab = (id: string, fn: (t: Tab) => Tab) =>
    set((s) => ({ tabs: s.tabs.map((t) => (t.id === id ? fn(t) : t)) }));

  const commit = (tab: Tab, nextRoot: GraphDef) =>
    patchTab(tab.id, (t) => ({
      ...t,
      graph: nextRoot,
      past: [...t.past, t.graph].slice(-HISTORY_LIMIT),
      future: [],
      dirty: true,
      stateVisible: t.stateVisible || (nextRoot.containers.length > 0 && t.graph.containers.length === 0),
      revision: t.revision + 1,
    }));

  return {
    tabs: [],
    activeTabId: null,
    openTab(init) {
      // A file or a run already open is brought forward, not opened twice.
      const existing = init.savedId
        ? get().tabs.find((t) => t.savedId === init.savedId)
        : init.runId
          ? get().tabs.find((t) => t.runId === init.runId && t.savedId === null)
          : undefined;
      if (existing) {
        set({ activeTabId: existing.id });
        return existing.id;
      }
      const tab = makeTab(init);
      set((s) => ({ tabs: [...s.tabs, tab], activeTabId: tab.id }));
      get().clearSelection();
      return tab.id;
    },
    newTab() {
      return get().openTab({ graph: newGraph(), title: 'Untitled' });
    },
    closeTab(id) {
      const { tabs, activeTabId } = get();
      const i = tabs.findIndex((t) => t.id === id);
      if (i < 0) return;
      const rest = tabs.filter((t) => t.id !== id);
      if (rest.length === 0) {
        const tab = makeTab({ graph: newGraph(), title: 'Untitled' });
        set({ tabs: [tab], activeTabId: tab.id });
        get().clearSelection();
        return;
      }
      const nextActive = activeTabId === id ? (rest[Math.min(i, rest.length - 1)]?.id ?? null) : activeTabId;
      set({ tabs: rest, activeTabId: nextActive });
      if (nextActive !== activeTabId) get().clearSelection();
    },
    setActiveTab(id) {
      if (get().activeTabId === id) return;
      set({ activeTabId: id });
      get().clearSelection();
    },
    edit(op) {
      const tab = activeTab(get());
      if (!tab) return { ok: false, reason: 'no document is open' };
      if (tab.unreadable) return { ok: false, reason: unreadableReason(tab) };
      const level = levelAt(tab.graph, tab.path);
      const r = op(level);
      if (r.ok && r.graph !== level) commit(tab, replaceLevel(tab.graph, tab.path, r.graph));
      return r;
    },
    editRoot(op) {
      const tab = activeTab(get());
      if (!tab) return { ok: false, reason: 'no document is open' };
      if (tab.unreadable) return { ok: false, reason: unreadableReason(tab) };
      const r = op(tab.graph);
      if (r.ok && r.graph !== tab.graph) commit(tab, r.graph);
      return r;
    },
    undo() {
      const tab = activeTab(get());
      const prev = tab?.past[tab.past.length - 1];
      if (!tab || !prev) return;
      patchTab(tab.id, (t) => ({
        ...t,
        graph: prev,
        past: t.past.slice(0, -1),
        future: [t.graph, ...t.future],
        path: validPath(prev, t.path),
        dirty: true,
        revision: t.revision + 1,
      }));
    },
    redo() {
      const tab = activeTab(get());
      const next = tab?.future[0];
      if (!tab || !next) return;
      patchTab(tab.id, (t) => ({
        ...t,
        graph: next,
        past: [...t.past, t.graph],
        future: t.future.slice(1),
        path: validPath(next, t.path),
        dirty: true,
        revision: t.revision + 1,
      }));
    },
    enterComposite(nodeId) {
      const tab = activeTab(get());
      if (!tab) return;
      const level = levelAt(tab.graph, tab.path);
      const sub = level.nodes.find((n) => n.id === nodeId)?.subgraph;
      if (!sub) return;
      // A composite with its own containers opens with State shown, like a graph that has them.
      const hasState = sub.containers.length > 0 || sub.access_grants.length > 0;
      patchTab(tab.id, (t) => ({
        ...t,
        path: [...t.path, nodeId],
        stateVisible: t.stateVisible || hasState,
      }));
      get().clearSelection();
    },
    exitToDepth(depth) {
      const tab = activeTab(get());
      if (!tab) return;
      patchTab(tab.id, (t) => ({ ...t, path: t.path.slice(0, depth) }));
      get().clearSelection();
    },
    markSaved(tabId, savedId, diskText, title) {
      // Saved, a run's tab becomes the file's tab.
      patchTab(tabId, (t) => ({
        ...t,
        savedId,
        runId: null,
        diskText,
        title,
        dirty: false,
        revision: t.revision + 1,
      }));
    },
    showRunInTab(tabId, runId) {
      const tab = get().tabs.find((t) => t.id === tabId);
      if (tab?.runId == null || tab.runId === runId) return;
      patchTab(tabId, (t) => ({ ...t, runId }));
    },
    reloadTab(tabId, graph, diskText) {
      patchTab(tabId, (t) => ({
        ...t,
        graph,
        diskText,
        past: [...t.past, t.graph].slice(-HISTORY_LIMIT),
        future: [],
        path: validPath(graph, t.path),
        dirty: false,
        revision: t.revision + 1,
      }));
    },
    rereadTab(tabId, read) {
      patchTab(tabId, (t) =>
        'unreadable' in read
          ? { ...t, unreadable: read.unreadable, revision: t.revision + 1 }
          : {
              ...makeTab({
                graph: read.graph,
                savedId: t.savedId,
                diskText: formatGraphText(read.graph),
                loadWarnings: read.warnings,
                title: read.graph.name || t.title,
              }),
              id: t.id,
              revision: t.revision + 1,
            },
      );
    },
    setStateVisible(visible) {
      const tab = activeTab(get());
      if (tab) patchTab(tab.id, (t) => ({ ...t, stateVisible: visible }));
    },
  };
};
