// A throwaway REAL PostgreSQL server for tests and benchmarks (no mocks): a fresh data directory in
// a temp folder, `initdb` with trust auth, a postmaster on a free loopback port whose unix socket
// lives in that folder too, and one database. `stop()` shuts it down (fast mode) and removes the
// folder. The binaries come from the Debian package `postgresql` (/usr/lib/postgresql/<major>/bin,
// 15 preferred). PostgreSQL refuses to run as root, so as root the server runs as the `postgres`
// system user (`runuser`), which then owns the temp folder.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';
const PREFERRED_MAJOR = '15';
const DB_NAME = 'statewire';

export interface PgServer {
  /** `postgres://postgres@127.0.0.1:PORT/statewire` */
  url: string;
  port: number;
  /** The temp folder (data directory `data/`, socket, `postgres.log`). */
  dir: string;
  /** Creates another database on this server and returns its URL (a clean schema for one test). */
  createDatabase(name: string): Promise<string>;
  /**
   * Stops the server as `pg_ctl stop -m <mode>` does (`fast`: sessions are terminated with 57P01;
   * `immediate`: a crash, recovered at the next start) and leaves it down until `start()`. For the
   * fault tests: what clients see while the database restarts or is gone.
   */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again after `halt()`, on the same port and data (waits until it accepts connections). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface PgServerOptions {
  /**
   * Durable writes (`fsync`, `synchronous_commit`, `full_page_writes`). Off by default: tests do
   * not need crash safety of a throwaway cluster. Benchmarks that compare with SQLite turn it on.
   */
  durable?: boolean;
}

/** The `bin` folder of the installed PostgreSQL (15 if present, else the newest), if any. */
export function postgresBinDir(): string | undefined {
  const ok = (major: string) => existsSync(join(PG_ROOT, major, 'bin', 'initdb'));
  if (ok(PREFERRED_MAJOR)) return join(PG_ROOT, PREFERRED_MAJOR, 'bin');
  if (!existsSync(PG_ROOT)) return undefined;
  const majors = readdirSync(PG_ROOT)
    .filter((m) => /^\d+$/.test(m) && ok(m))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(PG_ROOT, majors[0], 'bin');
}

export const hasPostgres = (): boolean => postgresBinDir() !== undefined;

export const MISSING_POSTGRES =
  `PostgreSQL server binaries not found under ${PG_ROOT}/<version>/bin ` +
  '(install Debian package postgresql: apt-get install -y postgresql)';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const asRoot = () => process.getuid?.() === 0;

/** argv for a PostgreSQL binary: as the `postgres` user when we are root. */
const command = (bin: string, args: string[]): [string, string[]] =>
  asRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];

async function exec(bin: string, args: string[], cwd: string): Promise<void> {
  const [file, argv] = command(bin, args);
  try {
    await run(file, argv, { cwd, env: { ...process.env, LC_ALL: 'C' } });
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${bin} failed: ${(e.stderr || e.stdout || e.message).trim()}`, { cause: err });
  }
}

const live = new Map<string, () => void>();
let exitHookInstalled = false;

/** A test process that exits without `stop()` (a crash, a filtered run) still leaves no server. */
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const kill of live.values()) kill();
  });
}

export async function startPostgres(opts: PgServerOptions = {}): Promise<PgServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(MISSING_POSTGRES);
  const dir = mkdtempSync(join(tmpdir(), 'statewire-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const pgCtl = join(bin, 'pg_ctl');
  try {
    if (asRoot()) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      if (!Number.isInteger(uid)) throw new Error('running as root but there is no `postgres` user');
      chownSync(dir, uid, gid);
    }
    await exec(
      join(bin, 'initdb'),
      [
        '-D',
        data,
        '-A',
        'trust',
        '-U',
        'postgres',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
        '--no-instructions',
      ],
      dir,
    );
    const durable = opts.durable ? 'on' : 'off';
    const settings = [
      `listen_addresses=127.0.0.1`,
      `unix_socket_directories='${dir}'`,
      `fsync=${durable}`,
      `synchronous_commit=${durable}`,
      `full_page_writes=${durable}`,
      'shared_buffers=16MB',
      'max_connections=60',
      'max_wal_senders=0',
      'wal_level=minimal',
      'autovacuum=off',
    ];
    let port = 0;
    let lastError: unknown;
    const startArgs = () => {
      const o = [`-p ${port}`, ...settings.map((s) => `-c ${s}`)].join(' ');
      return ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', o];
    };
    // The probed port can be taken between the probe and the bind: try a few.
    for (let attempt = 0; attempt < 4; attempt++) {
      port = await freePort();
      try {
        await exec(pgCtl, startArgs(), dir);
        lastError = undefined;
        break;
      } catch (err) {
        lastError = err;
      }
    }
    if (lastError !== undefined) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
      throw new Error(`${(lastError as Error).message}\n${tail}`, { cause: lastError });
    }
    const kill = () => {
      try {
        const [file, argv] = command(pgCtl, ['stop', '-m', 'immediate', '-w', '-D', data]);
        execFileSync(file, argv, { cwd: dir, stdio: 'ignore' });
      } catch {
        // already down
      }
      rmSync(dir, { recursive: true, force: true });
    };
    live.set(dir, kill);
    installExitHook();

    const createDatabase = async (name: string) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name ${name}: use [a-z0-9_]`);
      const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    };
    const url = await createDatabase(DB_NAME);

    let stopped: Promise<void> | undefined;
    const stop = () =>
      (stopped ??= (async () => {
        live.delete(dir);
        try {
          await exec(pgCtl, ['stop', '-m', 'fast', '-w', '-t', '60', '-D', data], dir);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      })());
    const halt = (mode: 'fast' | 'immediate') =>
      exec(pgCtl, ['stop', '-m', mode, '-w', '-t', '60', '-D', data], dir);
    const start = () => exec(pgCtl, startArgs(), dir);
    return { url, port, dir, createDatabase, halt, start, stop };
  } catch (err) {
    live.get(dir)?.();
    live.delete(dir);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
