// /api/graphs against an in-process server (fastify inject): CRUD shapes, slugs, create-never-
// overwrites, stale-save detection, folders, and every path-escape attempt refused with 400.
import { mkdirSync, symlinkSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StatewireServer } from '../app.ts';
import { tempWorkspace } from '../test/serverProcess.testutil.ts';

let server: StatewireServer;
let ws: ReturnType<typeof tempWorkspace>;
let outside: ReturnType<typeof tempWorkspace>;

beforeAll(async () => {
  ws = tempWorkspace();
  outside = tempWorkspace();
  writeFileSync(join(outside.dir, 'secret.json'), JSON.stringify({ name: 'secret', nodes: [] }));
  symlinkSync(outside.dir, join(ws.dir, 'graphs', 'escape'));
  symlinkSync(join(outside.dir, 'secret.json'), join(ws.dir, 'graphs', 'linked.json'));
  server = await createServer({ workspace: ws.dir, distDir: join(ws.dir, 'no-dist'), bodyLimit: 64 * 1024 });
});
afterAll(async () => {
  await server.close();
  ws.cleanup();
  outside.cleanup();
});

const inject = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  server.app.inject({
    method,
    url,
    payload: payload as string | object | undefined,
    // State-changing requests must say JSON even without a body (http/originGuard.ts).
    headers: method === 'GET' ? headers : { 'content-type': 'application/json', ...headers },
  });

describe('/api/graphs CRUD', () => {
  it('lists the demo graph with _id, _path, folder and an etag', async () => {
    const res = await inject('GET', '/api/graphs');
    expect(res.statusCode).toBe(200);
    const demo = res.json().find((g: { _id: string }) => g._id === 'grid_navigator');
    expect(demo).toMatchObject({
      name: 'Grid Navigator',
      folder: '',
      _path: join(ws.dir, 'graphs', 'grid_navigator.json'),
    });
    expect(demo._etag).toMatch(/^[0-9a-f]{16}$/);
  });

  it('?view=summary lists every file with id, folder, name, kind and description, no graph', async () => {
    mkdirSync(join(ws.dir, 'graphs', 'sum'), { recursive: true });
    const file = join(ws.dir, 'graphs', 'sum', 'one.json');
    writeFileSync(
      file,
      JSON.stringify({ name: 'One', kind: 'node', description: 'd', nodes: [{ id: 'x' }] }),
    );
    writeFileSync(join(ws.dir, 'graphs', 'sum', 'broken.json'), '{ "name": ');
    const list = async () => {
      const res = await inject('GET', '/api/graphs?view=summary');
      expect(res.statusCode).toBe(200);
      return res.json() as Record<string, unknown>[];
    };
    const first = await list();
    const one = first.find((g) => g._id === 'sum/one');
    expect(one).toEqual({
      _id: 'sum/one',
      folder: 'sum',
      name: 'One',
      kind: 'node',
      description: 'd',
      _mtime: expect.any(Number),
    });
    const demo = first.find((g) => g._id === 'grid_navigator');
    expect(demo).toMatchObject({ name: 'Grid Navigator', kind: 'graph', folder: '' });
    expect(demo).not.toHaveProperty('nodes');
    // A file that is not JSON is listed with the reason, as in the full list.
    expect(first.find((g) => g._id === 'sum/broken')?._error).toMatch(/JSON|line/i);
    // The same ids in the same order as the full list.
    const full = (await inject('GET', '/api/graphs')).json() as { _id: string }[];
    expect(first.map((g) => g._id)).toEqual(full.map((g) => g._id));
    // A changed file is read again (its size changed), a deleted one leaves the list.
    writeFileSync(file, JSON.stringify({ name: 'One renamed', nodes: [] }));
    const second = await list();
    expect(second.find((g) => g._id === 'sum/one')).toMatchObject({ name: 'One renamed', kind: 'graph' });
    await inject('DELETE', '/api/graphs/sum/broken');
    expect((await list()).some((g) => g._id === 'sum/broken')).toBe(false);
    expect((await inject('GET', '/api/graphs?view=everything')).statusCode).toBe(400);
    await inject('DELETE', '/api/graphs/sum/one');
  });

  it('creates with a slug file name, refuses to overwrite (409) unless overwrite: true', async () => {
    const first = await inject('POST', '/api/graphs', { name: 'My Graph-One', folder: 'team/a', nodes: [] });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ id: 'team/a/my_graph_one' });
    expect(existsSync(join(ws.dir, 'graphs/team/a/my_graph_one.json'))).toBe(true);
    const again = await inject('POST', '/api/graphs', { name: 'My Graph-One', folder: 'team/a' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('exists');
    const forced = await inject('POST', '/api/graphs', {
      name: 'My Graph-One',
      folder: 'team/a',
      overwrite: true,
      description: 'v2',
    });
    expect(forced.statusCode).toBe(201);
    const got = await inject('GET', '/api/graphs/team/a/my_graph_one');
    expect(got.json()).toMatchObject({ description: 'v2', folder: 'team/a', _id: 'team/a/my_graph_one' });
    // no temp files left behind by the atomic writes
    expect(readdirSync(join(ws.dir, 'graphs/team/a')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('updates in place, 404 for a missing id, 409 on a stale etag', async () => {
    const created = (await inject('POST', '/api/graphs', { name: 'stale test' })).json();
    const ok = await inject('PUT', '/api/graphs/stale_test', {
      name: 'stale test',
      description: 'a',
      expected_etag: created.etag,
    });
    expect(ok.statusCode).toBe(200);
    const stale = await inject(
      'PUT',
      '/api/graphs/stale_test',
      { name: 'stale test', description: 'b' },
      { 'if-match': `"${created.etag}"` },
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'stale', etag: ok.json().etag });
    expect((await inject('PUT', '/api/graphs/nope', { name: 'x' })).statusCode).toBe(404);
    expect((await inject('GET', '/api/graphs/nope')).json()).toEqual({
      error: { code: 'not-found', message: 'graph "nope" not found' },
    });
  });

  it('keeps no versions in the graphs folder: /api/graph-versions answers 404 no-versions', async () => {
    const res = await inject('GET', '/api/graph-versions/grid_navigator');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'no-versions' });
    expect(res.json().error.message).toContain('PostgreSQL');
  });

  it('moves (409 when the target exists) and deletes', async () => {
    await inject('POST', '/api/graphs', { name: 'mover' });
    await inject('POST', '/api/graphs', { name: 'mover', folder: 'dest' });
    expect((await inject('POST', '/api/graphs/mover/move', { dest_folder: 'dest' })).statusCode).toBe(409);
    const moved = await inject('POST', '/api/graphs/mover/move', {
      dest_folder: 'dest',
      new_name: 'Moved Graph',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().id).toBe('dest/moved_graph');
    expect((await inject('GET', '/api/graphs/dest/moved_graph')).json().name).toBe('Moved Graph');
    expect((await inject('DELETE', '/api/graphs/dest/moved_graph')).json()).toEqual({
      deleted: 'dest/moved_graph',
    });
    expect((await inject('GET', '/api/graphs/dest/moved_graph')).statusCode).toBe(404);
  });

  it('folder operations', async () => {
    expect((await inject('POST', '/api/graphs/folders', { path: 'f1/f2' })).statusCode).toBe(200);
    expect((await inject('GET', '/api/graphs/folders')).json().folders).toEqual(
      expect.arrayContaining(['f1', 'f1/f2']),
    );
    expect(
      (await inject('POST', '/api/graphs/folders/rename', { path: 'f1', new_path: 'g1' })).json(),
    ).toEqual({ path: 'g1' });
    expect((await inject('DELETE', '/api/graphs/folders?path=g1')).statusCode).toBe(409);
    expect((await inject('DELETE', '/api/graphs/folders?path=g1&recursive=true')).json()).toEqual({
      deleted: 'g1',
    });
  });
});

describe('path safety: every escape is refused with 400', () => {
  const attempts: Array<[string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?]> = [
    ['dot-dot in id', 'GET', '/api/graphs/..%2F..%2Fetc%2Fpasswd'],
    ['dot-dot segment', 'GET', '/api/graphs/a/..%2F..%2Fsecret'],
    ['absolute id', 'GET', '/api/graphs/%2Fetc%2Fpasswd'],
    ['backslash', 'GET', '/api/graphs/..%5C..%5Csecret'],
    ['NUL byte', 'GET', '/api/graphs/a%00b'],
    ['symlinked folder', 'GET', '/api/graphs/escape/secret'],
    ['symlinked file', 'GET', '/api/graphs/linked'],
    ['create into ..', 'POST', '/api/graphs', { name: 'x', folder: '../outside' }],
    ['create into absolute', 'POST', '/api/graphs', { name: 'x', folder: '/tmp' }],
    ['create through symlink', 'POST', '/api/graphs', { name: 'x', folder: 'escape' }],
    ['update through ..', 'PUT', '/api/graphs/..%2Fx', { name: 'x' }],
    ['delete through symlink', 'DELETE', '/api/graphs/escape/secret'],
    ['move out', 'POST', '/api/graphs/grid_navigator/move', { dest_folder: '../..' }],
    ['folder create out', 'POST', '/api/graphs/folders', { path: '../evil' }],
    ['folder rename out', 'POST', '/api/graphs/folders/rename', { path: 'team', new_path: '../../evil' }],
    ['folder delete out', 'DELETE', '/api/graphs/folders?path=..&recursive=true'],
  ];
  for (const [what, method, url, body] of attempts) {
    it(what, async () => {
      const res = await inject(method, url, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('unsafe-path');
    });
  }
  it('nothing was written outside the workspace', () => {
    expect(readdirSync(outside.dir).sort()).toEqual(['dist', 'graphs', 'secret.json']);
    expect(existsSync(join(ws.dir, 'evil'))).toBe(false);
  });
});

describe('malformed requests get a 4xx naming the problem', () => {
  it('invalid JSON → 400 invalid-json', async () => {
    const res = await inject('POST', '/api/graphs', '{"name": ', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid-json');
  });
  it('blank name → 400 with path $.name', async () => {
    const res = await inject('POST', '/api/graphs', { name: '  ' });
    expect(res.json()).toMatchObject({ error: { code: 'invalid-body', path: '$.name' } });
  });
  it('a graph with a bad node → 400 naming the JSON path', async () => {
    const res = await inject('POST', '/api/graphs', { name: 'bad', nodes: [{ type: 'constant' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.path).toMatch(/^\$\.nodes\[0\]/);
  });
  it('wrong type for a control key → 400', async () => {
    const res = await inject('POST', '/api/graphs', { name: 'x', overwrite: 'yes' });
    expect(res.json()).toMatchObject({ error: { code: 'invalid-body', path: '$.overwrite' } });
  });
  it('body over the limit → 413', async () => {
    const res = await inject('POST', '/api/graphs', { name: 'big', description: 'x'.repeat(100 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('body-too-large');
  });
  it('unknown API path → 404 JSON, other paths → SPA fallback', async () => {
    expect((await inject('GET', '/api/nope')).json().error.code).toBe('not-found');
    const spa = await inject('GET', '/graphs/some/route');
    expect(spa.statusCode).toBe(200);
    expect(spa.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('catalog, validate, layout', () => {
  it('serves node schemas in the reference shape', async () => {
    const specs = (await inject('GET', '/api/components/node-schemas')).json();
    const llm = specs.find((s: { type: string }) => s.type === 'llmCall');
    expect(llm).toMatchObject({
      display_name: 'LLM Call',
      ports_mode: 'input',
      ui_config: { color: expect.any(String) },
    });
    expect(llm.input_ports.map((p: { name: string }) => p.name)).toContain('prompt');
    expect(specs.map((s: { type: string }) => s.type)).toContain('gridEnv');
  });
  it('validate never raises; reports unknown node types', async () => {
    const res = await inject('POST', '/api/graphs/validate', {
      graph: { nodes: [{ id: 'a', type: 'zzz' }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().coverage.unresolved_node_types).toEqual(['zzz']);
    const broken = await inject('POST', '/api/graphs/validate', { nodes: 'nope' });
    expect(broken.json().ok).toBe(false);
  });
  it('layout places containers below the flow near their granted nodes', async () => {
    mkdirSync(join(ws.dir, 'x'), { recursive: true });
    const graph = {
      nodes: [
        { id: 'a', type: 'constant' },
        { id: 'b', type: 'constant' },
        { id: 'c', type: 'constant' },
      ],
      edges: [
        { id: 'e1', source: 'a', target: 'b' },
        { id: 'e2', source: 'b', target: 'c' },
      ],
      containers: [
        { id: 'left', states: {} },
        { id: 'right', states: {} },
      ],
      access_grants: [
        { id: 'g1', node_id: 'a', container_id: 'left' },
        { id: 'g2', node_id: 'c', container_id: 'right' },
      ],
    };
    const out = (await inject('POST', '/api/graphs/layout', graph)).json();
    const pos = (id: string) => out.nodes.find((n: { id: string }) => n.id === id).position;
    const cpos = (id: string) => out.containers.find((n: { id: string }) => n.id === id).position;
    expect(pos('a').x).toBeLessThan(pos('b').x);
    expect(pos('b').x).toBeLessThan(pos('c').x);
    const bottom = Math.max(pos('a').y, pos('b').y, pos('c').y);
    expect(cpos('left').y).toBeGreaterThan(bottom);
    expect(cpos('left').x).toBeLessThan(cpos('right').x);
    expect(Math.abs(cpos('left').x + 120 - (pos('a').x + 110))).toBeLessThan(1);
  });
});
