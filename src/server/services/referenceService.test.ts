// A node service written against the reference's protocol without the Statewire SDK (plain FastAPI,
// msgpack with ext-type-1 arrays: test/fixtures/reference_style_service.py) runs unchanged: Statewire
// starts it from a services file, registers its functions from /manifest, and a headless
// `statewire run` passes a float32 array from one of its nodes to the next, fires a `__firelist__`'s
// children like the built-in dynamic nodes, and reports the result.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePython } from '../test/pythonService.testutil.ts';
import { REPO } from '../test/serverProcess.testutil.ts';

const dir = mkdtempSync(join(tmpdir(), 'statewire-refsvc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const graph = {
  nodes: [
    { id: 'make', type: 'refsvc__make', label: 'Make', config: { h: 2, w: 3 }, position: { x: 0, y: 0 } },
    { id: 'scale', type: 'refsvc__scale', label: 'Scale', config: { factor: 2 }, position: { x: 200, y: 0 } },
    { id: 'out', type: 'graphOut', label: 'Mean', config: { portName: 'mean' }, position: { x: 400, y: 0 } },
    { id: 'fan', type: 'refsvc__fan', label: 'Fan', config: {}, position: { x: 200, y: 200 } },
    {
      id: 'fanned',
      type: 'graphOut',
      label: 'Fanned',
      config: { portName: 'fanned' },
      position: { x: 400, y: 200 },
    },
  ],
  edges: [
    { id: 'e1', source: 'make', sourceHandle: 'depth', target: 'scale', targetHandle: 'depth' },
    { id: 'e2', source: 'scale', sourceHandle: 'mean', target: 'out', targetHandle: 'value' },
    { id: 'e3', source: 'make', sourceHandle: 'depth', target: 'fan', targetHandle: 'depth' },
    { id: 'e4', source: 'fan', sourceHandle: 'mean', target: 'fanned', targetHandle: 'value' },
  ],
  containers: [],
  access_grants: [],
};

describe('a reference-style node service (no SDK)', () => {
  it('is started, registered and called; its arrays cross two nodes intact', () => {
    const python = ensurePython();
    const services = join(dir, 'services.json');
    writeFileSync(
      services,
      JSON.stringify({
        services: [
          {
            name: 'refsvc',
            command: [python, 'reference_style_service.py', '--port', '{port}'],
            cwd: join(REPO, 'src/server/test/fixtures'),
            startup_timeout_s: 60,
          },
        ],
      }),
    );
    const file = join(dir, 'ref.json');
    writeFileSync(file, JSON.stringify(graph));
    const r = spawnSync(
      process.execPath,
      [join(REPO, 'bin/statewire.js'), 'run', file, '--json', '--services', services],
      { encoding: 'utf8', timeout: 90_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
    const errors = events.filter((e) => e.type === 'error_event' && e.data.severity === 'error');
    expect(errors).toEqual([]);
    const result = events.at(-1)!;
    expect(result.type).toBe('run_result');
    // ramp 0…5 / 4 = mean 0.625, × 2 = 1.25 (float32 arithmetic on the service side, exact here)
    // The fan's __firelist__ fires three children (factors 1, 2, 3); the last one's mean is its output.
    expect(result.data).toMatchObject({ status: 'done', outputs: { mean: 1.25, fanned: 1.875 } });
    const children = events
      .filter((e) => e.type === 'exec_log' && e.data.parent_node_id === 'fan')
      .map((e) => e.data.node_id);
    expect(children).toEqual(['fan::dyn0', 'fan::dyn1', 'fan::dyn2']);
  }, 120_000);
});
