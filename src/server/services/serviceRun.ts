// `createRun` as a host with node services calls it: a graph needing a service that is not up is
// refused before it starts (the caller turns the throw into an error naming the nodes), the engine's
// events go through the services' sink wrapper (arrays as summaries with pictures, service container
// previews, episode evictions), and the run's result comes out in wire form. Shared by the server's
// run manager and the batch episode workers, so an episode sees services exactly as a run does.
import { createRun } from '../../engine/createRun.ts';
import { allNodes, usesServices, withWireResult, wrapSinkForServices } from './serviceEvents.ts';
import type { ServiceManager } from './serviceManager.ts';

export function serviceAwareCreateRun(
  services: ServiceManager,
  warn: (message: string) => void,
): typeof createRun {
  return (graph, opts, sink) => {
    const missing = services.unavailable(allNodes(graph));
    if (missing) throw new Error(missing);
    const run = createRun(graph, opts, wrapSinkForServices(sink, graph, services, opts.runId, warn));
    return usesServices(graph, services) ? withWireResult(run, services, opts.runId) : run;
  };
}
