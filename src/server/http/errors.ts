// One error shape for every REST failure: `{error: {code, message, path?}}`. Routes throw ApiError
// (or let zod/fastify errors bubble); the handler installed here maps everything else to a clear
// 4xx and only truly unexpected failures to 500, so bad input never crashes the server.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { jsonPath } from '../../domain/issues.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string, path?: string) =>
  new ApiError(400, code, message, path);
export const notFound = (message: string, code = 'not-found') => new ApiError(404, code, message);
export const conflict = (message: string, code = 'conflict', details?: Record<string, unknown>) =>
  new ApiError(409, code, message, undefined, details);

/** Parses `value` with a zod schema or throws a 400 naming the first bad field as a JSON path. */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'params',
): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = jsonPath(issue?.path ?? [], `$${where === 'body' ? '' : `.${where}`}`);
  const message = r.error.issues
    .slice(0, 5)
    .map((i) => `${jsonPath(i.path, where === 'body' ? '$' : `$.${where}`)}: ${i.message}`)
    .join('; ');
  throw new ApiError(400, `invalid-${where}`, message, path);
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.path !== undefined) error.path = err.path;
  if (err.details) Object.assign(error, err.details);
  return reply.status(err.status).send({ error });
}

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
  validation?: unknown;
}

/** Maps fastify's own errors (bad JSON, body too large, wrong content type) to our shape. */
function fromFastify(err: FastifyLikeError): ApiError {
  const status = err.statusCode ?? 500;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413)
    return new ApiError(413, 'body-too-large', 'request body exceeds the configured limit');
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415)
    return new ApiError(415, 'unsupported-media-type', err.message ?? 'unsupported content type');
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return new ApiError(400, 'invalid-json', 'body is empty but content-type is application/json');
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
    return new ApiError(400, 'invalid-json', `body is not valid JSON: ${err.message ?? ''}`);
  if (status >= 400 && status < 500)
    return new ApiError(status, err.code ?? 'bad-request', err.message ?? 'bad request');
  return new ApiError(500, 'internal', err.message ?? 'internal error');
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const apiErr = err instanceof ApiError ? err : fromFastify(err as FastifyLikeError);
    if (apiErr.status >= 500) req.log.error({ err }, 'request failed');
    return sendError(reply, apiErr);
  });
}

/** JSON bodies: an empty body is `undefined` (POST /run/pause with no body is fine); bad JSON is a 400. */
export function installJsonParser(app: FastifyInstance, bodyLimit: number): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(new ApiError(400, 'invalid-json', `body is not valid JSON: ${(err as Error).message}`), undefined);
    }
  });
}
