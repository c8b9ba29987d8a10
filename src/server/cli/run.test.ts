import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand, type CliIo } from './run.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'statewire-run-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const sink: CliIo = { out: (l) => void out.push(l), err: (l) => void err.push(l) };
  return { out, err, sink };
}

const write = (name: string, body: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof body === 'string' ? body : JSON.stringify(body));
  return p;
};

const demo = new URL('../../../workspace/graphs/grid_navigator.json', import.meta.url).pathname;

describe('statewire run', () => {
  it('--json prints one envelope per event with strictly increasing seq and full slot values; exit 0', async () => {
    const o = io();
    const code = await runCommand([demo, '--steps', '5', '--json'], o.sink);
    expect(code).toBe(0);
    const events = o.out.map(
      (l) =>
        JSON.parse(l) as {
          type: string;
          runId: string;
          seq: number;
          ts: string;
          data: Record<string, unknown>;
        },
    );
    expect(events.every((e, i) => i === 0 || e.seq > events[i - 1]!.seq)).toBe(true);
    expect(events[0]).toMatchObject({ type: 'nav_status', seq: 1 });
    expect(new Set(events.map((e) => e.runId)).size).toBe(1);
    const steps = events.filter((e) => e.type === 'nav_step');
    expect(steps).toHaveLength(5);
    const gs = (steps[4]!.data.containers as Record<string, { states: Record<string, { value: unknown }> }>)
      .graph_state!;
    expect(gs.states.stats!.value).toMatchObject({ episode: 1 });
    expect(events.at(-2)).toMatchObject({ type: 'nav_status', data: { status: 'stopped', step: 5 } });
    // The last line is the run's result: stopped at the --steps limit.
    expect(events.at(-1)).toMatchObject({
      type: 'run_result',
      data: { status: 'stopped', steps: 5, stepLimit: 5 },
    });
  });

  it('without --json prints a compact line per step and a final line', async () => {
    const o = io();
    const g = write('g.json', {
      name: 'dag',
      eval_graph: false,
      nodes: [
        { id: 'c', type: 'constant', config: { value: 2 } },
        { id: 'w', type: 'stateWrite', config: { container: 'm', state: 'n' } },
      ],
      edges: [{ id: 'e', source: 'c', target: 'w', sourceHandle: 'value', targetHandle: 'value' }],
      containers: [{ id: 'm', states: { n: { type: 'counter' } } }],
      access_grants: [{ id: 'g', node_id: 'w', container_id: 'm' }],
    });
    expect(await runCommand([g], o.sink)).toBe(0);
    expect(o.out[0]).toMatch(/^step 1 \| fires 2 \| writes 1 .*m\.n=2/);
    expect(o.out.at(-1)).toBe('run done after 1 step');
  });

  it('exit 1 when the run ends in error; the error names the node and why', async () => {
    const o = io();
    const g = write('bad.json', {
      name: 'err',
      eval_graph: false,
      nodes: [
        { id: 'c', type: 'constant', config: { value: 'x' } },
        { id: 'w', type: 'stateWrite', config: { container: 'm', state: 'missing' } },
      ],
      edges: [{ id: 'e', source: 'c', target: 'w', sourceHandle: 'value', targetHandle: 'value' }],
      containers: [{ id: 'm', states: { n: { type: 'counter' } } }],
      access_grants: [{ id: 'g', node_id: 'w', container_id: 'm' }],
    });
    expect(await runCommand([g, '--json'], o.sink)).toBe(1);
    const errors = o.out
      .map((l) => JSON.parse(l) as { type: string; data: { message?: string } })
      .filter((e) => e.type === 'error_event');
    expect(errors[0]!.data.message).toContain(
      "node 'w' (type stateWrite) failed: container 'm': write of undeclared slot 'missing'",
    );
  });

  it('exit 2 on an invalid graph, issues printed as FILE: severity code path message', async () => {
    const o = io();
    const g = write('broken.json', '{"nodes": [');
    expect(await runCommand([g], o.sink)).toBe(2);
    expect(o.err[0]).toMatch(
      new RegExp(`^${g.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: error invalid-json \\$ `),
    );
    const o2 = io();
    const g2 = write('v.json', { name: 'x', eval_graph: false, nodes: [{ id: 'a', type: 'initialize' }] });
    expect(await runCommand([g2], o2.sink)).toBe(2);
    expect(o2.err.join('\n')).toMatch(/v\.json: error \S+ \$\.nodes\[0\]/);
  });

  it('exit 2 when the build fails (removed value type), naming container and slot', async () => {
    const o = io();
    const g = write('img.json', {
      name: 'x',
      eval_graph: false,
      nodes: [{ id: 'c', type: 'constant' }],
      containers: [{ id: 'mem', states: { frames: { type: 'lastWrite', value_type: 'IMAGE' } } }],
    });
    expect(await runCommand([g], o.sink)).toBe(2);
    expect(o.err.join('\n')).toMatch(/'frames' of container 'mem'/);
  });

  it("loads plugins from the graph folder's sibling nodes/ and reports broken ones", async () => {
    mkdirSync(join(dir, 'graphs'));
    mkdirSync(join(dir, 'nodes'));
    writeFileSync(
      join(dir, 'nodes', 'shout.mjs'),
      "export default { spec: { type: 'shout', display_name: 'Shout', input_ports: [{ name: 'text', optional: false }], output_ports: [{ name: 'text' }] }, handler: (i) => ({ text: String(i.text).toUpperCase() + '!' }) };",
    );
    writeFileSync(join(dir, 'nodes', 'broken.mjs'), 'export default {');
    const g = join(dir, 'graphs', 'p.json');
    writeFileSync(
      g,
      JSON.stringify({
        name: 'p',
        eval_graph: false,
        nodes: [
          { id: 'c', type: 'constant', config: { value: 'hi' } },
          { id: 's', type: 'shout' },
          { id: 'w', type: 'stateWrite', config: { container: 'm', state: 'out' } },
        ],
        edges: [
          { id: 'e1', source: 'c', target: 's', sourceHandle: 'value', targetHandle: 'text' },
          { id: 'e2', source: 's', target: 'w', sourceHandle: 'text', targetHandle: 'value' },
        ],
        containers: [{ id: 'm', states: { out: { type: 'lastWrite' } } }],
        access_grants: [{ id: 'g', node_id: 'w', container_id: 'm' }],
      }),
    );
    const o = io();
    expect(await runCommand([g], o.sink)).toBe(0);
    expect(o.out[0]).toContain('m.out=HI!');
    expect(o.err.join('\n')).toMatch(/plugin broken\.mjs: /);
  });

  it('--help prints usage with exit 0', async () => {
    const o = io();
    expect(await runCommand(['--help'], o.sink)).toBe(0);
    expect(o.out[0]).toContain('Exit codes: 0 completed, 1 the run ended in error, 2 invalid graph');
  });

  it('bad arguments exit 2 with usage', async () => {
    const o = io();
    expect(await runCommand(['--steps', 'x'], o.sink)).toBe(2);
    expect(o.err.join('\n')).toContain('usage: statewire run FILE');
  });
});
