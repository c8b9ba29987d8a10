// The workspace's REST routes as one fastify plugin (registered by app.ts): graph files at
// /api/graphs (graphs.routes.ts), validation and layout (validate.routes.ts), per-graph view
// settings at /api/views (views.routes.ts). The app-wide rules (origin guard, error shape, JSON
// parser and body limit) come from app.ts's root, which this encapsulated context inherits.
import type { FastifyPluginAsync } from 'fastify';
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import type { GraphStore } from '../ports/graphStore.ts';
import { registerGraphRoutes } from './graphs.routes.ts';
import { registerValidateRoutes } from './validate.routes.ts';
import type { ViewSettingsStore } from './viewSettings.ts';
import { registerViewRoutes } from './views.routes.ts';

export interface WorkspacePluginOptions {
  /** The graphs folder (graphFiles.ts) or, in distributed mode, PostgreSQL (pgGraphStore.ts). */
  files: GraphStore;
  views: ViewSettingsStore;
  /** The node catalog a graph is validated against (it changes when node services reload). */
  catalog: () => Catalog;
  /** After a write through these routes: the store's watch sends its notice (platforms without a watcher too). */
  onGraphsChanged: () => void;
}

export const workspacePlugin: FastifyPluginAsync<WorkspacePluginOptions> = async (app, opts) => {
  registerGraphRoutes(app, opts.files, opts.onGraphsChanged);
  registerValidateRoutes(app, opts.catalog);
  registerViewRoutes(app, opts.views);
};
