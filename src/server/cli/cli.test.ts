// Spawns the real `statewire` binary (node bin/statewire.js) on fixture files in a temp folder.
import { mkdtemp, mkdir, readFile, readdir, rm, stat, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGraph } from '../../domain/graph/graph.format.ts';
import { generateLargeGraph } from '../../domain/graph/fixtures/largeGraph.ts';
import { runStatewire } from '../test/cli.testutil.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIXTURES = join(ROOT, 'src/domain/graph/fixtures');

const statewire = runStatewire;

let dir = '';
const fx = (name: string) => copyFile(join(FIXTURES, `${name}.json`), join(dir, `${name}.json`));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'statewire-cli-'));
  for (const name of [
    'loop-with-containers',
    'dangling-grants',
    'reference-minimal',
    'reference-minimal.canonical',
    'max-iterations',
  ])
    await fx(name);
  await writeFile(join(dir, 'bad-json.json'), '{\n  "name": "x",\n  "nodes": [}\n');
  await writeFile(
    join(dir, 'bad-schema.json'),
    JSON.stringify({
      edges: [
        { id: 'e0', source: 'a', target: 'b' },
        { id: 'e1', source: 5, target: 'b' },
      ],
    }),
  );
  const errGraph = JSON.parse(await readFile(join(FIXTURES, 'reference-minimal.json'), 'utf8')) as {
    containers: { states: Record<string, unknown> }[];
  };
  errGraph.containers[0]!.states.frames = { type: 'lastWrite', value_type: 'IMAGE' };
  await writeFile(join(dir, 'removed-type.json'), JSON.stringify(errGraph));
  await writeFile(join(dir, 'large.json'), JSON.stringify(generateLargeGraph(2000)));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('statewire dispatcher', () => {
  it('--help lists the commands and exits 0', async () => {
    const r = await statewire(['--help'], dir);
    expect(r.code).toBe(0);
    for (const c of ['check', 'format', 'run', 'serve'])
      expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
  });

  it('a negative number after a numeric flag gets that flag’s range message, in every command', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['serve', '--port', '-1'], /invalid port "-1" \(expected 0–65535\)/],
      [['serve', '--body-limit', '-5'], /invalid --body-limit "-5"/],
      [['worker', '--concurrency', '-1'], /invalid --concurrency "-1" \(1–256\)/],
      [['worker', '--grace', '-3'], /invalid --grace "-3"/],
      [
        ['batch', 'g.json', '--workers', '-2', '-n', '1'],
        /--workers must be an integer from 1 to 64, got "-2"/,
      ],
      [['run', 'g.json', '--steps', '-1'], /--steps needs a positive integer/],
    ];
    const answers = await Promise.all(cases.map(([args]) => statewire(args, dir)));
    for (const [i, [args, message]] of cases.entries()) {
      const r = answers[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr, args.join(' ')).not.toMatch(/ambiguous/);
    }
  });

  it('an unknown command prints usage and exits 2', async () => {
    const r = await statewire(['frobnicate'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(r.stderr).toMatch(/usage: statewire <command>/);
  });
});

describe('statewire check', () => {
  it('exits 0 and prints nothing for a clean file; prints warnings as FILE: severity code path message', async () => {
    const r = await statewire(['check', 'loop-with-containers.json', 'dangling-grants.json'], dir);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      "dangling-grants.json: warning dangling-grant $.access_grants[4].node_id grant 'ag_5' names node 'removed_node', which does not exist (kept; it is inert)",
    );
  });

  it('exits 1 when an issue is an error', async () => {
    const r = await statewire(['check', 'removed-type.json', 'max-iterations.json'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^removed-type\.json: error removed-value-type \$\.containers\[0\]\.states\.frames\.value_type slot 'frames' of container 'memory'/m,
    );
    expect(r.stdout).toMatch(/^max-iterations\.json: warning legacy-max-iterations \$\.maxIterations /m);
  });

  it('--json prints the issue list with the file of each', async () => {
    const r = await statewire(['check', '--json', 'removed-type.json', 'dangling-grants.json'], dir);
    expect(r.code).toBe(1);
    const issues = JSON.parse(r.stdout) as {
      file: string;
      code: string;
      severity: string;
      containerId?: string;
    }[];
    expect(issues[0]).toMatchObject({
      file: 'removed-type.json',
      code: 'removed-value-type',
      severity: 'error',
      containerId: 'memory',
    });
    expect(issues.filter((i) => i.file === 'dangling-grants.json')).toHaveLength(3);
  });

  it('exits 2 with one line for invalid JSON, schema violations and unreadable files', async () => {
    const r = await statewire(
      ['check', 'bad-json.json', 'bad-schema.json', 'missing.json', 'loop-with-containers.json'],
      dir,
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      "invalid JSON at bad-json.json:3:13: unexpected '}'",
      "bad-schema.json: $.edges[1].source: 'source' must be a string, got a number",
      'missing.json: cannot read file: no such file',
    ]);
  });

  it('checks a generated 2,000-node graph', async () => {
    const r = await statewire(['check', 'large.json'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter((l) => / (error|warning) /.test(l))).toEqual([]);
  });
});

describe('statewire format', () => {
  it('prints the canonical form to stdout', async () => {
    const r = await statewire(['format', 'reference-minimal.json'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(await readFile(join(FIXTURES, 'reference-minimal.canonical.json'), 'utf8'));
  });

  it('--write rewrites in place atomically, leaves no temp file, and leaves canonical files untouched', async () => {
    const r = await statewire(
      ['format', '--write', 'max-iterations.json', 'reference-minimal.canonical.json'],
      dir,
    );
    expect(r.code).toBe(0);
    const text = await readFile(join(dir, 'max-iterations.json'), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ step_budget: 25 });
    expect(text).not.toMatch(/maxIterations/);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const before = (await stat(join(dir, 'max-iterations.json'))).mtimeMs;
    const again = await statewire(['format', '--write', 'max-iterations.json'], dir);
    expect(again.code).toBe(0);
    expect((await stat(join(dir, 'max-iterations.json'))).mtimeMs).toBe(before);
  });

  it('formats a generated 2,000-node graph canonically', async () => {
    const r = await statewire(['format', 'large.json'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(formatGraph(generateLargeGraph(2000)));
  });

  it('exits 2 without touching an invalid file, and refuses several files without --write', async () => {
    const r = await statewire(['format', '--write', 'bad-json.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^invalid JSON at bad-json\.json:3:13/);
    expect(await readFile(join(dir, 'bad-json.json'), 'utf8')).toBe('{\n  "name": "x",\n  "nodes": [}\n');
    const two = await statewire(['format', 'a.json', 'b.json'], dir);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/several FILEs need --write/);
  });
});

describe('statewire run with a workspace outside this repository', () => {
  // Regression: a `.ts` plugin whose folder has no `"type": "module"` package.json (any user
  // workspace outside the repo) failed to load under the bin ("Cannot require() ES Module … in a cycle").
  it('loads ESM .ts plugins from a folder with no package.json, and reports a broken one with its file', async () => {
    const ws = await mkdtemp(join(tmpdir(), 'statewire-ws-'));
    try {
      await writeFile(join(ws, 'package.json'), '{}'); // nearest package.json: not "type": "module"
      await mkdir(join(ws, 'graphs'));
      await mkdir(join(ws, 'nodes'));
      await copyFile(join(ROOT, 'workspace/nodes/uppercase.ts'), join(ws, 'nodes/uppercase.ts'));
      await writeFile(join(ws, 'nodes/a_broken.ts'), 'export default {spec: {type: "broken"\n');
      await writeFile(
        join(ws, 'graphs/g.json'),
        JSON.stringify({
          name: 'p',
          nodes: [
            { id: 'c', type: 'constant', config: { value: 'hi' } },
            { id: 'u', type: 'uppercase' },
          ],
          edges: [{ id: 'e1', source: 'c', target: 'u', sourceHandle: 'value', targetHandle: 'text' }],
          step_budget: 5,
          eval_graph: false,
        }),
      );
      const r = await statewire(['run', '--json', 'graphs/g.json'], ws);
      expect(r.stderr).toMatch(/a_broken\.ts/);
      expect(r.stderr).not.toMatch(/uppercase\.ts/);
      expect(r.code).toBe(0);
      const events = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; data: { node_id?: string; error?: unknown } });
      const log = events.find((e) => e.type === 'exec_log' && e.data.node_id === 'u');
      expect(log?.data.error).toBeNull();
    } finally {
      await rm(ws, { recursive: true, force: true });
    }
  });
});
