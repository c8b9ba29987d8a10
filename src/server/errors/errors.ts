// One error shape for every REST failure: `{error: {code, message, path?}}`. Routes throw ApiError
// (or let zod/fastify errors bubble); the handler installed here maps everything else to a clear
// 4xx and only truly unexpected failures to 500, so bad input never crashes the server.
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { jsonPath } from '../../domain/validate/issues.ts';
import { StoredValueError } from '../db/valueLimits.ts';
import { storageApiError } from './storageErrors.ts';

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
  if (err.code === 'FST_ERR_BAD_URL')
    return new ApiError(400, 'bad-url', `the URL is not valid: ${err.message ?? 'bad percent-encoding'}`);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return new ApiError(414, 'url-too-long', `a URL parameter is too long: ${err.message ?? ''}`);
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
    // Storage failures first: a full disk is 507 wherever it surfaces (e.g. SQLITE_FULL on run
    // start), and file-system errors never echo Node's message (it carries absolute paths).
    // A stored value a reader refuses to expand (too large, or damaged): 413 / 500 saying which.
    const apiErr =
      err instanceof ApiError
        ? err
        : err instanceof StoredValueError
          ? new ApiError(err.status, err.code, err.message)
          : (storageApiError(err) ?? fromFastify(err as FastifyLikeError));
    if (apiErr.status >= 500) req.log.error({ err }, 'request failed');
    return sendError(reply, apiErr);
  });
}

/**
 * Fastify constructor options for the errors it answers before any route or error handler runs:
 * bad percent-encoding in the URL, an over-long URL parameter (`frameworkErrors`), and malformed
 * HTTP (`clientErrorHandler`, written straight to the socket) — all in the `{error:{code,message}}` shape.
 */
export const frameworkErrorOptions = {
  frameworkErrors(err: FastifyLikeError, _req: FastifyRequest, reply: FastifyReply) {
    return sendError(reply, fromFastify(err));
  },
  clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, message] =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'timeout', 'the request was not received in time']
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'headers-too-large', 'the request headers exceed the allowed size']
          : [400, 'bad-request', `malformed HTTP request (${err.code ?? 'parse error'})`];
    const body = JSON.stringify({ error: { code, message } });
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    socket.destroy(err);
  },
};
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

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
