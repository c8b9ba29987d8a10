// Integration: the cross-site rules (http/originGuard.ts, http/securityHeaders.ts) on REAL
// `statewire serve` processes, with raw HTTP (any Host/Origin, as a browser or an attacker sends
// them) and real socket.io clients. Browser-side attacks: e2e/attacks.spec.ts.
import { request } from 'node:http';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveCommand } from './cli/serve.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from './test/serverProcess.testutil.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (fetch would not let us set Host or drop it). */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers, setHost: false },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
const code = (r: RawResponse) => (JSON.parse(r.body) as { error?: { code?: string } }).error?.code;

/** Resolves `connected` or the connect_error message. */
function socketTry(url: string, opts: Record<string, unknown>): Promise<string> {
  return new Promise((resolve) => {
    const s = io(url, { reconnection: false, forceNew: true, timeout: 5000, ...opts });
    s.once('connect', () => {
      s.close();
      resolve('connected');
    });
    s.once('connect_error', (e) => {
      s.close();
      resolve(e.message);
    });
  });
}

describe('loopback server: Host, Origin, content type, headers', () => {
  let server: ServerProcess;
  let ws: ReturnType<typeof tempWorkspace>;
  let base: string;
  let port: string;
  const host = () => `127.0.0.1:${port}`;

  beforeAll(async () => {
    ws = tempWorkspace();
    server = await startServer(ws.dir, ['--allowed-host', 'proxy.test', '--allowed-host', 'lan.test:8080']);
    base = server.url;
    port = new URL(base).port;
    const started = await api(base, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(100_000),
      step_delay_ms: 20,
    });
    expect(started.status).toBe(200);
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    ws.cleanup();
  });

  it('refuses a foreign or missing Host with 403 forbidden-host, accepts the loopback names', async () => {
    for (const h of [`evil.test:${port}`, `127.0.0.1:${Number(port) + 1}`, 'localhost', `lan.test:${port}`]) {
      const r = await raw(`${base}/api/graphs`, 'GET', { host: h });
      expect([r.status, code(r)], h).toEqual([403, 'forbidden-host']);
      expect(r.body).not.toContain('grid_navigator');
    }
    // No Host at all: Node's HTTP parser already refuses an HTTP/1.1 request without one.
    expect((await raw(`${base}/api/graphs`, 'GET', {})).status).toBe(400);
    expect((await raw(`${base}/`, 'GET', { host: `evil.test:${port}` })).status).toBe(403); // the app too
    for (const h of [
      host(),
      `localhost:${port}`,
      `[::1]:${port}`,
      'proxy.test',
      'proxy.test:443',
      'lan.test:8080',
    ])
      expect((await raw(`${base}/api/graphs`, 'GET', { host: h })).status, h).toBe(200);
  });

  it('a state-changing request with a foreign Origin gets 403 forbidden-origin and changes nothing', async () => {
    for (const origin of [
      'http://evil.test',
      `http://localhost:${Number(port) + 1}`,
      'null',
      'https://127.0.0.1',
    ]) {
      const r = await raw(`${base}/api/navigate/run/stop`, 'POST', {
        host: host(),
        origin,
        'content-type': 'application/json',
      });
      expect([r.status, code(r)], origin).toEqual([403, 'forbidden-origin']);
    }
    expect((await api(base, 'GET', '/api/navigate/run/status')).body.status).toBe('running');
  });

  it('same-origin pages and Origin-less clients (curl, scripts) may change state', async () => {
    const json = { host: host(), 'content-type': 'application/json' };
    const body = JSON.stringify({ step_delay_ms: 25 });
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, 'https://proxy.test'])
      expect((await raw(`${base}/api/navigate/run/delay`, 'POST', { ...json, origin }, body)).status).toBe(
        200,
      );
    expect((await raw(`${base}/api/navigate/run/delay`, 'POST', json, body)).status).toBe(200);
    const charset = { ...json, 'content-type': 'application/json; charset=utf-8' };
    expect((await raw(`${base}/api/navigate/run/delay`, 'POST', charset, body)).status).toBe(200);
  });

  it('a state-changing request that is not JSON gets 415, even without a body', async () => {
    const cases: Array<[string, string, Record<string, string>, string?]> = [
      ['POST', '/api/navigate/run/pause', {}],
      ['POST', '/api/navigate/run/stop', { 'content-type': 'text/plain' }, '{}'],
      ['POST', '/api/graphs', { 'content-type': 'text/plain' }, '{"name":"pwned"}'],
      ['POST', '/api/graphs', { 'content-type': 'application/x-www-form-urlencoded' }, 'name=pwned'],
      ['PUT', '/api/graphs/grid_navigator', { 'content-type': 'multipart/form-data; boundary=x' }, ''],
      ['DELETE', '/api/graphs/grid_navigator', {}],
    ];
    for (const [method, path, headers, body] of cases) {
      const r = await raw(base + path, method, { host: host(), ...headers }, body);
      expect([r.status, code(r)], `${method} ${path}`).toEqual([415, 'unsupported-media-type']);
      expect(JSON.parse(r.body).error.message).toContain('needs Content-Type: application/json');
    }
    expect((await api(base, 'GET', '/api/navigate/run/status')).body.status).toBe('running');
    expect((await api(base, 'GET', '/api/graphs')).body.map((g: { _id: string }) => g._id)).toEqual([
      'grid_navigator',
    ]);
  });

  it('socket.io: a handshake with a foreign Origin or Host is refused, the own origin connects', async () => {
    expect(
      await socketTry(base, { transports: ['websocket'], extraHeaders: { origin: 'http://evil.test' } }),
    ).not.toBe('connected');
    const poll = await raw(`${base}/socket.io/?EIO=4&transport=polling`, 'GET', {
      host: host(),
      origin: 'http://evil.test',
    });
    expect(poll.status).toBe(403);
    expect(poll.body).toContain('forbidden-origin');
    const rebound = await raw(`${base}/socket.io/?EIO=4&transport=polling`, 'GET', {
      host: `evil.test:${port}`,
    });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('forbidden-host');
    expect(
      await socketTry(base, {
        transports: ['websocket'],
        extraHeaders: { origin: `http://localhost:${port}` },
      }),
    ).toBe('connected');
    expect(await socketTry(base, { transports: ['polling'] })).toBe('connected');
  });

  it('sends the security headers on the app, the API, 404s and errors', async () => {
    const responses = [
      await raw(`${base}/`, 'GET', { host: host() }),
      await raw(`${base}/api/graphs`, 'GET', { host: host() }),
      await raw(`${base}/api/nope`, 'GET', { host: host() }),
      await raw(`${base}/api/graphs`, 'POST', { host: host(), 'content-type': 'application/json' }, '{bad'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 404, 400]);
    for (const r of responses) {
      const csp = String(r.headers['content-security-policy']);
      for (const d of [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        `connect-src 'self' ws://${host()}`,
      ])
        expect(csp).toContain(d);
      expect(csp).not.toContain('unsafe');
      expect(r.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
      });
    }
  });
});

describe('token', () => {
  it('bound to 0.0.0.0: a token is generated and printed; API and socket need it, the app shell does not', async () => {
    const ws = tempWorkspace();
    const server = await startServer(ws.dir, ['--host', '0.0.0.0']);
    try {
      const port = new URL(server.url).port;
      const base = `http://127.0.0.1:${port}`;
      const printed = await waitFor(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=(\S+)/.exec(server.output()));
      const token = decodeURIComponent(printed![1]!);
      expect(server.output()).toContain('token required (generated for this non-loopback address)');

      const noToken = await raw(`${base}/api/graphs`, 'GET', { host: `127.0.0.1:${port}` });
      expect([noToken.status, code(noToken)]).toEqual([401, 'unauthorized']);
      expect(noToken.body).not.toContain('grid_navigator');
      const wrong = await raw(`${base}/api/graphs`, 'GET', {
        host: `127.0.0.1:${port}`,
        authorization: 'Bearer nope',
      });
      expect(wrong.status).toBe(401);
      // An encoded path must not dodge the rule.
      expect((await raw(`${base}/%61pi/graphs`, 'GET', { host: `127.0.0.1:${port}` })).status).toBe(401);
      const stop = await raw(`${base}/api/navigate/run/stop`, 'POST', {
        host: `127.0.0.1:${port}`,
        'content-type': 'application/json',
      });
      expect(stop.status).toBe(401);

      const ok = await raw(`${base}/api/graphs`, 'GET', {
        host: `127.0.0.1:${port}`,
        authorization: `Bearer ${token}`,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('grid_navigator');
      expect((await raw(`${base}/`, 'GET', { host: `127.0.0.1:${port}` })).status).toBe(200);
      expect((await raw(`${base}/api/health`, 'GET', { host: `127.0.0.1:${port}` })).status).toBe(200);

      expect(await socketTry(base, { transports: ['websocket'] })).toBe('unauthorized');
      expect(
        await socketTry(base, { transports: ['websocket'], auth: { token: 'wrong-token-0123456789' } }),
      ).toBe('unauthorized');
      expect(await socketTry(base, { transports: ['websocket'], auth: { token } })).toBe('connected');
    } finally {
      await server.stop();
      ws.cleanup();
    }
  });

  it('refuses a weak --token or a malformed --allowed-host at start (exit 2, naming it)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await serveCommand(['--token', 'short'])).toBe(2);
      expect(await serveCommand(['--allowed-host', 'http://x.test'])).toBe(2);
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(/invalid --token: must be at least 16 characters \(got 5\)/),
        expect.stringMatching(/invalid --allowed-host "http:\/\/x.test"/),
      ]);
    } finally {
      errors.mockRestore();
    }
  });

  it('STATEWIRE_TOKEN makes it required on loopback too', async () => {
    const ws = tempWorkspace();
    const token = 'loopback-token-0123456789';
    process.env.STATEWIRE_TOKEN = token;
    let server: ServerProcess;
    try {
      server = await startServer(ws.dir);
    } finally {
      delete process.env.STATEWIRE_TOKEN;
    }
    try {
      await waitFor(() => server.output().includes(`?token=${token}`), 5000, 'the printed token URL');
      expect((await api(server.url, 'GET', '/api/runs')).status).toBe(401);
      const res = await fetch(`${server.url}/api/runs`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    } finally {
      await server.stop();
    }
    ws.cleanup();
  });
});
