// UI slice: selection at the current level, hover highlighting, drawer tab, overlays, toasts and
// the in-app log. Kept apart from the document so UI churn never touches undo history.
import type { StateCreator } from 'zustand';
import type { Position } from '../../domain/graph/graph.schema.ts';
import type { EditorState } from './editor.store.ts';
import type { Issue } from './graphIo.ts';

export interface SelectionIds {
  nodes: string[];
  containers: string[];
  edges: string[];
  grants: string[];
}

export const EMPTY_SELECTION: SelectionIds = { nodes: [], containers: [], edges: [], grants: [] };

export interface Toast {
  nonce: number;
  message: string;
  kind: 'refusal' | 'info' | 'error';
  /** Screen position (the cursor, for refused connections); centred at the bottom otherwise. */
  at?: Position;
}

export interface LogEntry {
  ts: number;
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** Modal dialogs; each names what it acts on. */
export type Dialog =
  /** `changes`: what someone else changed on disk since the tab read the file (one line each). */
  | { kind: 'conflict'; tabId: string; changes: string[] }
  | { kind: 'saveAs'; tabId: string }
  | { kind: 'rename'; tabId: string }
  | { kind: 'confirmClose'; tabId: string }
  | { kind: 'importErrors'; fileName: string; errors: { path: string; message: string }[] }
  /** A save found the file on disk unreadable: replace it only on an explicit yes (etag: the version shown). */
  | { kind: 'replaceUnreadable'; tabId: string; id: string; issues: Issue[]; etag: string | null };

export type DrawerTab = 'state' | 'issues' | 'log' | 'timeline' | 'breakpoints' | 'batches';
export type Overlay = 'palette' | 'cheatsheet' | null;

export interface UiSlice {
  selection: SelectionIds;
  /** Ids the canvas should select and centre (from the issues panel, palette …). */
  focusRequest: { nonce: number; ids: string[] } | null;
  hover: { kind: 'node' | 'container'; id: string } | null;
  drawerTab: DrawerTab;
  overlay: Overlay;
  toast: Toast | null;
  log: LogEntry[];
  fitNonce: number;
  snapToGrid: boolean;
  dialog: Dialog | null;
  setDialog(d: Dialog | null): void;
  setSelection(sel: SelectionIds): void;
  clearSelection(): void;
  focus(ids: string[]): void;
  setHover(h: UiSlice['hover']): void;
  setDrawerTab(t: DrawerTab): void;
  setOverlay(o: Overlay): void;
  showToast(message: string, kind?: Toast['kind'], at?: Position): void;
  dismissToast(): void;
  addLog(level: LogEntry['level'], message: string): void;
  requestFit(): void;
  toggleSnap(): void;
}

let nonce = 0;

export const createUiSlice: StateCreator<EditorState, [], [], UiSlice> = (set, get) => ({
  selection: EMPTY_SELECTION,
  focusRequest: null,
  hover: null,
  // State first: Issues opens by itself only when there is something to fix (files/documents.ts
  // showIssuesOnLoad, a refused run), not for the info notes most graphs carry.
  drawerTab: 'state',
  overlay: null,
  toast: null,
  log: [],
  fitNonce: 0,
  snapToGrid: false,
  dialog: null,
  setDialog(d) {
    set({ dialog: d });
  },
  setSelection(sel) {
    const cur = get().selection;
    const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
    if (
      same(cur.nodes, sel.nodes) &&
      same(cur.containers, sel.containers) &&
      same(cur.edges, sel.edges) &&
      same(cur.grants, sel.grants)
    )
      return;
    set({ selection: sel });
  },
  clearSelection() {
    if (get().selection !== EMPTY_SELECTION) set({ selection: EMPTY_SELECTION });
  },
  focus(ids) {
    nonce += 1;
    set({ focusRequest: { nonce, ids } });
  },
  setHover(h) {
    const cur = get().hover;
    if (cur?.id === h?.id && cur?.kind === h?.kind) return;
    set({ hover: h });
  },
  setDrawerTab(t) {
    set({ drawerTab: t });
  },
  setOverlay(o) {
    set({ overlay: o });
  },
  showToast(message, kind = 'info', at) {
    nonce += 1;
    set({ toast: { nonce, message, kind, at } });
    if (kind !== 'info') get().addLog(kind === 'error' ? 'error' : 'warn', message);
  },
  dismissToast() {
    set({ toast: null });
  },
  addLog(level, message) {
    set((s) => ({ log: [...s.log.slice(-499), { ts: Date.now(), level, message }] }));
  },
  requestFit() {
    set((s) => ({ fitNonce: s.fitNonce + 1 }));
  },
  toggleSnap() {
    set((s) => ({ snapToGrid: !s.snapToGrid }));
  },
});
