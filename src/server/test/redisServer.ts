// A throwaway REAL Redis server for tests and benchmarks (no mocks): `redis-server` (Debian package
// `redis-server`) on a free 127.0.0.1 port, working directory in a temp folder, no persistence
// (`--save '' --appendonly no`), in the foreground as a child of this process. `stop()` shuts it
// down and removes the folder; a test process that exits without `stop()` still kills it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../services/serviceProcess.ts';

export interface RedisServer {
  /** `redis://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** The temp folder (its working directory). */
  dir: string;
  /** The server's output so far (for failure messages). */
  output(): string;
  /** SIGSTOP: the server keeps its connections but answers nothing (a hung host) until `resume()`. */
  pause(): void;
  resume(): void;
  /**
   * SIGKILL and a fresh start on the same port: without persistence every key is gone (the
   * documented try-out setup after a crash or a restart).
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export const MISSING_REDIS =
  'redis-server not found on PATH (install Debian package redis-server: apt-get install -y redis-server)';

/** The `redis-server` binary on PATH, if any. */
export function redisServerBinary(): string | undefined {
  const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return r.error || r.status !== 0 ? undefined : 'redis-server';
}

export const hasRedis = (): boolean => redisServerBinary() !== undefined;

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const p of live) p.kill('SIGKILL');
  });
}

/** Starts redis-server on `port`; resolves once it accepts connections, rejects if it exits first. */
function launch(
  bin: string,
  port: number,
  dir: string,
): Promise<{ proc: ChildProcess; output: () => string }> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
    '--loglevel',
    'notice',
    // BullMQ needs keys never evicted.
    '--maxmemory-policy',
    'noeviction',
  ];
  const proc = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const output = () => out;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`redis-server did not start within 30 s:\n${out}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        proc.stdout?.off('data', onData);
        // Keep draining its output (a full pipe would block the server).
        proc.stdout?.on('data', (c: Buffer) => {
          out = (out + c.toString()).slice(-20_000);
        });
        resolve({ proc, output });
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    proc.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${signal ?? code}) before it was ready:\n${out}`));
    });
  });
}

export async function startRedis(): Promise<RedisServer> {
  const bin = redisServerBinary();
  if (!bin) throw new Error(MISSING_REDIS);
  const dir = mkdtempSync(join(tmpdir(), 'statewire-redis-'));
  try {
    let started: { proc: ChildProcess; output: () => string } | undefined;
    let port = 0;
    let lastError: unknown;
    // The probed port can be taken between the probe and the bind: try a few.
    for (let attempt = 0; attempt < 4 && !started; attempt++) {
      port = await freePort();
      try {
        started = await launch(bin, port, dir);
      } catch (err) {
        lastError = err;
      }
    }
    if (!started) throw lastError instanceof Error ? lastError : new Error(String(lastError));
    let { proc, output } = started;
    live.add(proc);
    installExitHook();
    const exitOf = (p: ChildProcess) =>
      new Promise<void>((res) => {
        if (p.exitCode !== null || p.signalCode !== null) res();
        else p.once('exit', () => res());
      });
    let outputs = '';
    const restart = async () => {
      const old = proc;
      old.kill('SIGKILL');
      await exitOf(old);
      live.delete(old);
      outputs += output();
      ({ proc, output } = await launch(bin, port, dir));
      live.add(proc);
    };
    let stopped: Promise<void> | undefined;
    const stop = () =>
      (stopped ??= (async () => {
        proc.kill('SIGCONT');
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
        await exitOf(proc);
        clearTimeout(timer);
        live.delete(proc);
        rmSync(dir, { recursive: true, force: true });
      })());
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      dir,
      output: () => outputs + output(),
      pause: () => proc.kill('SIGSTOP'),
      resume: () => proc.kill('SIGCONT'),
      restart,
      stop,
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
