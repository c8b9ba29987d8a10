// Catalog slice: the node types the library offers. Starts with the built-ins so the editor works
// offline; replaced by the server's GET /api/components/node-schemas (built-ins + plugins + node
// services) once loaded. `services` is the server's node-services report (GET /api/services and the
// `services_changed` notice): the library's health dots and the "service is down" messages read it.
import type { StateCreator } from 'zustand';
import type { Catalog, NodeSpec } from '../../domain/catalog/catalog.schema.ts';
import { BUILTIN_CATALOG } from '../../domain/catalog/catalog.builtins.ts';
import type { ServicesReport } from '../../domain/services/manifest.ts';
import type { EditorState } from './editor.store.ts';

export interface CatalogSlice {
  catalog: Catalog;
  specs: NodeSpec[];
  catalogSource: 'builtin' | 'server';
  /** The server's catalog, already parsed (parseCatalog in servicesSync.ts). */
  setCatalog(catalog: Catalog): void;
  /** Null until the server answered (an offline editor knows nothing about services). */
  services: ServicesReport | null;
  setServices(report: ServicesReport): void;
}

export const createCatalogSlice: StateCreator<EditorState, [], [], CatalogSlice> = (set) => ({
  catalog: BUILTIN_CATALOG,
  specs: [...BUILTIN_CATALOG.values()],
  catalogSource: 'builtin',
  setCatalog(catalog) {
    set({ catalog, specs: [...catalog.values()], catalogSource: 'server' });
  },
  services: null,
  setServices(report) {
    set({ services: report });
  },
});
