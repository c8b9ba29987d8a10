// Test helpers: a temp workspace (with the demo graph) and a REAL `statewire serve` child process on
// a free loopback port (`--port 0`; the URL is parsed from its `listening on …` line).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';

export const REPO = resolve(import.meta.dirname, '../../..');
export const DEMO_GRAPH_FILE = join(REPO, 'workspace/graphs/grid_navigator.json');

export function demoGraph(stepBudget?: number): GraphDef {
  const g = JSON.parse(readFileSync(DEMO_GRAPH_FILE, 'utf8')) as GraphDef;
  if (stepBudget !== undefined) g.step_budget = stepBudget;
  return g;
}

export function tempWorkspace(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'statewire-test-'));
  mkdirSync(join(dir, 'graphs'), { recursive: true });
  cpSync(DEMO_GRAPH_FILE, join(dir, 'graphs', 'grid_navigator.json'));
  // A stand-in for the built app, so tests do not depend on (or race with a rebuild of) ./dist.
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(
    join(dir, 'dist', 'index.html'),
    '<!doctype html><html><body><div id="root"></div></body></html>\n',
  );
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ServerProcess {
  url: string;
  proc: ChildProcess;
  output: () => string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop: () => Promise<number | null>;
  /** SIGKILL (a crash) and wait for exit. */
  kill9: () => Promise<void>;
}

export function startServer(
  workspace: string,
  extraArgs: string[] = [],
  /** Added to this process's environment (e.g. distributed mode's URLs). */
  extraEnv: Record<string, string> = {},
): Promise<ServerProcess> {
  const env = { ...process.env, ...extraEnv };
  delete env.PORT;
  delete env.HOST;
  const proc = spawn(
    process.execPath,
    [
      join(REPO, 'bin/statewire.js'),
      'serve',
      '--port',
      '0',
      '--workspace',
      workspace,
      '--dist',
      join(workspace, 'dist'),
      ...extraArgs,
    ],
    {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${out}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolveStart({
          url: m[1],
          proc,
          output: () => out,
          stop: async () => {
            if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
            return exited;
          },
          kill9: async () => {
            if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
            await exited;
          },
        });
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${out}`));
    });
  });
}

/** fetch JSON helper: returns status and parsed body (loosely typed: tests assert on its shape). */
export async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    // State-changing requests must say JSON even without a body (http/originGuard.ts).
    headers: body === undefined && method === 'GET' ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (the SPA's index.html)
  }
  return { status: res.status, body: parsed };
}

/** Polls `check` until it returns a truthy value (or throws after `ms`). */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 15_000,
  what = 'condition',
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
