// Smaller causes of issue 8.4, against an in-process server: a graph too big to lay out is a 413
// (not a stack overflow 500), a graph id whose file is a folder is a 400 that names no absolute
// path, fastify's own errors (bad URL encoding, over-long parameter, malformed HTTP, header
// overflow) come in the API's `{error:{code,message}}` shape, and 1e999 is "not a finite number".
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StatewireServer } from '../app.ts';
import { LAYOUT_LIMITS } from '../layout/elkLayout.ts';
import { tempWorkspace } from '../test/serverProcess.testutil.ts';

let server: StatewireServer;
let ws: ReturnType<typeof tempWorkspace>;
let port = 0;

beforeAll(async () => {
  ws = tempWorkspace();
  mkdirSync(join(ws.dir, 'graphs', 'folder_named_like_a_graph.json'));
  server = await createServer({ workspace: ws.dir, distDir: join(ws.dir, 'no-dist'), port: 0 });
  port = (await server.listen()).port;
});
afterAll(async () => {
  await server.close();
  ws.cleanup();
});

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  server.app.inject({
    method,
    url,
    payload: payload as string | object | undefined,
    // The listening address as Host (the server only answers to the Host it is bound to).
    headers: {
      host: `127.0.0.1:${port}`,
      ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
    },
  });

/** Sends raw bytes over TCP and returns the whole answer (the server closes after an error). */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let out = '';
    sock.on('data', (d) => (out += d.toString()));
    sock.on('close', () => resolve(out));
    sock.on('error', reject);
    sock.write(request);
  });
}
const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as unknown;

const chain = (n: number) => ({
  name: 'chain',
  nodes: Array.from({ length: n }, (_, i) => ({
    id: `n${i}`,
    type: 'passthrough',
    position: { x: 0, y: 0 },
  })),
  edges: Array.from({ length: n - 1 }, (_, i) => ({
    id: `e${i}`,
    source: `n${i}`,
    target: `n${i + 1}`,
    sourceHandle: 'out',
    targetHandle: 'in',
  })),
});

describe('layout size limit', () => {
  it('a 10,000-node chain is refused with 413 graph-too-large naming the limit (was a stack-overflow 500)', async () => {
    const res = await inject('POST', '/api/graphs/layout', chain(10_000));
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toEqual({
      code: 'graph-too-large',
      message: `auto-layout handles at most ${LAYOUT_LIMITS.nodes} nodes; this graph has 10000`,
    });
  });

  it('a graph within the limit is still laid out', async () => {
    const res = await inject('POST', '/api/graphs/layout', chain(20));
    expect(res.statusCode).toBe(200);
    const xs = (res.json() as { nodes: { position: { x: number } }[] }).nodes.map((n) => n.position.x);
    expect(xs[19]).toBeGreaterThan(xs[0]!);
  });
});

describe('a graph id whose file is a folder', () => {
  for (const [method, url, body] of [
    ['PUT', '/api/graphs/folder_named_like_a_graph', { name: 'x', nodes: [], edges: [] }],
    ['POST', '/api/graphs', { name: 'folder_named_like_a_graph', nodes: [], edges: [], overwrite: true }],
    ['DELETE', '/api/graphs/folder_named_like_a_graph', undefined],
  ] as const)
    it(`${method} answers 400 not-a-file without an absolute path (was 500 EISDIR)`, async () => {
      const res = await inject(method, url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('not-a-file');
      expect(res.json().error.message).toMatch(/"folder_named_like_a_graph" cannot be written: a folder/);
      expect(res.body).not.toContain(ws.dir);
    });
});

describe("fastify's own errors in the API shape", () => {
  it('invalid percent-encoding in the URL → 400 bad-url', async () => {
    const res = await inject('GET', '/api/graphs/%E0%A4%A');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'bad-url', message: expect.stringContaining('/api/graphs/%E0%A4%A') },
    });
  });

  it('an over-long URL parameter → 414 url-too-long', async () => {
    const res = await inject('POST', `/api/navigate/run/restore/${'9'.repeat(200)}`, {});
    expect(res.statusCode).toBe(414);
    expect(res.json().error.code).toBe('url-too-long');
  });

  it('an unknown route → 404 not-found', async () => {
    const res = await inject('DELETE', '/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({ code: 'not-found', message: 'no route DELETE /api/nothing-here' });
  });

  it('malformed HTTP on the wire → 400 in the API shape', async () => {
    const res = await raw('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Line\r\n\r\n');
    expect(res).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(res)).toEqual({
      error: { code: 'bad-request', message: expect.stringMatching(/malformed HTTP/) },
    });
  });

  it('request headers over the size limit → 431 in the API shape', async () => {
    const res = await raw(
      `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(res).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(res)).toEqual({ error: { code: 'headers-too-large', message: expect.any(String) } });
  });
});

describe('non-finite numbers', () => {
  it('a coordinate of 1e999 is reported as "must be a finite number"', async () => {
    const text =
      '{"name":"n","nodes":[{"id":"a","type":"passthrough","position":{"x":1e999,"y":0}}],"edges":[]}';
    const res = await inject('POST', '/api/graphs/validate', text);
    expect(res.statusCode).toBe(200);
    const issue = (res.json() as { issues: { path: string; message: string }[] }).issues.find(
      (i) => i.path === '$.nodes[0].position.x',
    );
    expect(issue?.message).toBe("'position.x' must be a finite number, got Infinity");
  });
});
