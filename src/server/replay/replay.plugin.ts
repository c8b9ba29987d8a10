// `POST /api/runs/{id}/replay` {verify?, graph?} → the replay's verdict (replay.ts): the run
// re-executed in this process from its recorded calls, no service or LLM called (the editor's Runs →
// Replay and verify). One replay at a time per server (409 while one runs): a replay takes the CPU a
// run of the same length would. A fastify plugin, registered once from app.ts.
import type { FastifyPluginAsync } from 'fastify';
import { RunIdParamSchema } from '../../domain/protocol/protocol.rest.ts';
import { ReplayBodySchema } from '../../domain/protocol/replay.schema.ts';
import type { RunStore } from '../db/runStore.ts';
import { ApiError, conflict, parseOr400 } from '../errors/errors.ts';
import { loadRegistry } from '../plugins/loadRegistry.ts';
import { replayRun, ReplayError } from './replay.ts';

export interface ReplayRoutesOptions {
  store: RunStore;
  /** The workspace's plugin folder (a replay runs the plugin nodes as they are now). */
  pluginDir: string;
}

export const replayPlugin: FastifyPluginAsync<ReplayRoutesOptions> = async (app, { store, pluginDir }) => {
  let running = false;
  app.post('/api/runs/:id/replay', async (req) => {
    const { id } = parseOr400(RunIdParamSchema, req.params, 'params');
    const body = parseOr400(ReplayBodySchema, req.body ?? {}, 'body');
    if (running)
      throw conflict('a replay is already running on this server; try again when it ends', 'replay-busy');
    running = true;
    try {
      // A registry of its own: the recorded service types go in, never the live services'.
      const loaded = await loadRegistry(pluginDir, false);
      if (typeof loaded === 'string') throw new ApiError(500, 'plugins-failed', loaded);
      return await replayRun(store, id, {
        registry: loaded.registry,
        graph: body.graph,
        verify: body.verify,
      });
    } catch (e) {
      if (e instanceof ReplayError) throw new ApiError(e.status, e.code, e.message);
      throw e;
    } finally {
      running = false;
    }
  });
};
