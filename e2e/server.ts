// Starts a real `statewire serve` on a free loopback port (--port 0; the URL is read from its
// "listening on" line) over a temp copy of a workspace folder; `stop()` ends it and deletes the copy.
// Shared by the Playwright fixtures, the screenshot script and bench/canvas.bench.ts. A crash test
// passes its own workspace and port (`opts`) to start a second server where the first one died.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningServer {
  url: string;
  workspace: string;
  stop(): Promise<void>;
  /** SIGKILL (a crash): the process dies at once; the workspace stays (start another server on it). */
  kill9(): Promise<void>;
}

export interface StartOptions {
  /** Serve this existing workspace (not copied; `stop()` leaves it to the caller). */
  workspace?: string;
  /** Listen on this port instead of a free one (a restart on the port a crashed server had). */
  port?: number;
  /** Added to the server's environment (distributed mode's URLs in e2e/team.spec.ts). */
  env?: Record<string, string>;
}

/** `extraArgs` go to `statewire serve` (e.g. `--token …` in e2e/attacks.spec.ts). */
export async function startServer(
  copyFrom?: string,
  extraArgs: string[] = [],
  opts: StartOptions = {},
): Promise<RunningServer> {
  const owned = opts.workspace === undefined;
  const workspace = opts.workspace ?? mkdtempSync(join(tmpdir(), 'statewire-e2e-'));
  // Never copy a run database (.statewire/): each server starts with its own fresh one.
  if (copyFrom && owned)
    cpSync(copyFrom, workspace, {
      recursive: true,
      filter: (src) => !src.split(/[\\/]/).includes('.statewire'),
    });
  const proc = spawn(
    process.execPath,
    [
      join(root, 'bin/statewire.js'),
      'serve',
      '--port',
      String(opts.port ?? 0),
      '--host',
      '127.0.0.1',
      '--workspace',
      workspace,
      ...extraArgs,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'test', ...opts.env },
    },
  );
  let output = '';
  let url: string;
  try {
    url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`statewire serve did not start within 30 s:\n${output}`)),
        30_000,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const m = /listening on (https?:\/\/\S+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolveUrl(m[1]!.replace(/\/$/, ''));
        }
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', onData);
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`statewire serve exited with ${code}:\n${output}`));
      });
    });
  } catch (e) {
    proc.kill('SIGKILL');
    if (owned) rmSync(workspace, { recursive: true, force: true });
    throw e;
  }
  const exited = new Promise<void>((r) => {
    if (proc.exitCode !== null || proc.signalCode !== null) r();
    else proc.once('exit', () => r());
  });
  return {
    url,
    workspace,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      if (owned) rmSync(workspace, { recursive: true, force: true });
    },
    async kill9() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
  };
}
