// The server factory: one fastify instance serving the REST API, the built app (with SPA fallback)
// and socket.io on the same HTTP server. Everything stateful (database, run manager, live hub) is
// created here and torn down by `close()`, so tests can start and stop servers in-process.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { Server as SocketServer } from 'socket.io';
import type { Catalog } from '../domain/catalog/catalog.schema.ts';
import { createRegistry } from '../engine/registry.ts';
import { closeDatabase, openDatabase } from './db/database.ts';
import { RunStore } from './db/runStore.ts';
import { ServiceSnapshotStore } from './db/serviceSnapshotStore.ts';
import { DEFAULT_MAX_VALUE_MB, MB } from './db/valueLimits.ts';
import { SqliteRunLog } from './db/sqliteRunLog.ts';
import { BatchManager } from './batch/batchManager.ts';
import { EmbeddedPool } from './batch/embeddedPool.ts';
import { registerBatchRoutes } from './batch/batches.routes.ts';
import { evaluationRoutes } from './batch/evaluation.routes.ts';
import { replayRoutes } from './replay/replay.routes.ts';
import type { DistributedConfig } from './distributed/config.ts';
import { installDistributed } from './distributed/distributedMode.ts';
import { redactUrl } from './distributed/config.ts';
import { registerComponentRoutes } from './plugins/components.routes.ts';
import {
  ApiError,
  frameworkErrorOptions,
  installErrorHandling,
  installJsonParser,
  sendError,
} from './errors/errors.ts';
import { registerGraphRoutes } from './workspace/graphs.routes.ts';
import { registerViewRoutes } from './workspace/views.routes.ts';
import { ViewSettingsStore } from './workspace/viewSettings.ts';
import { assertRunnable, registerNavigateRoutes } from './runs/navigate.routes.ts';
import {
  installOriginGuard,
  installSocketAuth,
  OriginGuard,
  socketAllowRequest,
} from './http/originGuard.ts';
import { registerRunRoutes } from './runs/runs.routes.ts';
import { registerBundleRoutes } from './runs/bundle.routes.ts';
import { installSecurityHeaders } from './http/securityHeaders.ts';
import { registerValidateRoutes } from './workspace/validate.routes.ts';
import { RunManager } from './runs/runManager.ts';
import { trackRequestActivity } from './http/requestActivity.ts';
import { LiveHub, type HubOptions } from './socket/liveHub.ts';
import { hello } from '../domain/protocol/liveVersion.ts';
import { GraphFiles } from './workspace/graphFiles.ts';
import { watchGraphs } from './workspace/watchGraphs.ts';
import { loadPlugins, type PluginLoadResult } from './plugins/loadPlugins.ts';
import { registerServiceRoutes } from './services/services.routes.ts';
import { ServiceManager } from './services/serviceManager.ts';
import { loadServicesConfig } from './services/servicesConfig.ts';
import { serviceOutputSink } from './services/serviceOutput.ts';
import { serviceAwareCreateRun } from './services/serviceRun.ts';
import { ServiceSnapshots } from './services/serviceSnapshots.ts';
import { allNodes } from './services/serviceEvents.ts';
import { entriesForEpisodeWorkers } from './batch/episodeServices.ts';

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
  /** Distributed mode (Redis + PostgreSQL); default: from the environment (config.ts); null: embedded. */
  distributed?: DistributedConfig | null;
}

export interface StatewireServer {
  app: FastifyInstance;
  io: SocketServer;
  /** Where batches and remote runs live when distributed mode is on (URLs with passwords redacted). */
  distributed?: { redis: string; postgres: string };
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
  const guard = new OriginGuard({ allowedHosts: opts.allowedHosts, token: opts.token });
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
  // Distributed mode: batches on BullMQ + PostgreSQL, viewers on any instance (distributedMode.ts).
  const distributed = await installDistributed({ app, io, hub, store, workspace, config: opts.distributed });

  const files = new GraphFiles(join(workspace, 'graphs'));
  const graphsWatch = watchGraphs(files.root, () => hub.notice('graphs_changed', {}));
  registerGraphRoutes(app, files, () => graphsWatch.poke());
  registerComponentRoutes(app, () => catalog);
  registerValidateRoutes(app, () => catalog);
  // A run whose graph needs a service that is still starting waits for it (services_waiting notice).
  registerNavigateRoutes(
    app,
    runs,
    () => catalog,
    (graph) =>
      services.waitForStarting(allNodes(graph), (names) => {
        console.error(`statewire: run of '${graph.name}' waits for service ${names.join(', ')} (starting)`);
        hub.notice('services_waiting', { graph_name: graph.name, services: names });
      }),
  );
  registerRunRoutes(app, runs, store);
  registerBundleRoutes(app, store, runs, bodyLimit);
  app.get('/api/health', async () => (distributed ? distributed.health() : { ok: true }));
  app.get('/api/components/plugins', async () => plugins);
  registerServiceRoutes(app, services, loadServices);
  registerViewRoutes(app, new ViewSettingsStore(workspace));
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
  // One owner of the SQLite file: a batch it says is running was left by a server that died.
  if (!distributed)
    for (const id of await batches.endOrphans())
      console.error(`statewire: batch ${id} was left running by a stopped server: marked error`);
  registerBatchRoutes(app, batches, () => catalog);
  await app.register(evaluationRoutes, { log: distributed?.log ?? runLog });
  await app.register(replayRoutes, { store, pluginDir: join(workspace, 'nodes') });

  // The app may be (re)built while the server runs, so index.html is looked up per request.
  if (existsSync(distDir))
    await app.register(fastifyStatic, { root: distDir, wildcard: true, index: ['index.html'] });
  const hasDist = () => existsSync(join(distDir, 'index.html'));
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (req.method !== 'GET' || path.startsWith('/api/') || path === '/api' || path.startsWith('/socket.io'))
      return sendError(reply, new ApiError(404, 'not-found', `no route ${req.method} ${path}`));
    if (!hasDist() || !reply.sendFile)
      return reply
        .type('text/html')
        .send('<p>The app is not built. Run <code>npm run build</code> (or <code>npm start</code>).</p>');
    return reply.sendFile('index.html');
  });

  let closed = false;
  return {
    app,
    io,
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
      // Episodes in flight stop between two steps (interrupted, resumable) while the database is open.
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
