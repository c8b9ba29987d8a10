// POST /api/graphs/validate and POST /api/graphs/layout. Validation never raises: a graph that does
// not even parse comes back as issues too (the reference answers 200 with wire_errors).
// Part of the workspace plugin (workspace.plugin.ts), which registers these routes in its context.
import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import type { Issue } from '../../domain/validate/issues.ts';
import { LayoutBodySchema } from '../../domain/protocol/protocol.rest.ts';
import { layoutGraph, LayoutTooLargeError } from '../layout/elkLayout.ts';
import { decodeGraph, describeErrors } from './graphCodec.ts';
import { validateGraph, WIRE_CODES } from './graphValidate.ts';
import { ApiError, badRequest, parseOr400 } from '../errors/errors.ts';

/** `{graph: …}` or a bare graph. */
function unwrapGraph(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('invalid-body', 'body must be a graph object or {graph}', '$');
  const rec = body as Record<string, unknown>;
  return 'graph' in rec && typeof rec.graph === 'object' && rec.graph !== null && !('nodes' in rec)
    ? rec.graph
    : rec;
}

export function registerValidateRoutes(app: FastifyInstance, catalog: () => Catalog): void {
  app.post('/api/graphs/validate', async (req) => {
    const r = decodeGraph(unwrapGraph(req.body));
    const issues: Issue[] = r.ok ? [...r.warnings, ...validateGraph(r.graph, catalog())] : r.errors;
    const wire = issues.filter((i) => i.severity === 'error' && WIRE_CODES.has(i.code));
    return {
      ok: !issues.some((i) => i.severity === 'error'),
      issues,
      wire_errors: wire.map((i) => i.message),
      coverage: r.ok
        ? {
            checked: r.graph.edges.length,
            skipped: 0,
            total_edges: r.graph.edges.length,
            unresolved_node_types: [
              ...new Set(r.graph.nodes.map((n) => n.type).filter((t) => !catalog().has(t))),
            ],
          }
        : { checked: 0, skipped: 0, total_edges: 0, unresolved_node_types: [] },
    };
  });

  app.post('/api/graphs/layout', async (req) => {
    const raw = unwrapGraph(req.body);
    const { dimensions } = parseOr400(LayoutBodySchema, raw, 'body');
    const rec = { ...(raw as Record<string, unknown>) };
    delete rec.dimensions;
    const r = decodeGraph(rec);
    if (!r.ok)
      throw new ApiError(
        400,
        'invalid-graph',
        `invalid graph: ${describeErrors(r.errors)}`,
        r.errors[0]?.path,
      );
    try {
      return await layoutGraph(r.graph, dimensions ?? {});
    } catch (err) {
      if (err instanceof LayoutTooLargeError) throw new ApiError(413, 'graph-too-large', err.message);
      throw err;
    }
  });
}
