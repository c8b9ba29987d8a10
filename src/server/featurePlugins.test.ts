// Every feature plugin (runs, workspace, components, services + their callbacks, batch) is an
// encapsulated fastify context registered by app.ts: these tests check that the rules app.ts puts on
// the root still reach each plugin's routes — the Host/Origin/token/content-type guard, the JSON
// parser with its body limit, the `{error:{code,message,path?}}` shape, the security headers — and
// that the callbacks plugin keeps its msgpack parser when a headless run mounts it alone.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../engine/registry.ts';
import { createServer, type StatewireServer } from './app.ts';
import { startExecutorEndpoints } from './services/executorEndpoints.ts';
import { ServiceManager } from './services/serviceManager.ts';
import { encodeMsgpack } from './services/wireCodec.ts';
import { tempWorkspace } from './test/serverProcess.testutil.ts';

const TOKEN = 'feature-plugins-token';
const BODY_LIMIT = 4096;

let server: StatewireServer;
let ws: ReturnType<typeof tempWorkspace>;
let host = '';

beforeAll(async () => {
  ws = tempWorkspace();
  server = await createServer({
    workspace: ws.dir,
    distDir: join(ws.dir, 'no-dist'),
    port: 0,
    token: TOKEN,
    bodyLimit: BODY_LIMIT,
    distributed: null,
  });
  host = `127.0.0.1:${(await server.listen()).port}`;
});
afterAll(async () => {
  await server.close();
  ws.cleanup();
});

type Method = 'GET' | 'POST' | 'PUT';
interface Route {
  plugin: string;
  method: Method;
  url: string;
  /** A body the route itself refuses, and what it answers (status, code, path). */
  refused: { body?: unknown; status: number; code: string; path?: string };
}

// One route per plugin (state-changing where the plugin has one), with an answer of its own.
const ROUTES: Route[] = [
  {
    plugin: 'workspace',
    method: 'POST',
    url: '/api/graphs/layout',
    refused: { body: { dimensions: { a: { width: -1, height: 1 } } }, status: 400, code: 'invalid-body' },
  },
  {
    plugin: 'runs',
    method: 'POST',
    url: '/api/navigate/run',
    refused: { body: {}, status: 400, code: 'invalid-body', path: '$.loop_definition' },
  },
  {
    plugin: 'components',
    method: 'GET',
    url: '/api/components/node-schemas',
    refused: { status: 200, code: '' },
  },
  {
    plugin: 'services',
    method: 'GET',
    url: '/api/services/nope/log',
    refused: { status: 404, code: 'not-found' },
  },
  {
    plugin: 'service callbacks',
    method: 'POST',
    url: '/api/internal/events',
    refused: { body: { events: 'no' }, status: 400, code: 'invalid-body', path: '$.events' },
  },
  {
    plugin: 'batch',
    method: 'POST',
    url: '/api/batches',
    refused: { body: { episodes: 0 }, status: 400, code: 'invalid-body' },
  },
];
const CHANGING = ROUTES.filter((r) => r.method !== 'GET');

function send(r: Route, headers: Record<string, string>, payload?: string | Buffer) {
  return server.app.inject({
    method: r.method,
    url: r.url,
    headers: { host, ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
}
const auth = { authorization: `Bearer ${TOKEN}` };
const json = { ...auth, 'content-type': 'application/json' };
const errorOf = (body: string) => (JSON.parse(body) as { error: Record<string, unknown> }).error;

describe('feature plugins under the root rules', () => {
  it.each(ROUTES)('$plugin ($method $url): its own answer, in the API error shape', async (r) => {
    const res = await send(r, r.method === 'GET' ? auth : json, JSON.stringify(r.refused.body ?? {}));
    expect(res.statusCode).toBe(r.refused.status);
    if (r.refused.status === 200) return;
    const err = errorOf(res.body);
    expect(err.code).toBe(r.refused.code);
    expect(typeof err.message).toBe('string');
    if (r.refused.path !== undefined) expect(err.path).toBe(r.refused.path);
  });

  it.each(ROUTES)('$plugin: security headers on its answers', async (r) => {
    const res = await send(r, r.method === 'GET' ? auth : json, JSON.stringify(r.refused.body ?? {}));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it.each(ROUTES.filter((r) => !r.url.startsWith('/api/internal/')))(
    '$plugin: no token → 401, the route never runs',
    async (r) => {
      const res = await send(r, r.method === 'GET' ? {} : { 'content-type': 'application/json' }, '{}');
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body).code).toBe('unauthorized');
    },
  );

  it.each(ROUTES)('$plugin: a foreign Host → 403 before routing', async (r) => {
    const res = await server.app.inject({
      method: r.method,
      url: r.url,
      headers: { ...json, host: 'evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(typeof errorOf(res.body).code).toBe('string');
  });

  it.each(CHANGING)('$plugin: a cross-site Origin → 403 forbidden-origin', async (r) => {
    const res = await send(r, { ...json, origin: 'http://evil.example' }, '{}');
    expect(res.statusCode).toBe(403);
    expect(errorOf(res.body).code).toBe('forbidden-origin');
  });

  it.each(CHANGING)('$plugin: text/plain → 415 unsupported-media-type', async (r) => {
    const res = await send(r, { ...auth, 'content-type': 'text/plain' }, '{}');
    expect(res.statusCode).toBe(415);
    expect(errorOf(res.body).code).toBe('unsupported-media-type');
  });

  it.each(CHANGING)('$plugin: broken JSON → 400 invalid-json (the root JSON parser)', async (r) => {
    const res = await send(r, json, '{"a":');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body).code).toBe('invalid-json');
  });

  it.each(CHANGING)(
    '$plugin: an empty JSON body reaches the route as no body (the root parser)',
    async (r) => {
      const res = await send(r, json, '');
      // fastify's own parser would answer 400 invalid-json here; the route answers for itself instead.
      expect(errorOf(res.body).code).not.toBe('invalid-json');
      expect(res.statusCode).toBe(400);
    },
  );

  it.each(CHANGING)('$plugin: a body over --body-limit → 413 body-too-large', async (r) => {
    const res = await send(r, json, JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT) }));
    expect(res.statusCode).toBe(413);
    expect(errorOf(res.body).code).toBe('body-too-large');
  });

  it('msgpack is taken by the callback routes only', async () => {
    const packed = Buffer.from(encodeMsgpack({ name: 'x' }));
    const msgpack = { ...auth, 'content-type': 'application/msgpack' };
    const callback = await server.app.inject({
      method: 'POST',
      url: '/api/internal/containers/gone/c/read',
      headers: { host, ...msgpack },
      payload: packed,
    });
    expect([callback.statusCode, errorOf(callback.body).code]).toEqual([409, 'stale-execution']);
    const elsewhere = await send(ROUTES[1]!, msgpack, packed);
    expect([elsewhere.statusCode, errorOf(elsewhere.body).code]).toEqual([415, 'unsupported-media-type']);
  });

  it('an unknown /api path is the root 404, in the API error shape', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/runs/x/nope',
      headers: { host, ...json },
    });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res.body)).toEqual({ code: 'not-found', message: 'no route POST /api/runs/x/nope' });
  });
});

describe('the callbacks plugin mounted alone (a headless run)', () => {
  it('keeps the error shape and its msgpack parser', async () => {
    const services = new ServiceManager(createRegistry(), [], []);
    const ep = await startExecutorEndpoints(services);
    try {
      const post = (url: string, type: string, body: string | Uint8Array) =>
        fetch(`${ep.url}${url}`, {
          method: 'POST',
          headers: { 'content-type': type },
          body: typeof body === 'string' ? body : Buffer.from(body),
        });
      const stale = await post(
        '/api/internal/containers/gone/c/read',
        'application/msgpack',
        encodeMsgpack({}),
      );
      expect(stale.status).toBe(409);
      expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('stale-execution');
      const garbled = await post(
        '/api/internal/containers/gone/c/read',
        'application/msgpack',
        new Uint8Array([0xc1]),
      );
      expect(garbled.status).toBe(400);
      expect(((await garbled.json()) as { error: { code: string } }).error.code).toBe('invalid-msgpack');
      const broken = await post('/api/internal/events', 'application/json', '{"events":');
      expect(broken.status).toBe(400);
      expect(((await broken.json()) as { error: { code: string } }).error.code).toBe('invalid-json');
    } finally {
      await ep.close();
    }
  });
});
