// OriginGuard on a real in-process fastify (inject): the token, the Origin rule before listening,
// and the content-type rule with its one exception (msgpack on the services' internal routes).
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { BUNDLE_IMPORT_ROUTE, BUNDLE_MEDIA_TYPE } from '../../domain/protocol/runBundle.schema.ts';
import { installOriginGuard, OriginGuard } from './originGuard.ts';

describe('OriginGuard', () => {
  it('generates a token for a non-loopback bind only, and compares it exactly', () => {
    expect(new OriginGuard().bind('127.0.0.1', 1)).toBeUndefined();
    const guard = new OriginGuard();
    const token = guard.bind('0.0.0.0', 1);
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(guard.tokenError(token)).toBeUndefined();
    expect(guard.tokenError(`${token}x`)?.status).toBe(401);
    expect(guard.tokenError(undefined)?.code).toBe('unauthorized');
  });

  it('user tokens open the server too and name their holder; none is generated beside them', () => {
    const guard = new OriginGuard({ userTokens: [{ label: 'Bob', token: 'bobs-token-0123456789' }] });
    expect(guard.bind('0.0.0.0', 1)).toBeUndefined();
    expect(guard.tokenRequired).toBe(true);
    expect(guard.tokenHolder('bobs-token-0123456789')).toEqual({ label: 'Bob' });
    expect(guard.tokenHolder('bobs-token-01234567890').error?.status).toBe(401);
    expect(guard.tokenError(undefined)?.code).toBe('unauthorized');
    const both = new OriginGuard({
      token: 'main-token-0123456789',
      userTokens: [{ label: 'Bob', token: 'bobs-token-0123456789' }],
    });
    expect(both.tokenHolder('main-token-0123456789')).toEqual({});
    expect(both.tokenHolder('bobs-token-0123456789')).toEqual({ label: 'Bob' });
    expect(() => new OriginGuard({ userTokens: [{ label: 'Eve', token: 'short' }] })).toThrow(
      'invalid token of user "Eve"',
    );
  });

  it('before listening (app.inject) only loopback Origins pass; the Host rule starts at bind', () => {
    const guard = new OriginGuard();
    expect(guard.hostError('anything:1')).toBeUndefined();
    expect(guard.originError('http://localhost:3000')).toBeUndefined();
    expect(guard.originError('http://evil.test')?.code).toBe('forbidden-origin');
    guard.bind('127.0.0.1', 4000);
    expect(guard.hostError('anything:1')?.code).toBe('forbidden-host');
    expect(guard.originError('http://localhost:3000')?.code).toBe('forbidden-origin');
    expect(guard.originError('http://localhost:4000')).toBeUndefined();
  });
});

describe('content type and token on routes', () => {
  const TOKEN = 'guard-test-token-0123456789';
  async function app() {
    const a = Fastify();
    a.addContentTypeParser(['application/msgpack'], { parseAs: 'buffer' }, (_r, b, done) => done(null, b));
    installOriginGuard(a, new OriginGuard({ token: TOKEN }));
    a.post('/api/graphs', async () => ({ ok: true }));
    a.post('/api/internal/events', async () => ({ ok: true }));
    a.addContentTypeParser(BUNDLE_MEDIA_TYPE, { parseAs: 'buffer' }, (_r, b, done) => done(null, b));
    a.post(BUNDLE_IMPORT_ROUTE, async () => ({ ok: true }));
    await a.ready();
    return a;
  }
  const auth = { authorization: `Bearer ${TOKEN}` };

  it('JSON everywhere; msgpack only on /api/internal/; anything else is 415', async () => {
    const a = await app();
    const post = (url: string, type: string) =>
      a.inject({ method: 'POST', url, payload: 'x', headers: { ...auth, 'content-type': type } });
    expect((await post('/api/graphs', 'application/json')).statusCode).not.toBe(415);
    expect((await post('/api/internal/events', 'application/msgpack')).statusCode).toBe(200);
    expect((await post('/api/graphs', 'application/msgpack')).statusCode).toBe(415);
    expect((await post('/api/internal/events', 'text/plain')).statusCode).toBe(415);
    await a.close();
  });

  it('the run-bundle type only on the import route; its Origin and token rules still apply', async () => {
    const a = await app();
    const post = (url: string, headers: Record<string, string>) =>
      a.inject({ method: 'POST', url, payload: 'x', headers: { ...auth, ...headers } });
    const bundle = { 'content-type': BUNDLE_MEDIA_TYPE };
    expect((await post(BUNDLE_IMPORT_ROUTE, bundle)).statusCode).toBe(200);
    expect(
      (await post(BUNDLE_IMPORT_ROUTE, { 'content-type': `${BUNDLE_MEDIA_TYPE}; v=1` })).statusCode,
    ).toBe(200);
    expect((await post('/api/graphs', bundle)).statusCode).toBe(415);
    expect((await post(BUNDLE_IMPORT_ROUTE, { 'content-type': 'application/gzip' })).statusCode).toBe(415);
    expect((await post(BUNDLE_IMPORT_ROUTE, { 'content-type': 'application/octet-stream' })).statusCode).toBe(
      415,
    );
    const foreign = await post(BUNDLE_IMPORT_ROUTE, { ...bundle, origin: 'http://evil.test' });
    expect([foreign.statusCode, foreign.json().error.code]).toEqual([403, 'forbidden-origin']);
    const noToken = await a.inject({
      method: 'POST',
      url: BUNDLE_IMPORT_ROUTE,
      payload: 'x',
      headers: bundle,
    });
    expect([noToken.statusCode, noToken.json().error.code]).toEqual([401, 'unauthorized']);
    await a.close();
  });

  it('the token is required on the API except /api/internal/ from a loopback peer', async () => {
    const a = await app();
    const json = { 'content-type': 'application/json' };
    const noToken = await a.inject({ method: 'POST', url: '/api/graphs', payload: '{}', headers: json });
    expect([noToken.statusCode, noToken.json().error.code]).toEqual([401, 'unauthorized']);
    const internal = await a.inject({
      method: 'POST',
      url: '/api/internal/events',
      payload: '{}',
      headers: json,
    });
    expect(internal.statusCode).toBe(200); // inject's peer is 127.0.0.1
    const remote = await a.inject({
      method: 'POST',
      url: '/api/internal/events',
      payload: '{}',
      headers: json,
      remoteAddress: '192.0.2.7',
    });
    expect(remote.statusCode).toBe(401);
    await a.close();
  });
});
