// Distributed mode wiring for `statewire serve` (installDistributed) and `statewire batch`
// (distributedBatch), chosen by STATEWIRE_REDIS_URL + STATEWIRE_DATABASE_URL (config.ts):
//  - batches go to the BullMQ queue (bullExecutor.ts) and their records, rows and episode runs live
//    in PostgreSQL (PgRunLog), where every server instance reads them;
//  - socket.io gets the Redis adapter and the viewer relay (viewerRelay.ts): a viewer on any
//    instance follows any episode live; the run routes fall back to PostgreSQL for those runs
//    (remoteRuns.plugin.ts);
//  - `/api/health` reports `{ok, mode: 'distributed', redis, postgres}`.
// Interactive runs (the editor's Run button) stay in the instance's SQLite, as in embedded mode.
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Server as SocketServer } from 'socket.io';
import type { BatchManagerOptions } from '../batch/batchManager.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import type { LiveHub } from '../socket/liveHub.ts';
import { BullExecutor } from './bullExecutor.ts';
import { distributedConfig, type DistributedConfig } from './config.ts';
import { within } from './queue.ts';
import { ViewerRelay } from './viewerRelay.ts';

export interface DistributedHealth {
  ok: boolean;
  mode: 'distributed';
  redis: 'up' | 'down';
  postgres: 'up' | 'down';
}

export interface DistributedServer {
  config: DistributedConfig;
  log: PgRunLog;
  executor: BullExecutor;
  relay: ViewerRelay;
  /** What BatchManager takes instead of the embedded log, pool and mode. */
  batches: Pick<BatchManagerOptions, 'log' | 'executor' | 'mode'>;
  health(): Promise<DistributedHealth>;
  close(): Promise<void>;
}

export interface InstallOptions {
  io: SocketServer;
  hub: LiveHub;
  workspace: string;
  /** Explicit configuration; `null`: embedded whatever the environment says; default: the environment. */
  config?: DistributedConfig | null;
}

/** Resolves within `ms` with the probe's answer, or false. */
async function probe(fn: () => Promise<boolean>, ms = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      fn().catch(() => false),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(false), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const pgUp = async (log: PgRunLog) => (await log.ping(2000)).up;

/**
 * Distributed mode for a server (undefined in embedded mode). Its REST side is remoteRuns.plugin.ts
 * (the run routes' PostgreSQL fallback), which app.ts registers with `log`.
 */
export async function installDistributed(opts: InstallOptions): Promise<DistributedServer | undefined> {
  const config = opts.config === undefined ? distributedConfig() : opts.config;
  if (!config) return undefined;
  const log = await PgRunLog.connect(config.databaseUrl, { applicationName: 'statewire-serve' });
  const pub = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  const sub = pub.duplicate();
  pub.on('error', () => undefined); // reconnects by itself; /api/health says when it is down
  sub.on('error', () => undefined);
  const relay = new ViewerRelay(opts.io, log, config.redisUrl);
  const inMemoryAdapter = opts.io.adapter();
  const executor = new BullExecutor({
    redisUrl: config.redisUrl,
    log,
    plugins: join(opts.workspace, 'nodes'),
  });
  try {
    await relay.start(pub, sub);
  } catch (err) {
    await Promise.allSettled([relay.close(), executor.close(), log.close()]);
    pub.disconnect();
    sub.disconnect();
    throw new Error(`distributed mode: cannot reach Redis: ${(err as Error).message}`, { cause: err });
  }
  opts.hub.setRemoteSource(relay);
  let closed: Promise<void> | undefined;
  return {
    config,
    log,
    executor,
    relay,
    batches: { log, executor, mode: 'distributed' },
    async health() {
      // Each probe answers within 2 s: a paused Redis leaves its ping pending for ever.
      const [redis, postgres] = await Promise.all([probe(() => executor.ping()), pgUp(log)]);
      return {
        ok: redis && postgres,
        mode: 'distributed',
        redis: redis ? 'up' : 'down',
        postgres: postgres ? 'up' : 'down',
      };
    },
    close() {
      return (closed ??= (async () => {
        opts.hub.setRemoteSource(undefined);
        await within(Promise.allSettled([relay.close(), executor.close()]), 5000);
        // The Redis adapter unsubscribes on close without waiting: close it while its connections
        // are up, give socket.io back an in-memory adapter for its own close, then disconnect.
        const redisAdapter = opts.io.of('/').adapter;
        if (inMemoryAdapter) opts.io.adapter(inMemoryAdapter);
        redisAdapter.close();
        await within(Promise.allSettled([pub.ping(), sub.ping()]), 1000);
        pub.disconnect();
        sub.disconnect();
        await within(log.close(), 3000);
      })());
    },
  };
}

/**
 * Distributed mode for `statewire batch` (undefined in embedded mode): the PostgreSQL log and the
 * BullMQ executor. Throws DistributedConfigError when only one of the two variables is set.
 */
export async function distributedBatch(
  plugins?: string,
): Promise<{ config: DistributedConfig; log: PgRunLog; executor: BullExecutor } | undefined> {
  const config = distributedConfig();
  if (!config) return undefined;
  const log = await PgRunLog.connect(config.databaseUrl, { applicationName: 'statewire-batch' });
  const executor = new BullExecutor({ redisUrl: config.redisUrl, log, plugins });
  return { config, log, executor };
}
