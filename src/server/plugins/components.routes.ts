// GET /api/components/node-schemas: the node catalog in the reference's list shape (docs/reference-system.md §1.8).
// The catalog is whatever the server was started with (built-ins plus loaded plugins).
import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';

export function registerComponentRoutes(app: FastifyInstance, catalog: () => Catalog): void {
  app.get('/api/components/node-schemas', async () => [...catalog().values()]);
}
