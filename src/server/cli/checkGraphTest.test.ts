// `statewire check` on a folder's *.json also meets graph tests (*.test.json): they are checked
// against the graph-test schema, not as graphs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../test/serverProcess.testutil.ts';

const dir = mkdtempSync(join(tmpdir(), 'statewire-checktest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const check = (...files: string[]) =>
  spawnSync(process.execPath, [join(REPO, 'bin/statewire.js'), 'check', ...files], { encoding: 'utf8' });

describe('statewire check and graph tests', () => {
  it('the shipped demo test passes the check beside its graph (exit 0)', () => {
    const r = check(
      join(REPO, 'workspace/graphs/grid_navigator.json'),
      join(REPO, 'workspace/graphs/grid_navigator.test.json'),
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/grid_navigator\.test\.json/);
  });

  it('a broken graph test is an error with its JSON path (exit 1)', () => {
    const f = join(dir, 'broken.test.json');
    writeFileSync(f, JSON.stringify({ graph: 'g.json', expect: [{ step: 1, slot: 'a.b' }] }));
    const r = check(f);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/broken\.test\.json: error \S+ \$\.expect\[0\] /);
  });
});
