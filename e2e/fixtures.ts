// Playwright fixtures: one real `statewire serve` per worker on a free loopback port (--port 0,
// the URL is read from its "listening on" line), over a temp workspace copied from
// e2e/fixtures/workspace; stopped and deleted when the worker ends. Tests get `baseURL` pointing at it.
import { test as base, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

export interface ServerHandle {
  url: string;
  workspace: string;
  /** Reads a saved graph file (id = path under graphs/ without .json). */
  readGraph(id: string): unknown;
  writeGraph(id: string, graph: unknown): void;
  hasGraph(id: string): boolean;
}

async function startServer(workspace: string): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [join(root, 'bin/statewire.js'), 'serve', '--port', '0', '--host', '127.0.0.1', '--workspace', workspace], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'test' },
  });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`statewire serve did not start within 30 s:\n${output}`)), 30_000);
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
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`statewire serve exited with ${code}:\n${output}`));
    });
  });
  return { url, proc };
}

export const test = base.extend<{ server: ServerHandle }, { workerServer: ServerHandle }>({
  workerServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const workspace = mkdtempSync(join(tmpdir(), 'statewire-e2e-'));
      cpSync(join(here, 'fixtures/workspace'), workspace, { recursive: true });
      const { url, proc } = await startServer(workspace);
      const file = (id: string) => join(workspace, 'graphs', `${id}.json`);
      await use({
        url,
        workspace,
        readGraph: (id) => JSON.parse(readFileSync(file(id), 'utf8')) as unknown,
        writeGraph: (id, g) => {
          mkdirSync(dirname(file(id)), { recursive: true });
          writeFileSync(file(id), JSON.stringify(g, null, 2));
        },
        hasGraph: (id) => existsSync(file(id)),
      });
      proc.kill('SIGTERM');
      await new Promise((r) => {
        if (proc.exitCode !== null) r(null);
        else {
          proc.once('exit', r);
          setTimeout(() => {
            proc.kill('SIGKILL');
            r(null);
          }, 5_000);
        }
      });
      rmSync(workspace, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  server: async ({ workerServer }, use) => use(workerServer),
  baseURL: async ({ workerServer }, use) => use(workerServer.url),
});

export { expect };

export function fixturePath(name: string): string {
  return join(here, 'fixtures', name);
}
