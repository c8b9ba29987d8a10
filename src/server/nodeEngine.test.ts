// `npm ci` on Node 20 warns EBADENGINE for cookie@2.0.2 (engines: node >= 22), pulled in by
// fastify → light-my-request (what `app.inject` uses). cookie 2 is ESM-only and is `require`d from
// CommonJS, which Node supports unflagged since 20.19 — our own engines floor. This test pins that
// claim: if the dependency ever stops working on the Node we support, it fails here, not in a route.
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('cookie@2 under light-my-request on this Node', () => {
  it('loads through require(esm) and parses Set-Cookie in fastify.inject', async () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true); // package.json engines: >=20.19
    const cookie = require('cookie') as { stringifySetCookie?: unknown };
    expect(typeof cookie.stringifySetCookie).toBe('function');
    const app = Fastify();
    app.get('/', async (_req, reply) => reply.header('set-cookie', 'a=b; Path=/; HttpOnly').send('ok'));
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.cookies).toEqual([{ name: 'a', value: 'b', path: '/', httpOnly: true }]);
    await app.close();
  });
});
