// The node catalog over REST as a fastify plugin (registered by app.ts):
// - `GET /api/components/node-schemas`: the catalog in the reference's list shape
//   (docs/reference-system.md §1.8): built-ins, the workspace's plugins and node services' types;
// - `GET /api/components/plugins`: which plugin files of the workspace loaded and which failed, why.
import type { FastifyPluginAsync } from 'fastify';
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import type { PluginLoadResult } from './loadPlugins.ts';

export interface ComponentsPluginOptions {
  /** The catalog as it is now (node services add and replace types when they reload). */
  catalog: () => Catalog;
  plugins: PluginLoadResult;
}

export const componentsPlugin: FastifyPluginAsync<ComponentsPluginOptions> = async (app, opts) => {
  app.get('/api/components/node-schemas', async () => [...opts.catalog().values()]);
  app.get('/api/components/plugins', async () => opts.plugins);
};
