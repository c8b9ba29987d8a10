// An episode child process of the embedded pool (forked by embeddedPool.ts with tsx's loader). It
// loads the same node registry as the parent (built-ins + the workspace's plugin folder), then runs
// the episodes the parent sends it one at a time with `runEpisode`. The run log is written by its
// writer thread (episodeWriter.ts: its own connection to the parent's SQLite file) while the engine
// steps here, or through the parent over IPC when the parent's log is no file (poolProtocol.ts).
// With node services it runs its own ServiceManager and executor endpoints (the services call back
// into this process's engine; episodeServices.ts says which processes it shares).
// It exits when the parent disconnects (or dies), so no child outlives its pool: its per-worker
// service processes are stopped first.
import { Worker } from 'node:worker_threads';
import { pageOut } from '../db/eventPages.ts';
import { IpcRunLog } from './ipcRunLog.ts';
import type { FromWriter, WriterData } from './episodeWriter.ts';
import type { FromChild, ToChild } from './poolProtocol.ts';
import { runEpisode } from './episodeRun.ts';
import { loadRegistry } from '../plugins/loadRegistry.ts';
import { createRegistry, type NodeRegistry } from '../../engine/registry.ts';
import type { EpisodeServices } from './episodeServices.ts';

const send = (m: FromChild) => process.send?.(m);
const WRITER = new URL('./episodeWriter.ts', import.meta.url).href;
/** tsx's API by absolute URL (the thread may start from any cwd), as bin/statewire.js uses it. */
const TSX_API = import.meta.resolve('tsx/esm/api');

let registry: NodeRegistry | undefined;
let worker = 'embedded';
let stepDelayMs = 0;
let stopRequested = false;
let services: EpisodeServices | undefined;
/** The log's calls go to the writer thread, or to the parent (its replies arrive as messages). */
let log = new IpcRunLog(send);

/**
 * Starts the writer thread on `file` (it loads while the registry does) and sends the log's calls
 * there. Settles once the database is open, with the error when it cannot be. A writer thread that
 * dies takes the child with it: the pool retries its episode on a new one, from the last commit.
 */
function startWriter(file: string): Promise<string | undefined> {
  // A worker thread does not inherit the process's loader hooks: it registers tsx's itself.
  const boot = `import(${JSON.stringify(TSX_API)}).then((m) => { m.register(); return import(${JSON.stringify(WRITER)}); })`;
  const thread = new Worker(boot, { eval: true, workerData: { file } satisfies WriterData });
  // Structured clone, not JSON: cheaper on both sides; the page is encoded here, off the writer.
  log = new IpcRunLog((m) => {
    if (m.t === 'call') thread.postMessage(m);
  }, pageOut);
  thread.on('error', (err) => {
    console.error(`episode writer thread failed: ${err.message}`);
    process.exit(1);
  });
  return new Promise((resolve) =>
    thread.on('message', (m: FromWriter) => {
      if (m.t === 'reply') log.settle(m);
      else if (m.t === 'committed') send(m);
      else if (m.t === 'open') resolve(undefined);
      else resolve(m.error);
    }),
  );
}

async function init(m: Extract<ToChild, { t: 'init' }>): Promise<void> {
  worker = m.worker;
  stepDelayMs = m.stepDelayMs;
  const writer = m.database === null ? undefined : startWriter(m.database);
  let failures: string[] = [];
  if (m.pluginDir === null) registry = createRegistry();
  else {
    const loaded = await loadRegistry(m.pluginDir, false).catch((e: unknown) =>
      e instanceof Error ? e.message : String(e),
    );
    if (typeof loaded === 'string') {
      send({ t: 'fatal', error: loaded });
      return;
    }
    registry = loaded.registry;
    failures = loaded.failures;
  }
  if (m.services.length > 0) {
    // Loaded only when needed: a child without services starts without the service stack.
    const { startEpisodeServices } = await import('./episodeServices.ts');
    services = await startEpisodeServices(registry, m.services, (line) => console.error(line));
    for (const s of services.report().services)
      if (s.state !== 'up') failures.push(`service ${s.name}: ${s.state}${s.error ? ` (${s.error})` : ''}`);
  }
  const unopened = await writer;
  if (unopened !== undefined) {
    send({ t: 'fatal', error: unopened });
    return;
  }
  send({ t: 'ready', failures });
}

async function run(m: Extract<ToChild, { t: 'job' }>): Promise<void> {
  stopRequested = false;
  try {
    const row = await runEpisode(m.job, {
      log,
      registry: registry ?? createRegistry(),
      ...(services ? { createRun: services.createRun } : {}),
      worker,
      stepDelayMs,
      shouldStop: () => stopRequested,
    });
    send({ t: 'row', row });
  } catch (err) {
    send({ t: 'failed', error: err instanceof Error ? err.message : String(err) });
  }
}

process.on('message', (m: ToChild) => {
  if (m.t === 'init') void init(m);
  else if (m.t === 'job') void run(m);
  else if (m.t === 'reply') log.settle(m);
  else if (m.t === 'stop') stopRequested = true;
});
process.on('disconnect', () => {
  const exit = () => process.exit(0);
  if (!services) return exit();
  // Bounded: a service that ignores its stop signal must not keep the child alive.
  setTimeout(exit, 5000).unref();
  services.close().then(exit, exit);
});
