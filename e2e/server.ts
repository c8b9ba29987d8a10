// Starts a real `statewire serve` on a free loopback port (--port 0; the URL is read from its
// "listening on" line) over a temp copy of a workspace folder; `stop()` ends it and deletes the copy.
// Shared by the Playwright fixtures, the screenshot script and bench/canvas.bench.ts.
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
}

/** `extraArgs` go to `statewire serve` (e.g. `--token …` in e2e/attacks.spec.ts). */
export async function startServer(copyFrom?: string, extraArgs: string[] = []): Promise<RunningServer> {
  const workspace = mkdtempSync(join(tmpdir(), 'statewire-e2e-'));
  // Never copy a run database (.statewire/): each server starts with its own fresh one.
  if (copyFrom)
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
      '0',
      '--host',
      '127.0.0.1',
      '--workspace',
      workspace,
      ...extraArgs,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'test' },
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
    rmSync(workspace, { recursive: true, force: true });
    throw e;
  }
  return {
    url,
    workspace,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
