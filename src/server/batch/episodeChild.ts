// An episode child process of the embedded pool (forked by embeddedPool.ts with tsx's loader). It
// loads the same node registry as the parent (built-ins + the workspace's plugin folder), then runs
// the episodes the parent sends it one at a time with `runEpisode`, writing the run log through its
// own connection to the parent's SQLite file (episodeDbLog.ts), or through the parent over IPC when
// the parent's log is no file (poolProtocol.ts). With node services it runs its own ServiceManager and executor endpoints (the
// services call back into this process's engine; episodeServices.ts says which processes it shares).
// It exits when the parent disconnects (or dies), so no child outlives its pool: its per-worker
// service processes are stopped first.
import type { EpisodeLog } from '../db/runLog.ts';
import { EpisodeDbLog } from './episodeDbLog.ts';
import { IpcRunLog } from './ipcRunLog.ts';
import type { FromChild, ToChild } from './poolProtocol.ts';
import { runEpisode } from './episodeRun.ts';
import { loadRegistry } from '../plugins/loadRegistry.ts';
import { createRegistry, type NodeRegistry } from '../../engine/registry.ts';
import type { EpisodeServices } from './episodeServices.ts';

const send = (m: FromChild) => process.send?.(m);

let registry: NodeRegistry | undefined;
let worker = 'embedded';
let stepDelayMs = 0;
let stopRequested = false;
let services: EpisodeServices | undefined;
let log: EpisodeLog = new IpcRunLog(send);

async function init(m: Extract<ToChild, { t: 'init' }>): Promise<void> {
  worker = m.worker;
  stepDelayMs = m.stepDelayMs;
  if (m.database !== null) {
    const file = m.database;
    try {
      log = new EpisodeDbLog(file, (c) => send({ t: 'committed', ...c }));
    } catch (err) {
      send({ t: 'fatal', error: `episode worker: cannot open ${file}: ${(err as Error).message}` });
      return;
    }
  }
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
  else if (m.t === 'reply' && log instanceof IpcRunLog) log.settle(m);
  else if (m.t === 'stop') stopRequested = true;
});
process.on('disconnect', () => {
  const exit = () => process.exit(0);
  if (!services) return exit();
  // Bounded: a service that ignores its stop signal must not keep the child alive.
  setTimeout(exit, 5000).unref();
  services.close().then(exit, exit);
});
