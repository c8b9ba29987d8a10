// "The python the user meant": a bare python/python3 command runs with the SDK's venv when there is
// one; without it, a service that dies on a missing SDK module says so and how to install it. The
// last two tests start real processes through a real ServiceManager.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../engine/registry.ts';
import { ensurePython } from '../test/pythonService.testutil.ts';
import { FIXTURES } from '../test/shapesService.testutil.ts';
import { resolvePythonCommand, sdkHint } from './pythonCommand.ts';
import { ServiceManager } from './serviceManager.ts';
import { parseServiceEntry } from './servicesConfig.ts';

const dir = mkdtempSync(join(tmpdir(), 'statewire-venv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolvePythonCommand', () => {
  it('puts the venv interpreter in place of a bare python or python3, and leaves anything else', () => {
    mkdirSync(join(dir, 'venv', 'bin'), { recursive: true });
    writeFileSync(join(dir, 'venv', 'bin', 'python'), '#!/bin/sh\n');
    chmodSync(join(dir, 'venv', 'bin', 'python'), 0o755);
    const env = { STATEWIRE_VENV: join(dir, 'venv') };
    const py = join(dir, 'venv', 'bin', 'python');
    expect(resolvePythonCommand(['python3', 'sim.py', '--port', '{port}'], env)).toEqual({
      argv: [py, 'sim.py', '--port', '{port}'],
      via: py,
    });
    expect(resolvePythonCommand(['python', '-m', 'x'], env).argv[0]).toBe(py);
    for (const cmd of [
      ['/opt/ref/.venv/bin/python', 'a.py'],
      ['uv', 'run', 'a.py'],
      ['python3.11', 'a.py'],
    ])
      expect(resolvePythonCommand(cmd, env)).toEqual({ argv: cmd, via: null });
    expect(resolvePythonCommand(['python3', 'sim.py'], { STATEWIRE_VENV: join(dir, 'none') })).toEqual({
      argv: ['python3', 'sim.py'],
      via: null,
    });
  });

  it('turns a missing-module traceback of a bare python into how to install the SDK', () => {
    const out = [
      'Traceback (most recent call last):',
      "ModuleNotFoundError: No module named 'statewire_nodes'",
    ];
    expect(sdkHint(['python3', 'sim.py'], out)).toMatch(
      /^'python3' has no module 'statewire_nodes': the Python SDK is not installed\. Run `bash scripts\/setup-python\.sh`/,
    );
    expect(sdkHint(['/usr/bin/python3', 'sim.py'], out)).toBeNull();
    expect(sdkHint(['python3', 'sim.py'], ['ValueError: boom'])).toBeNull();
  });
});

/** One command service started and stopped by a real ServiceManager; its status once settled. */
async function startOne(command: string[], cwd = FIXTURES) {
  const entry = parseServiceEntry({ name: 'svc', command, cwd, startup_timeout_s: 60 }, '$', dir).entry!;
  const m = new ServiceManager(createRegistry(), [entry], []);
  await m.start();
  const s = m.report().services[0]!;
  await m.close();
  return s;
}

describe('a python3 command service (real processes)', () => {
  const saved = process.env.STATEWIRE_VENV;
  afterAll(() => {
    if (saved === undefined) delete process.env.STATEWIRE_VENV;
    else process.env.STATEWIRE_VENV = saved;
  });

  it("runs with the SDK's venv when it is set up", async () => {
    const venvPython = ensurePython();
    process.env.STATEWIRE_VENV = join(venvPython, '..', '..');
    const s = await startOne(['python3', 'reference_shapes_service.py', '--port', '{port}']);
    expect(s.state, s.error ?? '').toBe('up');
  }, 120_000);

  it('without the venv, a service whose python lacks the SDK is down with how to install it', async () => {
    process.env.STATEWIRE_VENV = join(dir, 'no-venv-here');
    // A python that certainly has no statewire_nodes: `-I` ignores the user site and PYTHONPATH.
    writeFileSync(join(dir, 'needs_sdk.py'), 'import statewire_nodes\n');
    const s = await startOne(['python3', '-I', join(dir, 'needs_sdk.py')], dir);
    expect(s.state).toBe('down');
    expect(s.error).toMatch(
      /process ended before it was healthy: 'python3' has no module 'statewire_nodes': the Python SDK is not installed\. Run `bash scripts\/setup-python\.sh`/,
    );
  }, 60_000);
});
