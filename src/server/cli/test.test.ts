// `statewire test` spawned for real (node bin/statewire.js test …): the shipped demo test, a failing
// test, malformed test files, and the JUnit report parsed back as XML.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'bin/statewire.js');
const DEMO_TEST = 'workspace/graphs/grid_navigator.test.json';

const exec = promisify(execFile);

/** `statewire test ARGS` in `cwd`: exit code and both streams (a non-zero exit is not thrown). */
async function statewire(
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    return { code: 0, ...(await exec(process.execPath, [BIN, 'test', ...args], { cwd })) };
  } catch (e) {
    const { code, stdout, stderr } = e as { code?: unknown; stdout: string; stderr: string };
    return { code: typeof code === 'number' ? code : -1, stdout, stderr };
  }
}

let dir = '';
const write = (name: string, value: unknown) =>
  writeFile(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value, null, 2));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'statewire-test-cmd-'));
  await mkdir(join(dir, 'graphs', 'sub'), { recursive: true });
  await mkdir(join(dir, 'bad'));
  await copyFile(join(ROOT, 'workspace/graphs/grid_navigator.json'), join(dir, 'graphs', 'grid.json'));
  await write('graphs/sub/passing.test.json', {
    name: 'counter',
    graph: '../grid.json',
    steps: 3,
    expect: [{ step: 2, slot: 'graph_state.step_count', equals: 2 }],
  });
  await write('graphs/failing.test.json', {
    graph: 'grid.json',
    steps: 4,
    expect: [
      { step: 2, slot: 'graph_state.step_count', equals: 99 },
      { step: 3, slot: 'graph_state.visited', length: 2 },
      { step: 'last', slot: 'graph_state.goal', matches: '^never' },
      { step: 4, slot: 'graph_state.goal', cleared: true },
    ],
  });
  await write('bad/malformed.test.json', {
    graph: 'grid.json',
    expect: [
      { step: 1, slot: 'graph_state.step_count', equals: 1 },
      { step: 1, slot: 'graph_state.step_count', length: 1 },
      { step: 'first', slot: 'graph_state.step_count', equals: 1 },
    ],
  });
  await write('bad/broken.test.json', '{\n  "graph": "grid.json",\n  "expect": [\n');
  await write('bad/nograph.test.json', {
    graph: 'missing.json',
    expect: [{ step: 1, slot: 'c.s', equals: 1 }],
  });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('statewire test on the shipped demo test', () => {
  it('passes: exit 0, TAP 13 with one ok line per expectation', async () => {
    const r = await statewire([DEMO_TEST], ROOT);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('TAP version 13');
    expect(lines[1]).toBe(`# ${DEMO_TEST}: Grid Navigator memory (45 steps, stopped)`);
    const expectations = (JSON.parse(await readFile(join(ROOT, DEMO_TEST), 'utf8')) as { expect: unknown[] })
      .expect;
    const okLines = lines.filter((l) => /^(not )?ok \d+ - /.test(l));
    expect(okLines).toHaveLength(expectations.length + 1);
    expect(okLines.every((l) => l.startsWith('ok '))).toBe(true);
    expect(okLines[0]).toBe(`ok 1 - ${DEMO_TEST} › graph_state.step_count at step 5 equals 5`);
    expect(okLines.at(-1)).toBe(`ok ${expectations.length + 1} - ${DEMO_TEST} › run ends without error`);
    expect(lines).toContain(`1..${expectations.length + 1}`);
    expect(lines.at(-1)).toBe('# fail 0');
  });

  it('with no arguments, runs every *.test.json under ./workspace/graphs', async () => {
    const r = await statewire([], ROOT);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`ok 1 - ${DEMO_TEST} › `);
  });
});

describe('statewire test on failing and malformed tests', () => {
  it('a failing expectation: exit 1, a YAML diagnostic with expected, actual and step', async () => {
    const r = await statewire(['graphs/failing.test.json'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const f = 'graphs/failing.test.json';
    expect(r.stdout).toContain(
      [
        `not ok 1 - ${f} › graph_state.step_count at step 2 equals 99`,
        '  ---',
        '  slot: "graph_state.step_count"',
        '  step: 2',
        '  expected: 99',
        '  actual: 2',
        '  ...',
        `ok 2 - ${f} › graph_state.visited at step 3 has length 2`,
        `not ok 3 - ${f} › graph_state.goal at the last step matches /^never/`,
        '  ---',
        '  slot: "graph_state.goal"',
        '  step: 4',
        '  expected: "/^never/"',
        '  actual: "reach the goal cell"',
        '  ...',
        `not ok 4 - ${f} › graph_state.goal at step 4 is cleared`,
        '  ---',
        '  message: "cleared at step 4: graph_state.last_obs"',
      ].join('\n'),
    );
    expect(r.stdout).toContain(`ok 5 - ${f} › run ends without error`);
    expect(r.stdout).toContain('1..5\n# tests 5\n# pass 2\n# fail 3\n');
  });

  it('a malformed test file: exit 2, every error names the file and the JSON path', async () => {
    const r = await statewire(['bad/malformed.test.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      'bad/malformed.test.json: $.expect[2].step: step must be a root step number (1, 2, …) or "last"',
    ]);
    expect(r.stdout).toContain('not ok 1 - bad/malformed.test.json › load test file');
    expect(r.stdout).toContain('1..1');
  });

  it('invalid JSON, a missing graph: exit 2 with line and column, $.graph', async () => {
    const r = await statewire(['bad/broken.test.json', 'bad/nograph.test.json'], dir);
    expect(r.code).toBe(2);
    const errs = r.stderr.trim().split('\n');
    expect(errs[0]).toMatch(/^bad\/broken\.test\.json: \$: invalid JSON at line 4:1: /);
    expect(errs[1]).toBe('bad/nograph.test.json: $.graph: bad/missing.json: cannot read file: no such file');
  });

  it('exit 2 wins over 1; a folder is searched recursively; unknown options and paths are refused', async () => {
    const both = await statewire(['graphs', 'bad/malformed.test.json'], dir);
    expect(both.code).toBe(2);
    expect(both.stdout).toContain('# graphs/failing.test.json (4 steps, stopped)');
    expect(both.stdout).toContain('# graphs/sub/passing.test.json: counter (3 steps, stopped)');
    const missing = await statewire(['nowhere'], dir);
    expect(missing).toMatchObject({ code: 2, stderr: 'statewire test: nowhere: no such file or folder\n' });
    const option = await statewire(['--bogus'], dir);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("Unknown option '--bogus'");
  });
});

describe('statewire test --junit', () => {
  it('writes JUnit XML that parses back to the same verdicts', async () => {
    const xmlFile = join(dir, 'report.xml');
    const r = await statewire(['graphs', 'bad/malformed.test.json', '--junit', xmlFile], dir);
    expect(r.code).toBe(2);
    const window = new Window();
    try {
      const doc = new window.DOMParser().parseFromString(await readFile(xmlFile, 'utf8'), 'application/xml');
      expect(doc.querySelector('parsererror')).toBeNull();
      const root = doc.documentElement;
      expect(root.tagName).toBe('testsuites');
      expect([
        root.getAttribute('tests'),
        root.getAttribute('failures'),
        root.getAttribute('errors'),
      ]).toEqual(['8', '3', '1']);
      const suites = [...doc.querySelectorAll('testsuite')].map((s) => [
        s.getAttribute('name'),
        s.getAttribute('tests'),
        s.getAttribute('failures'),
        s.getAttribute('errors'),
      ]);
      expect(suites).toEqual([
        ['graphs/failing.test.json', '5', '3', '0'],
        ['counter', '2', '0', '0'],
        ['bad/malformed.test.json', '1', '0', '1'],
      ]);
      const first = doc.querySelector('testcase')!;
      expect(first.getAttribute('classname')).toBe('graphs/failing.test.json');
      expect(first.getAttribute('name')).toBe('graph_state.step_count at step 2 equals 99');
      expect(first.querySelector('failure')!.getAttribute('message')).toBe('expected 99, got 2');
      expect(first.querySelector('failure')!.textContent).toBe(
        'slot: "graph_state.step_count"\nstep: 2\nexpected: 99\nactual: 2',
      );
      const error = doc.querySelector('testcase error')!;
      expect(error.getAttribute('message')).toBe(
        'bad/malformed.test.json: $.expect[2].step: step must be a root step number (1, 2, …) or "last"',
      );
      const props = [...doc.querySelectorAll('testsuite')[0]!.querySelectorAll('property')].map((p) => [
        p.getAttribute('name'),
        p.getAttribute('value'),
      ]);
      expect(props).toEqual([
        ['graph', 'graphs/grid.json'],
        ['steps', '4'],
        ['status', 'stopped'],
      ]);
    } finally {
      await window.happyDOM.close();
    }
  });
});
