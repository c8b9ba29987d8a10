// `/api/graphs` (docs/reference-system.md §1.16): graph files CRUD, move and folder operations, over
// whichever GraphStore the server has (the graphs folder, or PostgreSQL in distributed mode); and
// `/api/graph-versions/{id}[?version=N]`, the versions PostgreSQL keeps. Bodies are parsed by zod
// (control keys) and the tolerant graph parser (the graph itself).
// Part of the workspace plugin (workspace.plugin.ts), which registers these routes in its context.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import {
  FolderCreateBodySchema,
  FolderDeleteQuerySchema,
  FolderRenameBodySchema,
  GraphListQuerySchema,
  GraphMoveBodySchema,
  GraphSaveControlSchema,
  SAVE_CONTROL_KEYS,
} from '../../domain/protocol/protocol.rest.ts';
import { decodeGraph, describeErrors } from './graphCodec.ts';
import type { GraphStore } from '../ports/graphStore.ts';
import { ApiError, badRequest, parseOr400 } from '../errors/errors.ts';

const GraphVersionQuerySchema = z.object({ version: z.coerce.number().int().min(1).optional() }).strict();

/** Splits a save request into control keys and a decoded graph; 400 naming the bad field. */
export function decodeSaveRequest(body: unknown): {
  control: ReturnType<typeof GraphSaveControlSchema.parse>;
  graph: GraphDef;
} {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('invalid-body', 'body must be a JSON object (a graph save request)', '$');
  const rec = body as Record<string, unknown>;
  const controlIn: Record<string, unknown> = {};
  const graphIn: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec))
    ((SAVE_CONTROL_KEYS as readonly string[]).includes(k) ? controlIn : graphIn)[k] = v;
  const control = parseOr400(GraphSaveControlSchema, controlIn, 'body');
  if (typeof graphIn.name !== 'string' || graphIn.name.trim() === '')
    throw badRequest('invalid-body', 'name is required and must be a non-blank string', '$.name');
  const r = decodeGraph(graphIn);
  if (!r.ok)
    throw new ApiError(400, 'invalid-graph', `invalid graph: ${describeErrors(r.errors)}`, r.errors[0]?.path);
  return { control, graph: r.graph };
}

export function registerGraphRoutes(app: FastifyInstance, files: GraphStore, onChange: () => void): void {
  const changed = <T>(v: T): T => {
    onChange();
    return v;
  };

  app.get('/api/graphs', async (req) =>
    parseOr400(GraphListQuerySchema, req.query, 'query').view === 'summary'
      ? await files.summaries()
      : await files.list(),
  );

  // `root`: the graphs folder as `statewire serve` prints it (the editor's Graphs panel shows it too).
  // (PostgreSQL: the database URL, password redacted.)
  app.get('/api/graphs/folders', async () => ({ folders: await files.folders(), root: files.location }));
  app.post('/api/graphs/folders', async (req) =>
    changed(await files.createFolder(parseOr400(FolderCreateBodySchema, req.body, 'body').path)),
  );
  app.post('/api/graphs/folders/rename', async (req) => {
    const b = parseOr400(FolderRenameBodySchema, req.body, 'body');
    return changed(await files.renameFolder(b.path, b.new_path));
  });
  app.delete('/api/graphs/folders', async (req) => {
    const q = parseOr400(FolderDeleteQuerySchema, req.query, 'query');
    return changed(await files.deleteFolder(q.path, q.recursive));
  });

  app.post('/api/graphs', async (req, reply) => {
    const { control, graph } = decodeSaveRequest(req.body);
    const saved = await files.create(graph, control.folder, control.overwrite, control.replace_unreadable);
    return reply.status(201).send(changed(saved));
  });

  app.get('/api/graphs/*', async (req) => await files.get(wildcard(req.params)));

  app.put('/api/graphs/*', async (req) => {
    const { control, graph } = decodeSaveRequest(req.body);
    const ifMatch = req.headers['if-match'];
    const expected =
      control.expected_etag ??
      (typeof ifMatch === 'string' ? ifMatch.replace(/^W\//, '').replace(/"/g, '') : undefined);
    return changed(await files.update(wildcard(req.params), graph, expected, control.replace_unreadable));
  });

  app.delete('/api/graphs/*', async (req) => changed(await files.delete(wildcard(req.params))));

  // The kept versions of a graph (PostgreSQL store; the folder store answers 404 `no-versions`).
  app.get('/api/graph-versions/*', async (req) => {
    const id = wildcard(req.params);
    const { version } = parseOr400(GraphVersionQuerySchema, req.query, 'query');
    if (version === undefined) return { id, versions: await files.versions(id) };
    return { id, ...(await files.version(id, version)) };
  });

  // POST /api/graphs/{id}/move — the only POST with a wildcard id.
  app.post('/api/graphs/*', async (req) => {
    const rest = wildcard(req.params);
    if (!rest.endsWith('/move')) throw new ApiError(404, 'not-found', `no route POST /api/graphs/${rest}`);
    const b = parseOr400(GraphMoveBodySchema, req.body, 'body');
    return changed(await files.move(rest.slice(0, -'/move'.length), b.dest_folder, b.new_name));
  });
}

function wildcard(params: unknown): string {
  const raw = (params as Record<string, string | undefined>)['*'] ?? '';
  return raw.replace(/\.json$/, '');
}
