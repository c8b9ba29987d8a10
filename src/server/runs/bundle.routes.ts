// Run bundles over REST: `GET /api/runs/{id}/bundle` streams a run as one `.swrun` file (gzip),
// `POST /api/runs/import` (Content-Type: application/vnd.statewire.bundle, the bytes as the body)
// stores one as a new read-only run. Imported runs can be inspected, replayed on the timeline and
// forked (a fork is an ordinary new run); restoring them to continue is refused with 409.
// Part of the runs plugin (runs.plugin.ts), which registers these routes in its context.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BUNDLE_IMPORT_ROUTE, BUNDLE_MEDIA_TYPE } from '../../domain/protocol/runBundle.schema.ts';
import { RunIdParamSchema } from '../../domain/protocol/protocol.rest.ts';
import type { RunStore } from '../db/runStore.ts';
import { bundleFileName, bundleStream, storeSource, type BundleSource } from './bundleExport.ts';
import { BundleError } from './bundleFormat.ts';
import { importBundle, ImportedRuns } from './bundleImport.ts';
import type { RunManager } from './runManager.ts';
import { ApiError, conflict, notFound, parseOr400 } from '../errors/errors.ts';

/**
 * Answers with a run's bundle as a `.swrun` download, read from `source`: this server's store here,
 * PostgreSQL for another instance's run (distributed/remoteRuns.plugin.ts).
 */
export function sendBundle(
  reply: FastifyReply,
  row: { id: string; graph_name: string },
  source: BundleSource,
): FastifyReply {
  return reply
    .header('content-type', BUNDLE_MEDIA_TYPE)
    .header('content-disposition', `attachment; filename="${bundleFileName(row.graph_name, row.id)}"`)
    .header('cache-control', 'no-store')
    .send(bundleStream(source, row.id));
}

/** How far a bundle may decompress, relative to the body limit (gzip bombs stop here). */
export const UNCOMPRESSED_FACTOR = 16;
const MIN_UNCOMPRESSED = 64 * 1024 * 1024;

const readOnly = (runId: string) =>
  conflict(
    `run ${runId} was imported from a bundle and is read-only: inspect it on the timeline, or fork it to continue in a new run`,
    'imported-read-only',
  );

export function registerBundleRoutes(
  app: FastifyInstance,
  store: RunStore,
  runs: RunManager,
  bodyLimit: number,
): void {
  const imported = new ImportedRuns(store.db);
  // An import the server stopped in the middle of left a hidden half-written run (bundleImport.ts).
  const unfinished = store.removeUnfinishedImports();
  if (unfinished.length > 0)
    console.error(`statewire: removed ${unfinished.length} run(s) a stopped server was still importing`);
  // Only the import route is let through originGuard with this type; elsewhere it is a 415 first.
  app.addContentTypeParser(BUNDLE_MEDIA_TYPE, { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  // Read-only: an imported run never becomes the current run, so nothing can resume or step it.
  app.addHook('preHandler', async (req: FastifyRequest) => {
    const route = req.routeOptions.url;
    if (route === '/api/runs/:id/restore') {
      const id = (req.params as { id?: unknown }).id;
      if (typeof id === 'string' && imported.has(id)) throw readOnly(id);
    } else if (route?.startsWith('/api/navigate/run/')) {
      const current = runs.currentRun?.id;
      if (current !== undefined && imported.has(current)) throw readOnly(current);
    }
  });

  app.get('/api/runs/:id/bundle', async (req, reply) => {
    const { id } = parseOr400(RunIdParamSchema, req.params, 'params');
    const row = store.getRun(id);
    if (!row) throw notFound(`no run ${JSON.stringify(id)}`);
    return sendBundle(reply, row, storeSource(store, row.id));
  });

  app.post(BUNDLE_IMPORT_ROUTE, async (req, reply) => {
    if (!Buffer.isBuffer(req.body))
      throw new ApiError(
        415,
        'unsupported-media-type',
        `POST ${BUNDLE_IMPORT_ROUTE} takes the bundle's bytes with Content-Type: ${BUNDLE_MEDIA_TYPE}`,
      );
    try {
      const result = await importBundle(store, imported, req.body, {
        maxUncompressed: Math.max(MIN_UNCOMPRESSED, UNCOMPRESSED_FACTOR * bodyLimit),
        maxValueBytes: store.blobs.maxValueBytes,
      });
      return await reply.status(201).send(result);
    } catch (e) {
      if (e instanceof BundleError) throw new ApiError(e.status, e.code, e.message, e.path);
      throw e;
    }
  });
}
