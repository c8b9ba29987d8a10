// The runs feature's REST routes as one fastify plugin (registered by app.ts): run control at
// /api/navigate (navigate.routes.ts), run history at /api/runs (runs.routes.ts), bundles in and out
// (bundle.routes.ts). One encapsulated context on purpose: the bundle routes' read-only hook must
// see the restore and navigate routes, and their bundle body parser stays inside this plugin; the
// app-wide rules (origin guard, error shape, JSON parser and body limit) come from app.ts's root.
import type { FastifyPluginAsync } from 'fastify';
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { RunStore } from '../db/runStore.ts';
import { registerBundleRoutes } from './bundle.routes.ts';
import { registerNavigateRoutes } from './navigate.routes.ts';
import type { RunManager } from './runManager.ts';
import { registerRunRoutes } from './runs.routes.ts';

export interface RunsPluginOptions {
  runs: RunManager;
  store: RunStore;
  /** The node catalog a run start is checked against (it changes when node services reload). */
  catalog: () => Catalog;
  /** The server's body limit: a bundle may decompress to a multiple of it (bundle.routes.ts). */
  bodyLimit: number;
  /** Waits for what a graph needs before its run is checked (node services still starting). */
  beforeRun?: (graph: GraphDef) => Promise<void>;
}

export const runsPlugin: FastifyPluginAsync<RunsPluginOptions> = async (app, opts) => {
  registerNavigateRoutes(app, opts.runs, opts.catalog, opts.beforeRun);
  registerRunRoutes(app, opts.runs, opts.store);
  registerBundleRoutes(app, opts.store, opts.runs, opts.bodyLimit);
};
