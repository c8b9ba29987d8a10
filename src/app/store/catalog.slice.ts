// Catalog slice: the node types the library offers. Starts with the built-ins so the editor works
// offline; replaced by the server's GET /api/components/node-schemas (built-ins + plugins) once loaded.
import type { StateCreator } from 'zustand';
import { makeCatalog, type Catalog, type NodeSpec, type NodeSpecInput } from '../../domain/catalog.schema.ts';
import { BUILTIN_CATALOG } from '../../domain/catalog.builtins.ts';
import type { EditorState } from './editor.store.ts';

export interface CatalogSlice {
  catalog: Catalog;
  specs: NodeSpec[];
  catalogSource: 'builtin' | 'server';
  setCatalog(specs: readonly NodeSpecInput[]): void;
}

export const createCatalogSlice: StateCreator<EditorState, [], [], CatalogSlice> = (set) => ({
  catalog: BUILTIN_CATALOG,
  specs: [...BUILTIN_CATALOG.values()],
  catalogSource: 'builtin',
  setCatalog(input) {
    const catalog = makeCatalog(input);
    set({ catalog, specs: [...catalog.values()], catalogSource: 'server' });
  },
});
