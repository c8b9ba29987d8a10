// A node service that Statewire starts itself (a `command` entry): a free loopback port is put in
// place of `{port}`, stdout/stderr lines are kept (and passed to `onLine`), `/health` is polled until
// the startup timeout. The owner decides about restarts; this class only runs one process at a time.
// The process gets its own process group, so a shell wrapper's children stop with it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface ProcessSpec {
  name: string;
  command: string[];
  cwd: string;
  env: Record<string, string>;
}

export class ServiceProcess {
  private child: ChildProcess | null = null;
  private stopping = false;
  readonly lines: string[] = [];

  constructor(
    private readonly spec: ProcessSpec,
    private readonly onLine: (stream: 'stdout' | 'stderr', line: string) => void,
    /** Called once when the process ends on its own (not through stop()). */
    private readonly onExit: (why: string) => void,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Spawns the command on `port`; resolves when spawned (not when healthy). */
  start(port: number): Promise<void> {
    const argv = this.spec.command.map((a) => a.replaceAll('{port}', String(port)));
    this.stopping = false;
    return new Promise((resolve, reject) => {
      const child = spawn(argv[0]!, argv.slice(1), {
        cwd: this.spec.cwd,
        env: { ...process.env, ...this.spec.env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      this.child = child;
      const keep = (stream: 'stdout' | 'stderr') => {
        let rest = '';
        return (chunk: Buffer) => {
          const text = rest + chunk.toString('utf8');
          const parts = text.split('\n');
          rest = parts.pop() ?? '';
          for (const line of parts) {
            this.lines.push(line);
            if (this.lines.length > 200) this.lines.shift();
            this.onLine(stream, line);
          }
        };
      };
      child.stdout?.on('data', keep('stdout'));
      child.stderr?.on('data', keep('stderr'));
      child.once('spawn', () => resolve());
      child.once('error', (e) => {
        if (this.child === child) this.child = null;
        reject(new Error(`cannot start ${JSON.stringify(argv[0])}: ${e.message}`));
      });
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = null;
        if (!this.stopping) this.onExit(signal ? `killed by ${signal}` : `exited with code ${code}`);
      });
    });
  }

  /** SIGTERM to the process group, SIGKILL after `graceMs`. */
  async stop(graceMs = 3000): Promise<void> {
    const child = this.child;
    this.stopping = true;
    if (!child || child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const kill = (sig: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, sig);
      } catch {
        try {
          child.kill(sig);
        } catch {
          // already gone
        }
      }
    };
    kill('SIGTERM');
    const timer = setTimeout(() => kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  /** Synchronous last resort on process exit: no waiting, just kill the group. */
  killNow(): void {
    const pid = this.child?.pid;
    this.stopping = true;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
