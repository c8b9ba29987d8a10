// /api/batches: start a batch (one run per episode), list batches with their progress, one batch with
// its episode rows and aggregate, its rows as CSV, cancel. The graph is checked as a run start is
// (`assertRunnable`), after the `set` overrides, so a bad override fails here naming `$.set[i]`.
// Part of the batch plugin (batch.plugin.ts), which registers these routes in its context.
import type { FastifyInstance } from 'fastify';
import { BatchStartBodySchema } from '../../domain/batch/batch.schema.ts';
import { rowsToCsv } from '../../domain/batch/csv.ts';
import { applySets } from '../../domain/batch/setPaths.ts';
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import { EmptyBodySchema, RunIdParamSchema } from '../../domain/protocol/protocol.rest.ts';
import type { BatchManager } from './batchManager.ts';
import { decodeGraph, describeErrors } from '../workspace/graphCodec.ts';
import { ApiError, notFound, parseOr400 } from '../errors/errors.ts';
import { assertRunnable } from '../runs/assertRunnable.ts';

const csvName = (graphName: string, id: string) =>
  `${(graphName || 'batch').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100)}-${id}.csv`;

export function registerBatchRoutes(
  app: FastifyInstance,
  batches: BatchManager,
  catalog: () => Catalog,
): void {
  const need = async (params: unknown) => {
    const { id } = parseOr400(RunIdParamSchema, params, 'params');
    const view = await batches.get(id);
    if (!view) throw notFound(`no batch ${JSON.stringify(id)}`, 'no-batch');
    return view;
  };

  app.post('/api/batches', async (req, reply) => {
    const body = parseOr400(BatchStartBodySchema, req.body, 'body');
    const decoded = decodeGraph(body.loop_definition);
    if (!decoded.ok)
      throw new ApiError(
        400,
        'invalid-graph',
        `Invalid graph definition: ${describeErrors(decoded.errors)}`,
        decoded.errors[0]?.path.replace(/^\$/, '$.loop_definition'),
      );
    const set = applySets(decoded.graph, body.set);
    if (!set.ok)
      throw new ApiError(400, 'invalid-set', `set[${set.index}]: ${set.message}`, `$.set[${set.index}]`);
    assertRunnable(set.graph, catalog(), '$.loop_definition');
    const { batchId } = await batches.start({
      graph: set.graph,
      episodes: body.episodes,
      workers: body.workers,
      seed: body.seed,
      sets: body.set,
    });
    return reply.code(202).send({ batch_id: batchId });
  });

  app.get('/api/batches', async () => batches.list());

  app.get('/api/batches/:id', async (req) => need(req.params));

  app.get('/api/batches/:id/csv', async (req, reply) => {
    const view = await need(req.params);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${csvName(view.batch.graph_name, view.batch.id)}"`,
      )
      .header('cache-control', 'no-store')
      .send(rowsToCsv(view.episodes));
  });

  app.post('/api/batches/:id/cancel', async (req) => {
    parseOr400(EmptyBodySchema, req.body, 'body');
    const view = await need(req.params);
    const cancelled = batches.cancel(view.batch.id);
    return {
      ok: true,
      batch_id: view.batch.id,
      cancelled,
      status: cancelled ? 'cancelling' : view.batch.status,
    };
  });
}
