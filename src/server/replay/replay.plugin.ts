// `POST /api/runs/{id}/replay` {verify?, graph?} → the replay's verdict (replay.ts): the run
// re-executed in this process from its recorded calls, no service or LLM called (the editor's Runs →
// Replay and verify). One replay at a time per server (409 while one runs): a replay takes the CPU a
// run of the same length would. `POST /api/runs/{id}/fork/preview` (the fork's body) answers what a
// fork would reuse from the recording and where its live calls start (forkPreview.ts), by the same
// offline replay, so it shares the one-at-a-time rule. A fastify plugin, registered once from app.ts.
import type { FastifyPluginAsync } from 'fastify';
import { ForkBodySchema, RunIdParamSchema } from '../../domain/protocol/protocol.rest.ts';
import { ReplayBodySchema } from '../../domain/protocol/replay.schema.ts';
import type { RunStore } from '../db/runStore.ts';
import { ApiError, conflict, parseOr400 } from '../errors/errors.ts';
import type { NodeRegistry } from '../../engine/registry.ts';
import { loadRegistry } from '../plugins/loadRegistry.ts';
import { previewFork } from './forkPreview.ts';
import { replayRun, ReplayError } from './replay.ts';

export interface ReplayRoutesOptions {
  store: RunStore;
  /** The workspace's plugin folder (a replay runs the plugin nodes as they are now). */
  pluginDir: string;
}

export const replayPlugin: FastifyPluginAsync<ReplayRoutesOptions> = async (app, { store, pluginDir }) => {
  let running = false;
  /** Runs `fn` with a registry of its own (the recorded service types go in, never the live ones). */
  const offline = async <T>(fn: (registry: NodeRegistry) => Promise<T>): Promise<T> => {
    if (running)
      throw conflict('a replay is already running on this server; try again when it ends', 'replay-busy');
    running = true;
    try {
      const loaded = await loadRegistry(pluginDir, false);
      if (typeof loaded === 'string') throw new ApiError(500, 'plugins-failed', loaded);
      return await fn(loaded.registry);
    } catch (e) {
      if (e instanceof ReplayError) throw new ApiError(e.status, e.code, e.message);
      throw e;
    } finally {
      running = false;
    }
  };

  app.post('/api/runs/:id/replay', async (req) => {
    const { id } = parseOr400(RunIdParamSchema, req.params, 'params');
    const body = parseOr400(ReplayBodySchema, req.body ?? {}, 'body');
    return offline((registry) => replayRun(store, id, { registry, graph: body.graph, verify: body.verify }));
  });

  app.post('/api/runs/:id/fork/preview', async (req) => {
    const { id } = parseOr400(RunIdParamSchema, req.params, 'params');
    const body = parseOr400(ForkBodySchema, req.body, 'body');
    return offline((registry) => previewFork(store, id, { step: body.step, graph: body.graph, registry }));
  });
};
