// The server factory: one fastify instance serving the REST API, the built app (with SPA fallback)
// and socket.io on the same HTTP server. Everything stateful (database, run manager, live hub) is
// created here and torn down by `close()`, so tests can start and stop servers in-process.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { Server as SocketServer } from 'socket.io';
import type { Catalog } from '../domain/catalog/catalog.schema.ts';
import { hello } from '../domain/protocol/liveVersion.ts';
import { createRegistry } from '../engine/registry.ts';
import { BatchManager } from './batch/batchManager.ts';
import { batchPlugin } from './batch/batch.plugin.ts';
import { EmbeddedPool } from './batch/embeddedPool.ts';
import { entriesForEpisodeWorkers } from './batch/episodeServices.ts';
import { closeDatabase, openDatabase } from './db/database.ts';
import { healthReport, probe } from './db/health.ts';
import { RunStore } from './db/runStore.ts';
import { ServiceSnapshotStore } from './db/serviceSnapshotStore.ts';
import { SqliteRunLog } from './db/sqliteRunLog.ts';
import { DEFAULT_MAX_VALUE_MB, MB } from './db/valueLimits.ts';
import { redactUrl, type DistributedConfig } from './distributed/config.ts';
import { forkPlanner } from './replay/forkPreview.ts';
import { replayPlugin } from './replay/replay.plugin.ts';
import { installDistributed } from './distributed/distributedMode.ts';
import { remoteRunsPlugin } from './distributed/remoteRuns.plugin.ts';
import { frameworkErrorOptions, installErrorHandling, installJsonParser } from './errors/errors.ts';
import { installBuiltApp } from './http/builtApp.ts';
import {
  installOriginGuard,
  installSocketAuth,
  OriginGuard,
  socketAllowRequest,
  type UserToken,
} from './http/originGuard.ts';
import { trackRequestActivity } from './http/requestActivity.ts';
import { installSecurityHeaders } from './http/securityHeaders.ts';
import type { GraphStore } from './ports/graphStore.ts';
import { componentsPlugin } from './plugins/components.plugin.ts';
import { loadPlugins, type PluginLoadResult } from './plugins/loadPlugins.ts';
import { assertRunnable } from './runs/assertRunnable.ts';
import { RunManager } from './runs/runManager.ts';
import { runsPlugin } from './runs/runs.plugin.ts';
import { allNodes } from './services/serviceEvents.ts';
import { ServiceManager } from './services/serviceManager.ts';
import { serviceOutputSink } from './services/serviceOutput.ts';
import { serviceAwareCreateRun } from './services/serviceRun.ts';
import { servicesPlugin } from './services/services.plugin.ts';
import { ServiceSnapshots } from './services/serviceSnapshots.ts';
import { loadServicesConfig } from './services/servicesConfig.ts';
import { LiveHub, type HubOptions } from './socket/liveHub.ts';
import { Presence } from './socket/presence.ts';
import { GraphFiles } from './workspace/graphFiles.ts';
import { ViewSettingsStore } from './workspace/viewSettings.ts';
import { workspacePlugin } from './workspace/workspace.plugin.ts';

export interface ServerOptions {
  workspace: string;
  host?: string;
  port?: number;
  /** Max request body in bytes (default 10 MB). */
  bodyLimit?: number;
  /**
   * The largest value (its JSON, shared parts repeated) a bundle may import and a read may hand out
   * (default 64 MB: db/valueLimits.ts).
   */
  maxValueBytes?: number;
  /** Episode processes of every batch together (`--max-workers`; default one per core). */
  maxWorkers?: number;
  /** The built app; default `<cwd>/dist`. */
  distDir?: string;
  logger?: boolean;
  /** Socket backpressure tuning (tests and benches). */
  hub?: HubOptions;
  /** The live protocol version sent in `hello`; tests only (an editor must refuse another one). */
  liveProtocol?: number;
  /** `--service NAME=URL` entries (added to, and winning over, workspace/services.json). */
  services?: string[];
  /** A services file other than `<workspace>/services.json`. */
  servicesFile?: string;
  /** Extra Host names to answer to (`--allowed-host`): `name` (any port) or `name:port`. */
  allowedHosts?: string[];
  /** Required bearer token (`--token`); a non-loopback bind without one gets a random token. */
  token?: string;
  /** `--user-token NAME=TOKEN`: more tokens, each naming whoever holds it (http/originGuard.ts). */
  userTokens?: UserToken[];
  /** `--user NAME`: the name others see for a socket that holds no labelled token (socket/presence.ts). */
  user?: string;
  /** Distributed mode (Redis + PostgreSQL); default: from the environment (config.ts); null: embedded. */
  distributed?: DistributedConfig | null;
}

export interface StatewireServer {
  app: FastifyInstance;
  io: SocketServer;
  /** Where batches and remote runs live when distributed mode is on (URLs with passwords redacted). */
  distributed?: { redis: string; postgres: string };
  /** Where the graphs live: the graphs folder's absolute path, or the PostgreSQL store's location. */
  graphs: string;
  /** Starts listening; resolves with the bound port, URL and the token in force (if any). */
  /** `executorUrl`: where node services call back (loopback, this port). */
  listen(): Promise<{ port: number; url: string; token?: string; executorUrl: string }>;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 5177;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;

export async function createServer(opts: ServerOptions): Promise<StatewireServer> {
  const workspace = resolve(opts.workspace);
  const host = opts.host ?? DEFAULT_HOST;
  const port = opts.port ?? DEFAULT_PORT;
  const distDir = resolve(opts.distDir ?? 'dist');
  mkdirSync(join(workspace, 'graphs'), { recursive: true });
  mkdirSync(join(workspace, '.statewire'), { recursive: true });

  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const app = Fastify({
    bodyLimit,
    logger: opts.logger ?? false,
    forceCloseConnections: true,
    ...frameworkErrorOptions,
  });
  installErrorHandling(app);
  installJsonParser(app, bodyLimit);
  // Host/Origin/content-type/token rules for REST and socket.io handshakes (http/originGuard.ts).
  const guard = new OriginGuard({
    allowedHosts: opts.allowedHosts,
    token: opts.token,
    userTokens: opts.userTokens,
  });
  installSecurityHeaders(app);
  installOriginGuard(app, guard);
  const io = new SocketServer(app.server, {
    serveClient: false,
    maxHttpBufferSize: 1e6,
    allowRequest: socketAllowRequest(guard),
  });
  installSocketAuth(io, guard);
  // First message of every connection: the live protocol's version (domain/protocol/liveVersion.ts).
  const helloMsg = hello(opts.liveProtocol);
  io.on('connection', (socket) => socket.emit('hello', helloMsg));
  // Who else has a graph or run open (across instances once distributed mode installs its adapter).
  const presence = new Presence(io, { user: opts.user });

  const db = openDatabase(join(workspace, '.statewire', 'runs.db'));
  const maxValueBytes = opts.maxValueBytes ?? DEFAULT_MAX_VALUE_MB * MB;
  const store = new RunStore(db, { maxValueBytes });
  // Compaction is idle-time work: it waits while requests are being answered (and, see RunManager,
  // while a run is driven flat out).
  store.compaction.yieldWhile(trackRequestActivity(app).busy);
  const registry = createRegistry();
  const plugins: PluginLoadResult = await loadPlugins(join(workspace, 'nodes'), registry);
  for (const f of plugins.failed) console.error(`statewire: plugin ${f.file} not loaded: ${f.error}`);
  // Node services add (and on reload replace) types, so the catalog is re-read when they change.
  let catalog: Catalog = registry.catalog();
  // The workspace's services.json, plus --services FILE on top (its entries win), plus --service flags:
  // on start and on every "Reload services".
  const loadServices = () => loadServicesConfig(workspace, opts.services ?? [], opts.servicesFile, true);
  const servicesConfig = loadServices();
  for (const e of servicesConfig.errors) console.error(`statewire: services ${e.path}: ${e.message}`);
  let executorUrl: string | undefined;
  const services = new ServiceManager(registry, servicesConfig.entries, servicesConfig.errors, {
    executorUrl: () => executorUrl,
    onChange: (report) => {
      const before = catalog;
      catalog = registry.catalog();
      ref.hub?.notice('services_changed', report);
      if (before.size !== catalog.size || [...catalog.keys()].some((k) => before.get(k) !== catalog.get(k)))
        ref.hub?.notice('components_changed', { reloaded: report.services.map((s) => s.name) });
    },
    onLine: serviceOutputSink(
      () => (ref.runs?.currentRun?.active ? ref.runs.currentRun : undefined),
      (line) => console.log(line),
    ),
    // Pushed events go to the current run (the only one this server drives), whatever its state.
    findRun: (executionId) => {
      const run = ref.runs?.currentRun;
      if (!run?.active || (executionId !== null && run.id !== executionId)) return undefined;
      return { runId: run.id, step: () => run.step, emit: (e) => run.emit('error_event', e) };
    },
    inUse: () => io.engine.clientsCount > 0 || ref.runs?.currentRun?.active === true,
  });
  // The hub asks the manager for the current run; the manager publishes through the hub.
  const ref: { runs?: RunManager; hub?: LiveHub } = {};
  const hub = new LiveHub(io, store, () => ref.runs?.currentRun?.id, opts.hub);
  ref.hub = hub;
  // Runs see node services: a graph needing a service that is not up is refused before it starts
  // (RunManager turns the throw into a 400 naming the nodes), and its events carry array summaries.
  const createServiceAwareRun = serviceAwareCreateRun(services, (m) => console.error(`statewire: ${m}`));
  const runs = new RunManager(store, hub, createServiceAwareRun, { registry }, (g) =>
    assertRunnable(g, catalog, '$.graph'),
  );
  ref.runs = runs;
  // Time travel includes the services' state: their snapshots go with each step's checkpoint.
  runs.serviceState = new ServiceSnapshots(services, new ServiceSnapshotStore(db, store.blobs));
  // A fork reuses its parent's recorded calls up to the first step that differs, which the same
  // offline replay as its preview finds (docs/replay.md "Re-run without paying twice").
  runs.forkPlanner = forkPlanner(store, join(workspace, 'nodes'));
  // Distributed mode: batches on BullMQ + PostgreSQL, viewers on any instance (distributedMode.ts).
  const distributed = await installDistributed({ io, hub, store, workspace, config: opts.distributed });
  // The graphs: the workspace's folder, or in distributed mode PostgreSQL, shared by every instance
  // (its watch hears every instance's writes through LISTEN/NOTIFY).
  const files: GraphStore = distributed?.graphs ?? new GraphFiles(join(workspace, 'graphs'));
  const graphsWatch = files.watch(() => hub.notice('graphs_changed', {}));
  await graphsWatch.ready;
  // Batches: episodes run in child processes; their events are written here (the one owner of the
  // database) and published through the hub like any run's, so `/?run=<episode run>` follows live.
  const runLog = new SqliteRunLog(store);
  const batches = new BatchManager({
    log: runLog,
    executor: new EmbeddedPool({
      log: runLog,
      pluginDir: join(workspace, 'nodes'),
      onEvents: (events) => hub.publish(events),
      // Episodes call node services from their child: shared processes are this server's.
      services: () => entriesForEpisodeWorkers(services.configured, services.report()),
      maxWorkers: opts.maxWorkers,
    }),
    onProgress: (batchId, progress) => hub.notice('batch_progress', { batch_id: batchId, ...progress }),
    ...distributed?.batches,
  });
  // Distributed: a batch whose owner instance died is taken over here (its lease expired).
  distributed?.leases.takeOver((batchId) => batches.adopt(batchId));
  // One owner of the SQLite file: a batch it says is running was left by a server that died.
  if (!distributed)
    for (const id of await batches.endOrphans())
      console.error(`statewire: batch ${id} was left running by a stopped server: marked error`);

  // REST: one plugin per feature folder, each an encapsulated context that inherits the root's
  // rules installed above (security headers, origin guard, error shape, JSON parser, body limit).
  // Distributed mode's fallback comes first: its hook answers in front of the runs plugin's routes.
  const currentCatalog = () => catalog;
  if (distributed)
    await app.register(remoteRunsPlugin, { store, log: distributed.log, copies: distributed.copies });
  await app.register(workspacePlugin, {
    files,
    views: new ViewSettingsStore(workspace),
    catalog: currentCatalog,
    onGraphsChanged: () => graphsWatch.poke(),
  });
  await app.register(componentsPlugin, { catalog: currentCatalog, plugins });
  await app.register(runsPlugin, {
    runs,
    store,
    catalog: currentCatalog,
    bodyLimit,
    // A run whose graph needs a service that is still starting waits for it (services_waiting notice).
    beforeRun: (graph) =>
      services.waitForStarting(allNodes(graph), (names) => {
        console.error(`statewire: run of '${graph.name}' waits for service ${names.join(', ')} (starting)`);
        hub.notice('services_waiting', { graph_name: graph.name, services: names });
      }),
  });
  await app.register(servicesPlugin, { services, reloadConfig: loadServices });
  await app.register(batchPlugin, { batches, log: distributed?.log ?? runLog, catalog: currentCatalog });
  await app.register(replayPlugin, { store, pluginDir: join(workspace, 'nodes') });
  // Per dependency, each probed within 2 s; 503 when one is down (what a load balancer acts on).
  app.get('/api/health', async (_req, reply) => {
    const [sqlite, remote] = await Promise.all([
      probe(async () => void db.prepare('SELECT 1').get()),
      distributed?.checks(),
    ]);
    const report = healthReport(distributed ? 'distributed' : 'embedded', { sqlite, ...remote });
    return reply.code(report.ok ? 200 : 503).send(report);
  });
  await installBuiltApp(app, distDir);

  let closed = false;
  return {
    app,
    io,
    graphs: files.location,
    ...(distributed
      ? {
          distributed: {
            redis: redactUrl(distributed.config.redisUrl),
            postgres: redactUrl(distributed.config.databaseUrl),
          },
        }
      : {}),
    async listen() {
      // The guard learns the port (`--port 0`) on 'listening', which fires before any connection
      // is accepted: no request is ever served without the Host and token rules.
      let token: string | undefined;
      const onListening = () => {
        const a = app.server.address();
        if (typeof a === 'object' && a) token = guard.bind(a.address, a.port, host);
      };
      app.server.once('listening', onListening);
      try {
        await app.listen({ host, port });
      } finally {
        app.server.off('listening', onListening);
      }
      const addr = app.server.address();
      const bound = typeof addr === 'object' && addr ? addr.port : port;
      // Services call back on loopback whatever the bound address (internal routes are loopback-only).
      executorUrl = `http://127.0.0.1:${bound}`;
      void services.start();
      return {
        port: bound,
        token,
        url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        executorUrl,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      graphsWatch.close();
      presence.close();
      // Episodes in flight stop between two steps (interrupted, resumable) while the database is
      // open; distributed batches are handed over to another instance instead (batchLease.ts).
      await batches
        .close()
        .catch((err: unknown) => console.error(`statewire: batches: ${(err as Error).message}`));
      await distributed?.close();
      await services.close();
      try {
        await runs.shutdown();
      } finally {
        io.close();
        await app.close();
        closeDatabase(db);
      }
    },
  };
}
