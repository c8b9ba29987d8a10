// Test helpers for distributed mode: REAL `statewire worker` child processes (the CLI binary, as a
// user starts it) pointed at a test's Redis and PostgreSQL, and the batch record those tests start.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { DATABASE_URL_ENV, REDIS_URL_ENV } from '../distributed/config.ts';
import { REPO } from './serverProcess.testutil.ts';

export interface WorkerProcess {
  name: string;
  proc: ChildProcess;
  output: () => string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop: () => Promise<number | null>;
  /** SIGKILL (a crash) and wait for exit. */
  kill9: () => Promise<void>;
  exited: Promise<number | null>;
}

export function startWorkerProcess(
  urls: { redisUrl: string; databaseUrl: string },
  name: string,
  extraArgs: string[] = [],
): Promise<WorkerProcess> {
  const env = { ...process.env, [REDIS_URL_ENV]: urls.redisUrl, [DATABASE_URL_ENV]: urls.databaseUrl };
  const proc = spawn(
    process.execPath,
    [join(REPO, 'bin/statewire.js'), 'worker', '--concurrency', '1', '--name', name, ...extraArgs],
    { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
  const alive = () => proc.exitCode === null && proc.signalCode === null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`worker ${name} did not start in time:\n${out}`));
    }, 60_000);
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('worker ready\n')) {
        clearTimeout(timer);
        resolve({
          name,
          proc,
          output: () => out,
          exited,
          stop: async () => {
            if (alive()) proc.kill('SIGTERM');
            return exited;
          },
          kill9: async () => {
            if (alive()) proc.kill('SIGKILL');
            await exited;
          },
        });
      }
    });
    proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker ${name} exited (${code}) before it was ready:\n${out}`));
    });
  });
}
