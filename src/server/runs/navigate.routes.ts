// Run control at /api/navigate (docs/reference-system.md §4.4, 4.5) plus what the reference lacks: resume,
// single step, a restore that leaves the run paused and resumable, and a live step-delay change.
// Part of the runs plugin (runs.plugin.ts), which registers these routes in its context.
import type { FastifyInstance } from 'fastify';
import {
  EmptyBodySchema,
  RunStartBodySchema,
  BreakpointsBodySchema,
  RunStartQuerySchema,
  StepDelayBodySchema,
  StepParamSchema,
} from '../../domain/protocol/protocol.rest.ts';
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { RunManager } from './runManager.ts';
import { decodeGraph, describeErrors } from '../workspace/graphCodec.ts';
import { assertRunnable } from './assertRunnable.ts';
import { ApiError, parseOr400 } from '../errors/errors.ts';

export function registerNavigateRoutes(
  app: FastifyInstance,
  runs: RunManager,
  catalog: () => Catalog,
  /** Waits for what the graph needs before it is checked (node services still starting). */
  beforeRun: (graph: GraphDef) => Promise<void> = async () => undefined,
): void {
  const empty = (body: unknown) => parseOr400(EmptyBodySchema, body, 'body');

  app.post('/api/navigate/run', async (req) => {
    const q = parseOr400(RunStartQuerySchema, req.query, 'query');
    const body = parseOr400(RunStartBodySchema, req.body, 'body');
    if (body.loop_definition === undefined)
      throw new ApiError(400, 'invalid-body', 'loop_definition is required', '$.loop_definition');
    const r = decodeGraph(body.loop_definition);
    if (!r.ok)
      throw new ApiError(
        400,
        'invalid-graph',
        `Invalid graph definition: ${describeErrors(r.errors)}`,
        r.errors[0]?.path.replace(/^\$/, '$.loop_definition'),
      );
    await beforeRun(r.graph);
    assertRunnable(r.graph, catalog(), '$.loop_definition');
    const started = await runs.start(
      {
        graph: r.graph,
        runId: body.execution_id,
        stepDelayMs: body.step_delay_ms,
        paused: body.paused,
        freshEffects: body.fresh_effects,
        breakpoints: body.breakpoints,
      },
      q.queue,
    );
    return { ok: true, execution_id: started.runId, queued: started.queued };
  });

  app.put('/api/navigate/run/breakpoints', async (req) => {
    const body = parseOr400(BreakpointsBodySchema, req.body, 'body');
    return runs.setBreakpoints(body.breakpoints);
  });

  app.post('/api/navigate/run/pause', async (req) => {
    empty(req.body);
    runs.pause();
    return { ok: true };
  });
  app.post('/api/navigate/run/resume', async (req) => {
    empty(req.body);
    return runs.resume();
  });
  app.post('/api/navigate/run/step', async (req) => {
    empty(req.body);
    return runs.step();
  });
  app.post('/api/navigate/run/stop', async (req) => {
    empty(req.body);
    await runs.stop();
    return { ok: true };
  });
  app.post('/api/navigate/run/delay', async (req) => {
    runs.setStepDelay(parseOr400(StepDelayBodySchema, req.body, 'body').step_delay_ms);
    return { ok: true };
  });
  app.get('/api/navigate/run/status', async () => runs.status());
  app.get('/api/navigate/execution-mode', async () => {
    const s = runs.status();
    const busy = s.status === 'running' || s.status === 'paused';
    return { mode: busy ? 'canvas' : 'idle', holder: busy ? s.execution_id : null };
  });
  app.get('/api/navigate/run/checkpoints', async () => ({ steps: runs.checkpointSteps() }));
  app.post('/api/navigate/run/restore/:step', async (req) => {
    const { step } = parseOr400(StepParamSchema, req.params, 'params');
    empty(req.body);
    return { ok: true, restored_to: await runs.restore(step) };
  });
}
