// The service transport against a real HTTP server on a loopback socket: an answer over the size cap
// (declared or streamed), an answer cut off mid-body, no answer in time, and keep-alive reuse. Through
// ServiceClient each failure names the service and the call.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from './serviceClient.ts';
import { ServiceTransport } from './serviceHttp.ts';
import { encodeMsgpack } from './wireCodec.ts';

let server: Server;
let base = '';
let connections = 0;

const routes: Record<string, (res: ServerResponse) => void> = {
  '/declared-big': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(5 * 1024 * 1024) });
    res.write('{"outputs":');
    // never finishes: the client must give up on the declared length alone
  },
  '/streamed-big': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' }); // chunked, no length
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < 40 && res.write(chunk)) sent++;
      if (sent < 40) res.once('drain', pump);
      else res.end();
    };
    pump();
  },
  '/cut': (res) => {
    res.writeHead(200, { 'content-type': 'application/msgpack', 'content-length': '1000' });
    res.write(Buffer.alloc(10));
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/silent': () => undefined,
  // A service mounted under a path prefix (behind a proxy): the prefix stays in every request.
  '/svc/v1/call/echo__echo': (res) => {
    const body = Buffer.from(encodeMsgpack({ outputs: { under: 'prefix' } }));
    res.writeHead(200, { 'content-type': 'application/msgpack', 'content-length': String(body.length) });
    res.end(body);
  },
  '/call/echo__echo': (res) => {
    const body = Buffer.from(encodeMsgpack({ outputs: { ok: true } }));
    res.writeHead(200, { 'content-type': 'application/msgpack', 'content-length': String(body.length) });
    res.end(body);
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => (routes[req.url ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('ServiceTransport', () => {
  const oneMb = () => new ServiceTransport(base, 1024 * 1024);

  it('refuses an answer whose declared length is over the cap, without reading it', async () => {
    await expect(oneMb().send('GET', '/declared-big', {}, undefined, 5000)).rejects.toMatchObject({
      kind: 'too-large',
      message: expect.stringMatching(
        /^answer larger than 1 MB \(it declares 5242880 bytes\); raise "max_response_mb"/,
      ),
    });
  });

  it('stops reading a streamed answer once it passes the cap', async () => {
    await expect(oneMb().send('GET', '/streamed-big', {}, undefined, 5000)).rejects.toMatchObject({
      kind: 'too-large',
      message: expect.stringMatching(/answer larger than 1 MB \(more than \d+ bytes so far\)/),
    });
  });

  it('says how much arrived when the answer is cut off, and when nothing came in time', async () => {
    await expect(oneMb().send('GET', '/cut', {}, undefined, 5000)).rejects.toMatchObject({
      kind: 'broken',
      message: expect.stringMatching(/^answer cut off after 10 bytes/),
    });
    await expect(oneMb().send('GET', '/silent', {}, undefined, 200)).rejects.toMatchObject({
      kind: 'timeout',
      message: 'no answer within 0.2 s',
    });
  });

  it("keeps the base URL's path: a service under a prefix is called there", async () => {
    const none = new Set<string>();
    for (const url of [`${base}/svc/v1`, `${base}/svc/v1/`]) {
      const client = new ServiceClient('prefixed', url, 'msgpack', 2000);
      const answer = await client.call('echo__echo', { inputs: {}, config: {} }, none, none);
      expect(answer.outputs).toEqual({ under: 'prefix' });
      client.close();
    }
  });

  it('keeps the connection alive between calls', async () => {
    const t = oneMb();
    const before = connections;
    for (let i = 0; i < 5; i++) {
      const r = await t.send(
        'POST',
        '/call/echo__echo',
        { 'content-type': 'application/msgpack' },
        new Uint8Array(3),
        5000,
      );
      expect(r.status).toBe(200);
    }
    expect(connections - before).toBe(1);
    t.close();
  });
});

describe('ServiceClient errors name the service and the call', () => {
  it('a body cut off mid-way, an answer over max_response_mb', async () => {
    const client = new ServiceClient('sim', base, 'msgpack', 5000, 1);
    const none = new Set<string>();
    routes['/call/sim__step'] = routes['/cut']!;
    await expect(client.call('sim__step', { inputs: {}, config: {} }, none, none)).rejects.toThrow(
      /^service 'sim' function 'sim__step': answer cut off after 10 bytes/,
    );
    routes['/call/sim__step'] = routes['/streamed-big']!;
    await expect(client.call('sim__step', { inputs: {}, config: {} }, none, none)).rejects.toThrow(
      /^service 'sim' function 'sim__step': answer larger than 1 MB/,
    );
    client.close();
  });
});
