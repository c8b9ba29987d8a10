// GraphFiles on a real temp folder: graph tests (`*.test.json`, run by `statewire test`) live beside
// the graphs but are never listed, opened, overwritten or deleted as graphs.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { ApiError } from '../errors/errors.ts';
import { GraphFiles } from './graphFiles.ts';

const GRAPHS = resolve(import.meta.dirname, '../../../workspace/graphs');
let root = '';
let files: GraphFiles;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'statewire-graphfiles-'));
  copyFileSync(join(GRAPHS, 'grid_navigator.json'), join(root, 'grid_navigator.json'));
  copyFileSync(join(GRAPHS, 'grid_navigator.test.json'), join(root, 'grid_navigator.test.json'));
  mkdirSync(join(root, 'sub'));
  copyFileSync(join(GRAPHS, 'grid_navigator.test.json'), join(root, 'sub', 'other.test.json'));
  files = new GraphFiles(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The ApiError `fn` throws (fails the test when it throws nothing or something else). */
function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('GraphFiles and graph test files', () => {
  it('lists graphs but not *.test.json', () => {
    expect(files.list().map((g) => g._id)).toEqual(['grid_navigator']);
    expect(files.get('grid_navigator').name).toBe('Grid Navigator');
  });

  it('refuses to open a test file as a graph, with a clear message', () => {
    for (const id of ['grid_navigator.test', 'sub/other.test']) {
      const e = apiError(() => files.get(id));
      expect(e.status).toBe(400);
      expect(e.code).toBe('graph-test-file');
      expect(e.message).toBe(
        `${JSON.stringify(`${id}.json`)} is a graph test file (run it with \`statewire test\`), not a graph`,
      );
    }
  });

  it('never overwrites, deletes or moves a test file through the graph API', () => {
    const before = readFileSync(join(root, 'grid_navigator.test.json'), 'utf8');
    expect(apiError(() => files.update('grid_navigator.test', emptyGraph('x'))).code).toBe('graph-test-file');
    expect(apiError(() => files.delete('grid_navigator.test')).code).toBe('graph-test-file');
    expect(apiError(() => files.move('grid_navigator.test', 'sub')).code).toBe('graph-test-file');
    expect(readFileSync(join(root, 'grid_navigator.test.json'), 'utf8')).toBe(before);
  });

  it('does not create or rename a graph into a *.test.json name', () => {
    const created = apiError(() => files.create({ ...emptyGraph('x'), name: 'Nav.test' }, '', false));
    expect(created).toMatchObject({ status: 400, code: 'graph-test-file', path: '$.name' });
    expect(existsSync(join(root, 'nav.test.json'))).toBe(false);
    const moved = apiError(() => files.move('grid_navigator', '', 'grid_navigator.test'));
    expect(moved).toMatchObject({ code: 'graph-test-file', path: '$.new_name' });
    expect(files.list().map((g) => g._id)).toEqual(['grid_navigator']);
  });
});
