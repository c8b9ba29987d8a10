// The batch feature's REST routes as one fastify plugin (registered by app.ts): batches started,
// listed, read, exported and cancelled at /api/batches (batches.routes.ts), and stored batches
// compared and queried (evaluation.routes.ts). The app-wide rules (origin guard, error shape, JSON
// parser and body limit) come from app.ts's root, which this encapsulated context inherits.
import type { FastifyPluginAsync } from 'fastify';
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import type { RunLog } from '../db/runLog.ts';
import type { BatchManager } from './batchManager.ts';
import { registerBatchRoutes } from './batches.routes.ts';
import { registerEvaluationRoutes } from './evaluation.routes.ts';

export interface BatchPluginOptions {
  batches: BatchManager;
  /** Where the batches and their episode runs are stored (SQLite embedded, PostgreSQL distributed). */
  log: RunLog;
  /** The node catalog a batch's graph is checked against, as a run start's is. */
  catalog: () => Catalog;
}

export const batchPlugin: FastifyPluginAsync<BatchPluginOptions> = async (app, opts) => {
  registerBatchRoutes(app, opts.batches, opts.catalog);
  registerEvaluationRoutes(app, opts.log);
};
