// The reference's real wire shapes through the headless commands, with a real Python service written
// with the SDK that sends them (test/fixtures/reference_shapes_service.py): container callbacks with
// `"key": null` and `execution_id` in the body, pushed events full of nulls (one naming only the
// function), a ConfigField-list config schema, a malformed function in the manifest, an answer over
// `max_response_mb`; `statewire run` with a command service and with a `url` service started by hand
// on `--executor-port`; `statewire check` and `statewire test` seeing the service's ports.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './serviceProcess.ts';
import { REPO } from '../test/serverProcess.testutil.ts';
import { ensurePython } from '../test/pythonService.testutil.ts';
import {
  shapesEntry,
  shapesGraph,
  startShapesByHand,
  writeServices,
} from '../test/shapesService.testutil.ts';

const exec = promisify(execFile);
const BIN = join(REPO, 'bin/statewire.js');

async function statewire(args: string[], cwd: string) {
  try {
    return { code: 0, ...(await exec(process.execPath, [BIN, ...args], { cwd, timeout: 120_000 })) };
  } catch (e) {
    const { code, stdout, stderr } = e as { code?: unknown; stdout: string; stderr: string };
    return { code: typeof code === 'number' ? code : -1, stdout, stderr };
  }
}

interface Ev {
  type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}
const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Ev);

let ws = '';
const write = (rel: string, value: unknown) =>
  writeFileSync(join(ws, rel), typeof value === 'string' ? value : JSON.stringify(value, null, 2));

beforeAll(() => {
  ensurePython();
  ws = mkdtempSync(join(tmpdir(), 'statewire-shapes-'));
  mkdirSync(join(ws, 'graphs'));
  writeServices(ws, [shapesEntry()]);
  write('graphs/shapes.json', shapesGraph());
}, 600_000);
afterAll(() => rmSync(ws, { recursive: true, force: true }));

describe("the reference's wire shapes, headless", () => {
  it('statewire run: null-key callbacks write and read the granted container, pushed events land, the broken function is skipped', async () => {
    const r = await statewire(['run', 'graphs/shapes.json', '--json'], ws);
    expect(r.code, r.stderr).toBe(0);
    // The malformed function is named with its service and JSON path; the rest of the service works.
    expect(r.stderr).toMatch(
      /warning: \$\.functions\[1\]\.input_ports\[0\]\.name: service 'shapes' function 'shapes__broken': function skipped/,
    );
    const events = lines(r.stdout);
    const result = events.at(-1)!;
    expect(result.type).toBe('run_result');
    expect(result.data).toMatchObject({ status: 'done', outputs: { total: 3, n: 1 } });
    expect(result.data.containers.mem).toEqual({ counts: [3] });
    // The service-owned container this run's calls saw is in run_result too.
    expect(result.data.containers.shapes_counter).toMatchObject({ fires: 1 });
    const writes = events.filter((e) => e.type === 'state_written' && e.data.container === 'mem');
    expect(writes.map((e) => [e.data.node_id, e.data.after])).toEqual([['rem', [3]]]);
    // Pushed events: all-null fields → the service; node_id given → that node; step filled in.
    const pushed = events.filter((e) => e.type === 'error_event' && e.data.details?.pushed);
    const byMessage = Object.fromEntries(pushed.map((e) => [e.data.message, e.data]));
    expect(byMessage['announce: all fields null']).toMatchObject({
      severity: 'info',
      code: 'SERVICE_EVENT',
      scope: { service: 'shapes', step: 1 },
    });
    expect(byMessage['announce: for this run']).toMatchObject({
      severity: 'warning',
      source: 'node',
      scope: { node_id: 'ann', step: 1 },
    });
    expect(byMessage['remembered 1 count(s)']).toBeDefined();
    expect(events.filter((e) => e.type === 'error_event' && e.data.severity === 'error')).toEqual([]);
  }, 120_000);

  it("a failing handler's error event (node_id = the function name) lands on the node that called it", async () => {
    const g = shapesGraph();
    g.nodes = [{ id: 'boom', type: 'shapes__fail', label: 'Boom', config: {}, position: { x: 0, y: 0 } }];
    g.edges = [];
    g.containers = [];
    g.access_grants = [];
    write('graphs/fail.json', g);
    const r = await statewire(['run', 'graphs/fail.json', '--json'], ws);
    expect(r.code).toBe(1);
    const errors = lines(r.stdout).filter((e) => e.type === 'error_event' && e.data.severity === 'error');
    const pushed = errors.find((e) => e.data.code === 'SUBPROC_NODE_FAIL')!;
    expect(pushed.data).toMatchObject({
      scope: { node_id: 'boom' },
      message: 'fail: something broke inside',
    });
    expect(pushed.data.details).toMatchObject({ reported_node_id: 'shapes__fail', service: 'shapes' });
    // …and the call's own failure names the service, the function and what the service said.
    expect(
      errors.some((e) =>
        /service 'shapes' function 'shapes__fail': HTTP 500: something broke inside/.test(e.data.message),
      ),
    ).toBe(true);
  }, 120_000);

  it('an answer over max_response_mb fails the node, naming the service, the function and the setting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'statewire-shapes-big-'));
    try {
      const services = writeServices(dir, [shapesEntry({ max_response_mb: 1 })]);
      const g = shapesGraph();
      g.nodes = [
        { id: 'huge', type: 'shapes__big', label: 'Huge', config: { mb: 3 }, position: { x: 0, y: 0 } },
      ];
      g.edges = [];
      g.containers = [];
      g.access_grants = [];
      writeFileSync(join(dir, 'big.json'), JSON.stringify(g));
      const r = await statewire(['run', join(dir, 'big.json'), '--json', '--services', services], dir);
      expect(r.code).toBe(1);
      const result = lines(r.stdout).at(-1)!;
      expect(result.data.status).toBe('error');
      expect(result.data.error).toMatch(
        /node 'huge'.*service 'shapes' function 'shapes__big': answer larger than 1 MB .*"max_response_mb"/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('statewire run --executor-port: a url service started by hand with that AGENTCANVAS_EXECUTOR_URL calls back', async () => {
    const port = await freePort();
    const svc = await startShapesByHand(`http://127.0.0.1:${port}`);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'statewire-shapes-url-'));
      writeFileSync(join(dir, 'g.json'), JSON.stringify(shapesGraph()));
      const args = ['run', join(dir, 'g.json'), '--json', '--service', `shapes=${svc.url}`];
      const r = await statewire([...args, '--executor-port', String(port)], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`executor http://127.0.0.1:${port}`);
      expect(lines(r.stdout).at(-1)!.data.containers.mem).toEqual({ counts: [3] });
      // Without it the service's callbacks go nowhere: the granted write fails the node, saying so.
      const lost = await statewire(args, dir);
      expect(lost.code).toBe(1);
      expect(lines(lost.stdout).at(-1)!.data.error).toMatch(/node 'rem'.*shapes__remember.*HTTP 500/);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      svc.stop();
    }
  }, 120_000);

  it('statewire check sees the service ports: an unwired required input of a service node is reported', async () => {
    const g = shapesGraph();
    g.edges = g.edges.filter((e) => e.id !== 'e1' && e.id !== 'e5'); // remember.text left unwired
    write('graphs/unwired.json', g);
    // The workspace's services.json is read by default: the service's ports are checked. The
    // reference's own graphs leave such inputs open and run, so it is a warning that says so.
    const r = await statewire(['check', 'graphs/unwired.json'], ws);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /graphs\/unwired\.json: warning required-input-unwired \$\.nodes\[1\] Node 'rem' \(type=shapes__remember\) has required input port\(s\) \['text'\] with no incoming edge\. A node-service type, so a warning/,
    );
    // An edge into a port the service does not declare is found through its manifest.
    const mismatch = shapesGraph();
    mismatch.edges.push({
      id: 'bad',
      source: 'bump',
      sourceHandle: 'count',
      target: 'fr',
      targetHandle: 'nope',
    });
    mismatch.nodes.push({
      id: 'fr',
      type: 'shapes__frontier',
      label: 'F',
      config: {},
      position: { x: 0, y: 600 },
    });
    write('graphs/mismatch.json', mismatch);
    const m = await statewire(['check', 'graphs/mismatch.json'], ws);
    expect(m.stdout).toMatch(
      /warning unknown-handle \$\.edges\[5\]\.targetHandle .*'fr'.*unknown input 'nope'/,
    );
    // …and without any service, the types are only "not loaded" (their ports are not checked).
    const bare = mkdtempSync(join(tmpdir(), 'statewire-shapes-bare-'));
    writeFileSync(join(bare, 'unwired.json'), JSON.stringify(g));
    const none = await statewire(['check', 'unwired.json'], bare);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/warning .*shapes__remember.*not loaded/);
    expect(none.stdout).not.toMatch(/required-input-unwired/);
    // --services FILE names the services explicitly.
    const withFlag = await statewire(
      ['check', 'unwired.json', '--services', join(ws, 'services.json')],
      bare,
    );
    expect(withFlag.stdout).toMatch(/warning required-input-unwired \$\.nodes\[1\] Node 'rem'/);
    rmSync(bare, { recursive: true, force: true });
  }, 120_000);

  it('statewire test: a test whose graph needs an unconfigured service fails with the reason; the others run', async () => {
    const g = shapesGraph();
    g.nodes.push({
      id: 'ghost',
      type: 'nowhere__thing',
      label: 'Ghost',
      config: {},
      position: { x: 0, y: 400 },
    });
    write('graphs/ghost.json', g);
    write('graphs/a_shapes.test.json', {
      graph: 'shapes.json',
      expect: [{ step: 1, slot: 'mem.counts', equals: [3] }],
    });
    write('graphs/b_ghost.test.json', {
      graph: 'ghost.json',
      expect: [{ step: 1, slot: 'mem.counts', length: 1 }],
    });
    const out = await statewire(['test', 'graphs'], ws);
    expect(out.code, out.stdout + out.stderr).toBe(1); // an expectation failed, not a broken test file
    expect(out.stdout).toMatch(
      /^ok \d+ - graphs\/a_shapes\.test\.json › mem\.counts at step 1 equals \[3\]$/m,
    );
    expect(out.stdout).toMatch(/^ok \d+ - graphs\/a_shapes\.test\.json › run ends without error$/m);
    expect(out.stdout).toMatch(/^not ok \d+ - graphs\/b_ghost\.test\.json › run ends without error$/m);
    expect(out.stdout).toMatch(/needs node service 'nowhere', which is not configured/);
    expect(out.stdout).toMatch(/# pass 2\n# fail 2/);
  }, 180_000);
});
