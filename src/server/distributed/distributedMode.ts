// Distributed mode wiring for `statewire serve` (installDistributed) and `statewire batch`
// (distributedBatch), chosen by STATEWIRE_REDIS_URL + STATEWIRE_DATABASE_URL (config.ts):
//  - batches go to the BullMQ queue (bullExecutor.ts) and their records, rows and episode runs live
//    in PostgreSQL (PgRunLog), where every server instance reads them;
//  - socket.io gets the Redis adapter and the viewer relay (viewerRelay.ts): a viewer on any
//    instance follows any episode live; the run routes fall back to PostgreSQL for those runs
//    (remoteRuns.plugin.ts);
//  - batches are owned through leases in PostgreSQL (batchLease.ts): a batch whose owner died is
//    taken over by another instance within seconds and finished there;
//  - `/api/health` probes Redis and PostgreSQL, each within 2 s (db/health.ts);
//  - the graphs live in PostgreSQL (workspace/pgGraphStore.ts) instead of the workspace's graphs/
//    folder: every instance lists and saves the same graphs, every saved version is kept, and a
//    write on one instance reaches the editors on all of them (LISTEN/NOTIFY);
//  - every run of this instance (Run button, `run --server`, forks, branches, imported bundles) is
//    executed from its SQLite store and forwarded to PostgreSQL (runForwarder.ts), so any instance
//    lists, opens, follows, exports and forks it; another instance's run is copied here to be
//    forked (remoteCopies.ts).
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Server as SocketServer } from 'socket.io';
import type { BatchManagerOptions } from '../batch/batchManager.ts';
import { PROBE_MS, probe, type DependencyCheck } from '../db/health.ts';
import { Emitter } from '@socket.io/redis-emitter';
import { PgRunLog } from '../db/pgRunLog.ts';
import type { RunStore } from '../db/runStore.ts';
import type { LiveHub } from '../socket/liveHub.ts';
import { PgGraphStore } from '../workspace/pgGraphStore.ts';
import { BatchLeases } from './batchLease.ts';
import { BullExecutor } from './bullExecutor.ts';
import { distributedConfig, graphsLocation, type DistributedConfig } from './config.ts';
import { within } from './queue.ts';
import { RemoteCopies } from './remoteCopies.ts';
import { RunForwarder } from './runForwarder.ts';
import { ViewerRelay } from './viewerRelay.ts';
import { watchedPublisher } from './worker.ts';

export interface DistributedServer {
  config: DistributedConfig;
  log: PgRunLog;
  executor: BullExecutor;
  relay: ViewerRelay;
  /** Copies this instance's runs to PostgreSQL. */
  forwarder: RunForwarder;
  /** Other instances' runs copied here to be forked. */
  copies: RemoteCopies;
  /** This instance's batch leases: call `takeOver` once its BatchManager exists. */
  leases: BatchLeases;
  /** What BatchManager takes instead of the embedded log, pool and mode. */
  batches: Pick<BatchManagerOptions, 'log' | 'executor' | 'mode' | 'ownership'>;
  /** The graphs, shared by every instance (instead of the workspace's graphs/ folder). */
  graphs: PgGraphStore;
  /** Redis and PostgreSQL, each probed within 2 s. */
  checks(): Promise<{ redis: DependencyCheck; postgres: DependencyCheck }>;
  close(): Promise<void>;
}

export interface InstallOptions {
  io: SocketServer;
  hub: LiveHub;
  /** This instance's SQLite store: its runs are forwarded to PostgreSQL. */
  store: RunStore;
  workspace: string;
  /** Explicit configuration; `null`: embedded whatever the environment says; default: the environment. */
  config?: DistributedConfig | null;
}

/** PostgreSQL's probe: one `SELECT 1` within PROBE_MS; down says the last failure and when. */
async function postgresCheck(log: PgRunLog): Promise<DependencyCheck> {
  const ping = await log.ping(PROBE_MS);
  if (ping.up) return { status: 'up', latency_ms: ping.latencyMs };
  return {
    status: 'down',
    latency_ms: null,
    error: ping.lastError?.message ?? 'unreachable',
    ...(ping.lastError ? { error_at: ping.lastError.at } : {}),
  };
}

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
  const copies = new RemoteCopies(opts.store, log);
  const relay = new ViewerRelay(opts.io, log, config.redisUrl, { claims: (id) => copies.has(id) });
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
  // This instance's runs go to PostgreSQL, and live to viewers on other instances once there.
  const live = watchedPublisher(new Emitter(pub), pub);
  const forwarder = new RunForwarder(opts.store, log, {
    publish: live.publish,
    ended: live.forget,
    skip: (id) => copies.has(id),
  });
  forwarder.start();
  const leases = new BatchLeases(log.pool);
  let closed: Promise<void> | undefined;
  return {
    config,
    log,
    executor,
    relay,
    forwarder,
    copies,
    leases,
    batches: { log, executor, mode: 'distributed', ownership: leases },
    graphs: new PgGraphStore(log.pool, {
      location: graphsLocation(config.databaseUrl),
      listenUrl: config.databaseUrl,
    }),
    async checks() {
      // Each probe gives up after PROBE_MS: a paused Redis leaves its ping pending for ever.
      const [redis, postgres] = await Promise.all([probe(() => executor.ping()), postgresCheck(log)]);
      return { redis, postgres };
    },
    close() {
      return (closed ??= (async () => {
        opts.hub.setRemoteSource(undefined);
        leases.close();
        await within(forwarder.close(), 3000);
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
 * Distributed mode for `statewire batch` (undefined in embedded mode): the PostgreSQL log, the
 * BullMQ executor and the batch's lease (should this process die, a server instance finishes the
 * batch; it takes over no one else's). Throws DistributedConfigError when only one of the two
 * variables is set.
 */
export async function distributedBatch(
  plugins?: string,
): Promise<
  { config: DistributedConfig; log: PgRunLog; executor: BullExecutor; leases: BatchLeases } | undefined
> {
  const config = distributedConfig();
  if (!config) return undefined;
  const log = await PgRunLog.connect(config.databaseUrl, { applicationName: 'statewire-batch' });
  const executor = new BullExecutor({ redisUrl: config.redisUrl, log, plugins });
  return { config, log, executor, leases: new BatchLeases(log.pool) };
}
