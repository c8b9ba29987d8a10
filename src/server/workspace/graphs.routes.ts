// `/api/graphs` (docs/reference-system.md §1.16): graph files CRUD, move and folder operations. Bodies are
// parsed by zod (control keys) and the tolerant graph parser (the graph itself).
// Part of the workspace plugin (workspace.plugin.ts), which registers these routes in its context.
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
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
import type { GraphFiles } from './graphFiles.ts';
import { ApiError, badRequest, parseOr400 } from '../errors/errors.ts';

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

export function registerGraphRoutes(app: FastifyInstance, files: GraphFiles, onChange: () => void): void {
  const changed = <T>(v: T): T => {
    onChange();
    return v;
  };

  app.get('/api/graphs', async (req) =>
    parseOr400(GraphListQuerySchema, req.query, 'query').view === 'summary'
      ? files.summaries()
      : files.list(),
  );

  // `root`: the graphs folder as `statewire serve` prints it (the editor's Graphs panel shows it too).
  app.get('/api/graphs/folders', async () => ({ folders: files.folders(), root: resolve(files.root) }));
  app.post('/api/graphs/folders', async (req) =>
    changed(files.createFolder(parseOr400(FolderCreateBodySchema, req.body, 'body').path)),
  );
  app.post('/api/graphs/folders/rename', async (req) => {
    const b = parseOr400(FolderRenameBodySchema, req.body, 'body');
    return changed(files.renameFolder(b.path, b.new_path));
  });
  app.delete('/api/graphs/folders', async (req) => {
    const q = parseOr400(FolderDeleteQuerySchema, req.query, 'query');
    return changed(files.deleteFolder(q.path, q.recursive));
  });

  app.post('/api/graphs', async (req, reply) => {
    const { control, graph } = decodeSaveRequest(req.body);
    const saved = files.create(graph, control.folder, control.overwrite, control.replace_unreadable);
    return reply.status(201).send(changed(saved));
  });

  app.get('/api/graphs/*', async (req) => files.get(wildcard(req.params)));

  app.put('/api/graphs/*', async (req) => {
    const { control, graph } = decodeSaveRequest(req.body);
    const ifMatch = req.headers['if-match'];
    const expected =
      control.expected_etag ??
      (typeof ifMatch === 'string' ? ifMatch.replace(/^W\//, '').replace(/"/g, '') : undefined);
    return changed(files.update(wildcard(req.params), graph, expected, control.replace_unreadable));
  });

  app.delete('/api/graphs/*', async (req) => changed(files.delete(wildcard(req.params))));

  // POST /api/graphs/{id}/move — the only POST with a wildcard id.
  app.post('/api/graphs/*', async (req) => {
    const rest = wildcard(req.params);
    if (!rest.endsWith('/move')) throw new ApiError(404, 'not-found', `no route POST /api/graphs/${rest}`);
    const b = parseOr400(GraphMoveBodySchema, req.body, 'body');
    return changed(files.move(rest.slice(0, -'/move'.length), b.dest_folder, b.new_name));
  });
}

function wildcard(params: unknown): string {
  const raw = (params as Record<string, string | undefined>)['*'] ?? '';
  return raw.replace(/\.json$/, '');
}
