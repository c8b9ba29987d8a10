// `GET/PUT /api/views/{graph id}`: a graph's view settings (breakpoints), kept apart from the graph
// file so the reference-format body never carries them.
// Part of the workspace plugin (workspace.plugin.ts), which registers these routes in its context.
import type { FastifyInstance } from 'fastify';
import { ViewSettingsSchema } from '../../domain/debug/viewSettings.ts';
import type { ViewSettingsStore } from './viewSettings.ts';
import { badRequest, parseOr400 } from '../errors/errors.ts';

function graphId(params: unknown): string {
  const id = (params as { '*'?: string })['*'] ?? '';
  if (!id || id.length > 500)
    throw badRequest('invalid-id', 'a graph id (1–500 characters) is required', '$.id');
  return id;
}

export function registerViewRoutes(app: FastifyInstance, views: ViewSettingsStore): void {
  app.get('/api/views/*', async (req) => views.get(graphId(req.params)));
  app.put('/api/views/*', async (req) =>
    views.put(graphId(req.params), parseOr400(ViewSettingsSchema, req.body, 'body')),
  );
}
