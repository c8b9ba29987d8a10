// The executor side of the node-services protocol, for services calling back
// (docs/node-services-protocol.md), as a fastify plugin: the services feature registers it in the
// server (services.plugin.ts) and a headless run mounts it alone (executorEndpoints.ts).
// - Container access `POST /api/internal/containers/{execution_id}/{cid}/{read|write|evict}` (msgpack;
//   the reference's services send `"key": null` when unkeyed and repeat `execution_id` in the body).
// - Pushed events `POST /api/internal/events` (JSON; pushedEvents.ts).
// Internal routes answer only loopback peers; container access only while a call of that run is in
// flight (409 otherwise: a stale execution id), and only for containers granted to the calling node
// (403). The msgpack body parser is this plugin's own: no other route takes msgpack.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ServiceManager } from './serviceManager.ts';
import { decodeMsgpack, encodeMsgpack } from './wireCodec.ts';
import { deliverPushedEvents, PushedEventsBodySchema } from './pushedEvents.ts';
import { ApiError, notFound, parseOr400 } from '../errors/errors.ts';

const isLoopback = (addr: string | undefined) =>
  !!addr && (addr === '::1' || addr.startsWith('127.') || addr.startsWith('::ffff:127.'));

/** `null` is how the reference says "absent" (an unkeyed slot), so it reads as absent. */
const ContainerBody = z.object({
  name: z.string().nullish(),
  key: z.union([z.string(), z.number()]).nullish(),
  data: z.unknown().optional(),
  /** Sent by the reference's services too; the path's execution id is the one that counts. */
  execution_id: z.string().nullish(),
});

export interface CallbacksPluginOptions {
  /** Whose calls are in flight (their execution ids, granted containers) and where pushed events go. */
  services: ServiceManager;
}

export const serviceCallbacksPlugin: FastifyPluginAsync<CallbacksPluginOptions> = async (
  app,
  { services },
) => {
  const loopbackOnly = (req: FastifyRequest) => {
    if (!isLoopback(req.socket.remoteAddress))
      throw new ApiError(403, 'forbidden', 'internal endpoints answer loopback callers only');
  };

  app.addContentTypeParser(
    ['application/msgpack', 'application/x-msgpack'],
    { parseAs: 'buffer' },
    (_req, body, done) => {
      try {
        done(null, decodeMsgpack(body as Buffer));
      } catch (e) {
        done(
          new ApiError(400, 'invalid-msgpack', `body is not valid msgpack: ${(e as Error).message}`),
          undefined,
        );
      }
    },
  );

  app.post('/api/internal/containers/:execution_id/:cid/:op', async (req, reply) => {
    loopbackOnly(req);
    const p = parseOr400(
      z.object({ execution_id: z.string(), cid: z.string(), op: z.enum(['read', 'write', 'evict']) }),
      req.params,
      'params',
    );
    const body = parseOr400(ContainerBody, req.body ?? {}, 'body');
    const call = services.active.get(p.execution_id);
    if (!call)
      throw new ApiError(409, 'stale-execution', `no call of execution '${p.execution_id}' is in flight`);
    if (!Object.hasOwn(call.ctx.containers, p.cid))
      throw new ApiError(
        403,
        'not-granted',
        `container '${p.cid}' is not granted to node '${call.ctx.node.id}' (grants: ${Object.keys(call.ctx.containers).join(', ') || 'none'})`,
      );
    const handle = call.ctx.containers[p.cid]!;
    const key = body.key === undefined || body.key === null ? undefined : String(body.key);
    if (body.execution_id && body.execution_id !== p.execution_id)
      throw new ApiError(
        400,
        'invalid-body',
        `$.execution_id: '${body.execution_id}' differs from the path's '${p.execution_id}'`,
        '$.execution_id',
      );
    let answer: unknown;
    try {
      if (p.op === 'evict') {
        if (key === undefined) throw new ApiError(400, 'invalid-body', '$.key: evict needs a key', '$.key');
        handle.evict(key);
        answer = { ok: true };
      } else {
        if (!body.name)
          throw new ApiError(400, 'invalid-body', '$.name: the slot name is required', '$.name');
        if (!handle.slots().includes(body.name))
          throw notFound(`container '${p.cid}' has no slot '${body.name}'`, 'unknown-slot');
        answer =
          p.op === 'read'
            ? { value: handle.read(body.name, key) }
            : (handle.write(body.name, body.data, key), { ok: true });
      }
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError(400, 'container-error', (e as Error).message);
    }
    return reply.type('application/msgpack').send(Buffer.from(encodeMsgpack(answer)));
  });

  app.post('/api/internal/events', async (req) => {
    loopbackOnly(req);
    const body = parseOr400(PushedEventsBodySchema, req.body, 'body');
    return { ok: true, ...deliverPushedEvents(body.events, services.findRun, services.active) };
  });
};
