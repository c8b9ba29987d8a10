// Evaluation routes (part of the batch plugin, batch.plugin.ts): two batches compared episode by
// episode, a condition queried over every stored step of a batch, the first step where two runs
// differ, a batch's graph (the one its version names). Answered from the batches' RunLog (SQLite embedded, PostgreSQL distributed) by
// evaluation.ts; JSON by default, CSV with `format=csv` (stable columns: domain/batch/evaluationCsv.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { comparisonSummaryCsv, comparisonToCsv, queryToCsv } from '../../domain/batch/evaluationCsv.ts';
import {
  BatchQueryQuerySchema,
  CompareQuerySchema,
  FirstDiffQuerySchema,
} from '../../domain/batch/evaluation.schema.ts';
import { RunIdParamSchema } from '../../domain/protocol/protocol.rest.ts';
import type { RunLog } from '../db/runLog.ts';
import { parseOr400 } from '../errors/errors.ts';
import { compareStoredBatches, firstStoredDifference, loadBatch, queryStoredBatch } from './evaluation.ts';

const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);

function sendCsv(reply: FastifyReply, name: string, body: string): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${safeName(name)}.csv"`)
    .header('cache-control', 'no-store')
    .send(body);
}

/** `log`: where batches and their episode runs are stored. */
export function registerEvaluationRoutes(app: FastifyInstance, log: RunLog): void {
  app.get('/api/batches/compare', async (req, reply) => {
    const q = parseOr400(CompareQuerySchema, req.query, 'query');
    const c = await compareStoredBatches(log, q.a, q.b, {
      metric: q.metric,
      seed: q.seed,
      resamples: q.resamples,
    });
    if (q.format === 'csv') return sendCsv(reply, `compare-${q.a}-${q.b}`, comparisonToCsv(c));
    if (q.format === 'summary-csv')
      return sendCsv(reply, `compare-summary-${q.a}-${q.b}`, comparisonSummaryCsv(c));
    return c;
  });

  app.get('/api/batches/compare/first-diff', async (req) => {
    const q = parseOr400(FirstDiffQuerySchema, req.query, 'query');
    return firstStoredDifference(log, q.a, q.b);
  });

  // The batch's graph as stored (its `--set` overrides applied, before per-episode seeding): the
  // graph its version names. An episode's own run stores its seeded copy.
  app.get('/api/batches/:id/graph', async (req) => {
    const { id } = parseOr400(RunIdParamSchema, req.params, 'params');
    return (await loadBatch(log, id)).record.graph;
  });

  app.get('/api/batches/:id/query', async (req, reply) => {
    const { id } = parseOr400(RunIdParamSchema, req.params, 'params');
    const q = parseOr400(BatchQueryQuerySchema, req.query, 'query');
    const result = await queryStoredBatch(log, id, q.q);
    if (q.format === 'csv') return sendCsv(reply, `query-${id}`, queryToCsv(result.hits));
    return result;
  });
}
