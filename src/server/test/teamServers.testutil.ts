// A team of server instances for tests and benchmarks of distributed mode (docs/scaling-out.md): a
// REAL Redis and a REAL PostgreSQL started here, the test's own reader of PostgreSQL's run log, and
// in-process `createServer` instances in distributed mode on both stores, each with a workspace of
// its own (a temp folder). One `close()` stops all of it; the test closes its own clients and
// worker processes first. The e2e team spec starts `statewire serve` processes instead (e2e/server.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ServerOptions, type StatewireServer } from '../app.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import { startPostgres, type PgServer } from './pgServer.ts';
import { startRedis, type RedisServer } from './redisServer.ts';

export interface TeamInstance {
  server: StatewireServer;
  /** Its base URL. */
  url: string;
  /** Its workspace. */
  dir: string;
}

/** One instance: its name (in its temp folder's name) and any server options beyond the team's. */
export interface TeamInstanceOptions extends Partial<Omit<ServerOptions, 'distributed'>> {
  name: string;
}

export interface Team {
  redis: RedisServer;
  pg: PgServer;
  /** The test's own reader of the PostgreSQL log. */
  log: PgRunLog;
  /** The instances started with the team, in the order asked. */
  instances: TeamInstance[];
  /**
   * One more instance on the same stores. With `workspace`, it opens that folder (an instance
   * started again on what a closed one left), which stays the caller's to remove.
   */
  startInstance(instance: string | TeamInstanceOptions): Promise<TeamInstance>;
  close(): Promise<void>;
}

/** Redis, PostgreSQL, the reader, then `instances` started one at a time (a start is slow on a busy machine). */
export async function startTeam(instances: Array<string | TeamInstanceOptions> = []): Promise<Team> {
  const [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  const servers: StatewireServer[] = [];
  const dirs: string[] = [];
  let log: PgRunLog | undefined;
  const close = async () => {
    await Promise.allSettled(servers.map((s) => s.close()));
    await log?.close().catch(() => undefined);
    await Promise.allSettled([redis.stop(), pg.stop()]);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
  const startInstance = async (instance: string | TeamInstanceOptions): Promise<TeamInstance> => {
    const { name, ...opts } = typeof instance === 'string' ? { name: instance } : instance;
    let dir = opts.workspace;
    if (dir === undefined) {
      dir = mkdtempSync(join(tmpdir(), `statewire-team-${name}-`));
      dirs.push(dir);
    }
    const server = await createServer({
      port: 0,
      distDir: join(dir, 'dist'),
      ...opts,
      workspace: dir,
      distributed: { redisUrl: redis.url, databaseUrl: pg.url },
    });
    servers.push(server);
    return { server, url: (await server.listen()).url, dir };
  };
  try {
    log = await PgRunLog.connect(pg.url);
    const started: TeamInstance[] = [];
    for (const instance of instances) started.push(await startInstance(instance));
    return { redis, pg, log, instances: started, startInstance, close };
  } catch (err) {
    await close();
    throw err;
  }
}
