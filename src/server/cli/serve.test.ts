// `statewire serve` names the workspace it serves, and says when it had to create it (a mistyped
// --workspace would otherwise silently serve an empty folder). Spawns the real binary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, startServer, tempWorkspace } from '../test/serverProcess.testutil.ts';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('statewire serve workspace line', () => {
  it('prints the absolute workspace path before `listening on`', async () => {
    const ws = tempWorkspace();
    made.push(ws.dir);
    const s = await startServer(ws.dir);
    try {
      expect(s.output()).toContain(`workspace ${ws.dir}\n`);
      expect(s.output()).not.toMatch(/created/);
      // The editor's Graphs panel shows the same path (GET /api/graphs/folders → root).
      expect(s.output()).toContain(`graphs ${join(ws.dir, 'graphs')}\n`);
      const folders = (await (await fetch(`${s.url}/api/graphs/folders`)).json()) as { root: string };
      expect(folders.root).toBe(join(ws.dir, 'graphs'));
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('says when the workspace folder did not exist and was created', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'statewire-serve-'));
    made.push(parent);
    const missing = join(parent, 'typo-ws');
    const s = await startServer(missing);
    try {
      expect(s.output()).toContain(`workspace ${missing} (created: the folder did not exist)`);
      expect(existsSync(join(missing, 'graphs'))).toBe(true);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('a second signal during shutdown (Ctrl-C through `npm start`) still shuts down cleanly, exit 0', async () => {
    const ws = tempWorkspace();
    made.push(ws.dir);
    const s = await startServer(ws.dir);
    const exited = new Promise<[number | null, string | null]>((done) =>
      s.proc.once('exit', (code, signal) => done([code, signal])),
    );
    s.proc.kill('SIGINT');
    s.proc.kill('SIGINT');
    s.proc.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
    expect(s.output().match(/received SIG\w+, shutting down/g)).toHaveLength(1);
  });
});

describe('statewire serve limit flags', () => {
  const serve = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(REPO, 'bin/statewire.js'), 'serve', '--port', '0', ...args], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, ...env },
    });

  it('refuses a limit that is not a number above 0 (flag or variable), exit 2 naming it', () => {
    const ws = tempWorkspace();
    made.push(ws.dir);
    const flag = serve(['--workspace', ws.dir, '--max-value-mb', 'lots']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain('invalid --max-value-mb "lots" (expected a number above 0)');
    const whole = serve(['--workspace', ws.dir, '--max-workers', '1.5']);
    expect(whole.status).toBe(2);
    expect(whole.stderr).toContain('invalid --max-workers "1.5" (expected a whole number above 0)');
    const variable = serve(['--workspace', ws.dir], { STATEWIRE_MAX_WORKERS: '0' });
    expect(variable.status).toBe(2);
    expect(variable.stderr).toContain('invalid STATEWIRE_MAX_WORKERS "0"');
    expect(serve(['--help']).stdout).toContain('[--max-value-mb MB] [--max-workers N]');
  });

  it('refuses a bad --user or --user-token, exit 2, never printing the token', () => {
    const ws = tempWorkspace();
    made.push(ws.dir);
    const user = serve(['--workspace', ws.dir, '--user', ' ']);
    expect(user.status).toBe(2);
    expect(user.stderr).toContain('invalid --user: must not be empty');
    const short = serve(['--workspace', ws.dir, '--user-token', 'Bob=tooshort']);
    expect(short.status).toBe(2);
    expect(short.stderr).toContain('invalid --user-token "Bob": must be at least 16 characters');
    expect(short.stderr).not.toContain('tooshort');
    const noName = serve(['--workspace', ws.dir, '--user-token', 'secret-token-0123456789']);
    expect(noName.status).toBe(2);
    expect(noName.stderr).toContain('invalid --user-token "": expected NAME=TOKEN');
    expect(noName.stderr).not.toContain('secret-token');
    expect(serve(['--help']).stdout).toContain('[--user NAME] [--user-token NAME=TOKEN]...');
  });
});
