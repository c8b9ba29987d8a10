// The editor's zustand store: a vanilla store (testable without React) composed of slices, plus
// the React binding and the memoized per-level index that lets each canvas node select itself by id.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { ContainerDef, GraphDef, NodeDef } from '../../domain/graph/graph.schema.ts';
import { createCatalogSlice, type CatalogSlice } from './catalog.slice.ts';
import { activeTab, createDocSlice, type DocSlice } from './doc.slice.ts';
import { levelAt } from './graphPath.ts';
import { createUiSlice, type UiSlice } from './ui.slice.ts';

export type EditorState = DocSlice & UiSlice & CatalogSlice;

export function createEditorStore() {
  return createStore<EditorState>()((...a) => ({
    ...createDocSlice(...a),
    ...createUiSlice(...a),
    ...createCatalogSlice(...a),
  }));
}

export const editorStore = createEditorStore();
export type EditorStore = typeof editorStore;

export function useEditor<T>(selector: (s: EditorState) => T): T {
  return useStore(editorStore, selector);
}

const EMPTY_GRAPH_LEVEL: GraphDef = {
  name: '',
  description: '',
  nodes: [],
  edges: [],
  containers: [],
  access_grants: [],
  hooks: [],
  step_budget: 500,
  eval_graph: true,
  kind: 'graph',
  group: '',
  presetId: null,
};

/** The graph level the active tab is editing (root or a composite's subgraph). */
export function currentLevel(s: EditorState): GraphDef {
  const tab = activeTab(s);
  return tab ? levelAt(tab.graph, tab.path) : EMPTY_GRAPH_LEVEL;
}

export interface LevelIndex {
  nodes: Map<string, NodeDef>;
  containers: Map<string, ContainerDef>;
}

const indexCache = new WeakMap<GraphDef, LevelIndex>();

/** Normalized by-id view of a level, computed once per graph object. */
export function indexOf(level: GraphDef): LevelIndex {
  let idx = indexCache.get(level);
  if (!idx) {
    idx = {
      nodes: new Map(level.nodes.map((n) => [n.id, n])),
      containers: new Map(level.containers.map((c) => [c.id, c])),
    };
    indexCache.set(level, idx);
  }
  return idx;
}

export function selectNode(s: EditorState, id: string): NodeDef | undefined {
  return indexOf(currentLevel(s)).nodes.get(id);
}

export function selectContainer(s: EditorState, id: string): ContainerDef | undefined {
  return indexOf(currentLevel(s)).containers.get(id);
}
