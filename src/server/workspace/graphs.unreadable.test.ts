// A graph file that does not read as a graph (a typo, a truncated write, valid JSON of the wrong
// shape) is the user's work: GET explains it (errors with line and column, the raw text), and no
// save replaces it unless the request says `replace_unreadable: true`. The files are derived from
// the demo graph the way a user breaks one: a deleted closing quote, a cut-off write.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type StatewireServer } from '../app.ts';
import { tempWorkspace } from '../test/serverProcess.testutil.ts';

let server: StatewireServer;
let ws: ReturnType<typeof tempWorkspace>;
let demoText: string;
const file = (id: string) => join(ws.dir, 'graphs', `${id}.json`);

/** The demo file with the closing quote of `"name"`'s value deleted (the issue's typo). */
const typoOf = (text: string) => text.replace('"name": "Grid Navigator",', '"name": "Grid Navigator,');

beforeAll(async () => {
  ws = tempWorkspace();
  demoText = readFileSync(file('grid_navigator'), 'utf8');
  server = await createServer({ workspace: ws.dir, distDir: join(ws.dir, 'no-dist') });
});
afterAll(async () => {
  await server.close();
  ws.cleanup();
});
beforeEach(() => {
  writeFileSync(file('typo_graph'), typoOf(demoText));
  writeFileSync(file('truncated'), demoText.slice(0, 600));
  writeFileSync(file('wrong_shape'), '{\n  "name": "w",\n  "nodes": [\n    {"id": "a", "type": 5}\n  ]\n}\n');
});

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  server.app.inject({
    method,
    url,
    payload,
    headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
  });

const oneNote = (name: string) => ({
  name,
  nodes: [{ id: 'n1', type: 'note', position: { x: 0, y: 0 }, config: {} }],
});

describe('GET of an unreadable graph file', () => {
  it('says what is wrong and where (line, column) and carries the raw text', async () => {
    expect(typoOf(demoText)).not.toBe(demoText);
    const body = (await inject('GET', '/api/graphs/typo_graph')).json();
    expect(body._error).toMatch(/invalid JSON at typo_graph:2:\d+/);
    expect(body._unreadable.issues[0]).toMatchObject({ code: 'invalid-json', line: 2 });
    expect(body._unreadable.text).toBe(typoOf(demoText));
    expect(body._unreadable.text_truncated).toBe(false);
  });

  it('a truncated file: the error is at its end', async () => {
    const body = (await inject('GET', '/api/graphs/truncated')).json();
    const lines = demoText.slice(0, 600).split('\n');
    expect(body._unreadable.issues[0]).toMatchObject({ code: 'invalid-json', line: lines.length });
    expect(body._unreadable.issues[0].message).toMatch(/unterminated string|end of input/);
  });

  it('valid JSON of the wrong shape: each schema error at the value it names', async () => {
    const body = (await inject('GET', '/api/graphs/wrong_shape')).json();
    expect(body._unreadable.issues[0]).toMatchObject({ path: '$.nodes[0].type', line: 4, column: 25 });
  });

  it('the list carries _error but not the text', async () => {
    const list = (await inject('GET', '/api/graphs')).json() as Array<Record<string, unknown>>;
    const typo = list.find((g) => g._id === 'typo_graph')!;
    expect(typo._error).toMatch(/invalid JSON/);
    expect(typo._unreadable).toBeUndefined();
  });
});

describe('saves never replace an unreadable file unless asked to', () => {
  it('PUT → 409 unreadable-file with the parse errors and the etag; the file is untouched', async () => {
    for (const id of ['typo_graph', 'truncated', 'wrong_shape']) {
      const before = readFileSync(file(id), 'utf8');
      const res = await inject('PUT', `/api/graphs/${id}`, oneNote(id));
      expect(res.statusCode, id).toBe(409);
      const err = res.json().error;
      expect(err.code).toBe('unreadable-file');
      expect(err.message).toMatch(/does not read as a graph.*not overwritten.*replace_unreadable/);
      expect(err.issues[0].line).toBeGreaterThan(0);
      expect(err.etag).toMatch(/^[0-9a-f]{16}$/);
      expect(readFileSync(file(id), 'utf8')).toBe(before);
    }
  });

  it('a matching etag alone does not replace it (it only proves the version)', async () => {
    const { _etag } = (await inject('GET', '/api/graphs/typo_graph')).json();
    const res = await inject('PUT', '/api/graphs/typo_graph', {
      ...oneNote('typo_graph'),
      expected_etag: _etag,
    });
    expect(res.statusCode).toBe(409);
    expect(readFileSync(file('typo_graph'), 'utf8')).toBe(typoOf(demoText));
  });

  it('PUT with replace_unreadable: true replaces it (and still honours a stale etag)', async () => {
    const stale = await inject('PUT', '/api/graphs/typo_graph', {
      ...oneNote('typo_graph'),
      replace_unreadable: true,
      expected_etag: '0000000000000000',
    });
    expect(stale.json().error.code).toBe('stale');
    const res = await inject('PUT', '/api/graphs/typo_graph', {
      ...oneNote('typo_graph'),
      replace_unreadable: true,
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(readFileSync(file('typo_graph'), 'utf8')).nodes).toHaveLength(1);
  });

  it('POST overwrite: true over it → 409; with replace_unreadable → 201', async () => {
    const refused = await inject('POST', '/api/graphs', { ...oneNote('typo graph'), overwrite: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('unreadable-file');
    expect(readFileSync(file('typo_graph'), 'utf8')).toBe(typoOf(demoText));
    const ok = await inject('POST', '/api/graphs', {
      ...oneNote('typo graph'),
      overwrite: true,
      replace_unreadable: true,
    });
    expect(ok.statusCode).toBe(201);
  });

  it('a readable file saves as before, without the flag', async () => {
    writeFileSync(file('fine'), JSON.stringify(oneNote('fine')));
    expect((await inject('PUT', '/api/graphs/fine', oneNote('fine'))).statusCode).toBe(200);
    expect((await inject('POST', '/api/graphs', { ...oneNote('fine'), overwrite: true })).statusCode).toBe(
      201,
    );
  });

  it('move keeps its bytes; a rename (which rewrites the graph) is refused and leaves it', async () => {
    const moved = await inject('POST', '/api/graphs/typo_graph/move', { dest_folder: 'kept' });
    expect(moved.statusCode).toBe(200);
    expect(readFileSync(join(ws.dir, 'graphs', 'kept', 'typo_graph.json'), 'utf8')).toBe(typoOf(demoText));
    const renamed = await inject('POST', '/api/graphs/truncated/move', {
      dest_folder: '',
      new_name: 'other',
    });
    expect(renamed.statusCode).toBe(400);
    expect(readFileSync(file('truncated'), 'utf8')).toBe(demoText.slice(0, 600));
    expect(existsSync(file('other'))).toBe(false);
  });
});
