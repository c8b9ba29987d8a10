// CLI inputs that used to hang or be ignored (issue 8.4): a FIFO (or any non-regular file) given as
// a graph is refused at once instead of blocking forever on open/read, and `run --plugins DIR` with
// a folder that does not exist is an error (exit 2), not a run without the plugins.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, type CliIo } from './run.ts';

const BIN = resolve(import.meta.dirname, '../../../bin/statewire.js');
const DEMO = resolve(import.meta.dirname, '../../../workspace/graphs/grid_navigator.json');

let dir = '';
let fifo = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'statewire-inputs-'));
  fifo = join(dir, 'graph.json');
  execFileSync('mkfifo', [fifo]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The real binary, killed after 15 s: a command that blocks on the FIFO fails instead of hanging. */
function statewire(args: string[]): Promise<{ code: number | null; stderr: string; killed: boolean }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 15_000 }, (err, _stdout, stderr) => {
      const e = err as (Error & { code?: number | string; killed?: boolean }) | null;
      done({
        code: e ? (typeof e.code === 'number' ? e.code : null) : 0,
        stderr,
        killed: e?.killed === true,
      });
    });
  });
}

describe('non-regular files', () => {
  for (const cmd of ['check', 'format', 'run'])
    it(`statewire ${cmd} on a FIFO refuses it at once (exit 2) instead of blocking`, async () => {
      const r = await statewire([cmd, fifo]);
      expect(r.killed).toBe(false);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/FIFO \(named pipe\), not a regular file/);
    });
});

describe('run --plugins', () => {
  const io = () => {
    const err: string[] = [];
    const sink: CliIo = { out: () => undefined, err: (l) => void err.push(l) };
    return { err, sink };
  };

  it('a folder that does not exist is an error, exit 2', async () => {
    const o = io();
    expect(await runCommand([DEMO, '--steps', '1', '--plugins', '/nonexistent'], o.sink)).toBe(2);
    expect(o.err).toEqual(['--plugins /nonexistent: no such folder']);
  });

  it('a file instead of a folder is an error, exit 2', async () => {
    const o = io();
    expect(await runCommand([DEMO, '--steps', '1', '--plugins', DEMO], o.sink)).toBe(2);
    expect(o.err).toEqual([`--plugins ${DEMO}: is not a folder`]);
  });
});
