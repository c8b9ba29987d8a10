// Catalog slice: the node types the library offers. Starts with the built-ins so the editor works
// offline; replaced by the server's GET /api/components/node-schemas (built-ins + plugins + node
// services) once loaded. `services` is the server's node-services report (GET /api/services and the
// `services_changed` notice): the library's health dots and the "service is down" messages read it.
import type { StateCreator } from 'zustand';
import {
  makeCatalog,
  type Catalog,
  type NodeSpec,
  type NodeSpecInput,
} from '../../domain/catalog/catalog.schema.ts';
import { BUILTIN_CATALOG } from '../../domain/catalog/catalog.builtins.ts';
import type { ServicesReport } from '../../domain/services/manifest.ts';
import type { EditorState } from './editor.store.ts';

export interface CatalogSlice {
  catalog: Catalog;
  specs: NodeSpec[];
  catalogSource: 'builtin' | 'server';
  /** Specs to parse (built-in style inputs), or a catalog already parsed (servicesSync.ts). */
  setCatalog(specs: readonly NodeSpecInput[] | Catalog): void;
  /** Null until the server answered (an offline editor knows nothing about services). */
  services: ServicesReport | null;
  setServices(report: ServicesReport): void;
}

export const createCatalogSlice: StateCreator<EditorState, [], [], CatalogSlice> = (set) => ({
  catalog: BUILTIN_CATALOG,
  specs: [...BUILTIN_CATALOG.values()],
  catalogSource: 'builtin',
  setCatalog(input) {
    const catalog = input instanceof Map ? input : makeCatalog(input as readonly NodeSpecInput[]);
    set({ catalog, specs: [...catalog.values()], catalogSource: 'server' });
  },
  services: null,
  setServices(report) {
    set({ services: report });
  },
});
