// The reference-shapes fixture service (fixtures/reference_shapes_service.py: the SDK sending the
// wire as the reference's own services do) for tests: its services.json entry, a graph that uses it,
// and the service started by hand as a `url` service.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { freePort } from '../services/serviceProcess.ts';
import { ensurePython } from './pythonService.testutil.ts';
import { REPO, waitFor } from './serverProcess.testutil.ts';

export const FIXTURES = join(REPO, 'src/server/test/fixtures');

/** A services.json entry starting the shapes service (or the echo service) with the SDK's python. */
export function shapesEntry(extra: Record<string, unknown> = {}, script = 'reference_shapes_service.py') {
  return {
    name: script.startsWith('echo') ? 'echo' : 'shapes',
    command: [ensurePython(), script, '--port', '{port}'],
    cwd: FIXTURES,
    startup_timeout_s: 60,
    ...extra,
  };
}

export function writeServices(dir: string, services: unknown[]): string {
  const file = join(dir, 'services.json');
  writeFileSync(file, JSON.stringify({ services }));
  return file;
}

const at = (x: number, y: number) => ({ x, y });

/**
 * source → remember (grant: writes `mem.counts`, key null) → tally (reads it back) → graphOuts total
 * and n; announce pushes events; bump writes the service-owned container. One root step.
 */
export function shapesGraph(): GraphDef {
  return {
    name: 'shapes',
    description: '',
    step_budget: 3,
    eval_graph: false,
    kind: 'graph',
    group: '',
    presetId: null,
    hooks: [],
    nodes: [
      {
        id: 'src',
        type: 'shapes__source',
        label: 'Source',
        config: { text: 'one two three' },
        position: at(0, 0),
      },
      { id: 'rem', type: 'shapes__remember', label: 'Remember', config: {}, position: at(220, 0) },
      { id: 'tally', type: 'shapes__tally', label: 'Tally', config: {}, position: at(440, 0) },
      { id: 'ann', type: 'shapes__announce', label: 'Announce', config: {}, position: at(220, 200) },
      { id: 'bump', type: 'shapes__bump', label: 'Bump', config: {}, position: at(0, 200) },
      {
        id: 'out_total',
        type: 'graphOut',
        label: 'Total',
        config: { portName: 'total' },
        position: at(660, 0),
      },
      { id: 'out_n', type: 'graphOut', label: 'N', config: { portName: 'n' }, position: at(660, 120) },
    ],
    edges: [
      { id: 'e1', source: 'src', sourceHandle: 'text', target: 'rem', targetHandle: 'text' },
      { id: 'e2', source: 'rem', sourceHandle: 'words', target: 'tally', targetHandle: 'trigger' },
      { id: 'e3', source: 'tally', sourceHandle: 'total', target: 'out_total', targetHandle: 'value' },
      { id: 'e4', source: 'tally', sourceHandle: 'n', target: 'out_n', targetHandle: 'value' },
      { id: 'e5', source: 'src', sourceHandle: 'text', target: 'ann', targetHandle: 'text' },
    ],
    containers: [
      {
        id: 'mem',
        label: 'Memory',
        position: at(300, 320),
        states: {
          counts: { type: 'accumulator', value_type: 'ANY', lifetime: 'forever', reset_on: [], config: {} },
        },
      },
    ],
    access_grants: [
      { id: 'g1', node_id: 'rem', container_id: 'mem' },
      { id: 'g2', node_id: 'tally', container_id: 'mem' },
    ],
  } as unknown as GraphDef;
}

/**
 * The shapes service started by hand on a free port, the way a user starts a `url` service: it
 * learns the executor only from AGENTCANVAS_EXECUTOR_URL.
 */
export async function startShapesByHand(
  executorUrl: string | undefined,
  opts: { port?: number; name?: string } = {},
): Promise<{ url: string; port: number; pid: number; output: () => string; stop: () => void }> {
  const port = opts.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env, SHAPES_NAME: opts.name ?? 'shapes' };
  delete env.STATEWIRE_EXECUTOR_URL;
  if (executorUrl) env.AGENTCANVAS_EXECUTOR_URL = executorUrl;
  else delete env.AGENTCANVAS_EXECUTOR_URL;
  const child = spawn(ensurePython(), ['reference_shapes_service.py', '--port', String(port)], {
    cwd: FIXTURES,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      try {
        return (await fetch(`${url}/health`)).ok;
      } catch {
        return false;
      }
    },
    60_000,
    `the shapes service by hand:\n${out}`,
  );
  return { url, port, pid: child.pid!, output: () => out, stop: () => child.kill('SIGKILL') };
}
