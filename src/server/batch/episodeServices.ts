// Node services for batch episode workers. A worker (an embedded pool child, or a `statewire worker`
// process) runs episodes with its own engine, so the services it calls must call back into THAT
// process: each worker has its own ServiceManager and executor endpoints. Which processes it talks to:
// - `url` entries: the same running service for everyone;
// - `command` entries: by default one shared process — the one the parent (server or `statewire
//   batch`) already started, reached by its URL; with `per_worker: true` each worker starts its own,
//   for services that keep per-process state (a simulator, a model on a GPU) that parallel episodes
//   must not share.
import type { NodeRegistry } from '../../engine/registry.ts';
import type { createRun } from '../../engine/createRun.ts';
import type { ServicesReport } from '../../domain/services/manifest.ts';
import { ServiceManager } from '../services/serviceManager.ts';
import { serviceAwareCreateRun } from '../services/serviceRun.ts';
import type { ServiceEntry } from '../services/servicesConfig.ts';

/**
 * The entries a worker starts with, given the parent's configuration and what the parent runs: a
 * shared command service becomes a `url` entry pointing at the parent's process; one that is not up
 * in the parent is left out, so an episode needing it fails naming the service (not a second start).
 */
export function entriesForEpisodeWorkers(
  entries: readonly ServiceEntry[],
  parent: ServicesReport | undefined,
): ServiceEntry[] {
  const out: ServiceEntry[] = [];
  for (const e of entries) {
    if (e.kind === 'url' || e.per_worker) {
      out.push(e);
      continue;
    }
    const running = parent?.services.find((s) => s.name === e.name && s.state === 'up' && s.url);
    if (running?.url)
      out.push({
        kind: 'url',
        name: e.name,
        url: running.url,
        encoding: e.encoding,
        timeout_s: e.timeout_s,
        max_response_mb: e.max_response_mb,
      });
  }
  return out;
}

export interface EpisodeServices {
  /** createRun with the services (or the plain one when there are none). */
  createRun: typeof createRun;
  report(): ServicesReport;
  close(): Promise<void>;
}

/** Starts a worker's services on its registry (types `name__fn` are registered there); never rejects. */
export async function startEpisodeServices(
  registry: NodeRegistry,
  entries: ServiceEntry[],
  onLine: (line: string) => void,
): Promise<EpisodeServices> {
  const endpoints: { url?: string; close?: () => Promise<void> } = {};
  const services = new ServiceManager(registry, entries, [], {
    executorUrl: () => endpoints.url,
    onLine: (name, stream, line) =>
      onLine(`[service ${name}${stream === 'stderr' ? ' stderr' : ''}] ${line}`),
  });
  if (entries.length > 0) {
    // Imported here: the endpoints' HTTP server (fastify, ~400 ms to import) is loaded only by a
    // worker that has services to call back into it.
    const { startExecutorEndpoints } = await import('../services/executorEndpoints.ts');
    Object.assign(endpoints, await startExecutorEndpoints(services));
  }
  await services.start();
  return {
    createRun: serviceAwareCreateRun(services, (m) => onLine(`warning: ${m}`)),
    report: () => services.report(),
    close: async () => {
      await services.close();
      await endpoints.close?.();
    },
  };
}
