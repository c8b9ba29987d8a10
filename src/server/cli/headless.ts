// Running a graph headless, in-process, the way `statewire run` does: built-ins + the workspace's
// plugins (`--plugins DIR`, else the nodes/ folder next to the graph's folder), the deterministic
// offline LLM provider, and root steps driven one at a time up to an optional limit. Node services
// are started by the commands (cli/cliServices.ts); a run given them calls them as a served run does.
import { dirname, join, resolve } from 'node:path';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { EngineEvent } from '../../domain/protocol/protocol.ts';
import { validate } from '../../domain/validate/graph.validate.ts';
import type { Issue } from '../../domain/validate/issues.ts';
import { createRun, type EngineRunExt } from '../../engine/createRun.ts';
import { offlineProvider } from '../../engine/llm.providers.ts';
import type { NodeRegistry } from '../../engine/registry.ts';
import type { ServiceManager } from '../services/serviceManager.ts';
import { serviceAwareCreateRun } from '../services/serviceRun.ts';

/** The plugin folder `statewire run` uses for a graph file. */
export const defaultPluginDir = (graphFile: string) => join(dirname(resolve(graphFile)), '..', 'nodes');

/** Load-time errors (parse warnings of severity error) and validation errors against the registry. */
export function runBlockers(
  graph: GraphDef,
  parseWarnings: readonly Issue[],
  registry: NodeRegistry,
): Issue[] {
  return [...parseWarnings, ...validate(graph, registry.catalog())].filter((i) => i.severity === 'error');
}

export function createHeadlessRun(
  graph: GraphDef,
  registry: NodeRegistry,
  sink: (e: EngineEvent) => void,
  runId = `cli_${Date.now().toString(36)}`,
  services?: ServiceManager,
): EngineRunExt {
  const create = services ? serviceAwareCreateRun(services, () => undefined) : createRun;
  // Checkpoints are not needed headless: keep only the latest.
  return create(graph, { runId, now: Date.now, registry, llm: offlineProvider, retention: 1 }, sink);
}

/**
 * Steps until the run ends or `limit` root steps are done; a run cut short is stopped (as
 * `statewire run --steps N`). Returns whether the run ended by itself.
 */
export async function driveSteps(run: EngineRunExt, limit?: number): Promise<boolean> {
  let done = false;
  for (let i = 0; !done && (limit === undefined || i < limit); i++) done = (await run.stepOnce()).done;
  if (!done) {
    run.stop();
    await run.stepOnce();
  }
  return done;
}
