// Run history at /api/runs: list, one run, its events (paged by seq), its state at a step, the exact
// graph it ran, fork from a step, and restore (which also revives an interrupted run, paused).
// Part of the runs plugin (runs.plugin.ts), which registers these routes in its context.
import type { FastifyInstance } from 'fastify';
import {
  EventsQuerySchema,
  ForkBodySchema,
  RestoreBodySchema,
  RunIdParamSchema,
  RunListQuerySchema,
  StateQuerySchema,
} from '../../domain/protocol/protocol.rest.ts';
import type { RunStore } from '../db/runStore.ts';
import type { RunManager } from './runManager.ts';
import { notFound, parseOr400 } from '../errors/errors.ts';
import { listedRuns } from '../db/runList.ts';
import { writersAt } from './writers.ts';

export function registerRunRoutes(app: FastifyInstance, runs: RunManager, store: RunStore): void {
  const runOr404 = (params: unknown) => {
    const { id } = parseOr400(RunIdParamSchema, params, 'params');
    const row = store.getRun(id);
    if (!row) throw notFound(`no run ${JSON.stringify(id)}`);
    return row;
  };

  // A page of the run list, newest first (db/runList.ts): `limit`, `before` (a row's `cursor`), and
  // exact filters `graph`, `status`, `kind` (run, fork, branch, imported, episode) and `batch`. Each
  // row says its `kind`, its `batch` (for an episode of a batch stored here: `{id, episode,
  // episodes, status}`, else null) and its `cursor`. Distributed mode answers it from PostgreSQL
  // instead (distributed/remoteRuns.plugin.ts): every instance's runs.
  app.get('/api/runs', async (req) =>
    listedRuns(store.listPage(parseOr400(RunListQuerySchema, req.query, 'query'))),
  );

  app.get('/api/runs/:id', async (req) => {
    const row = runOr404(req.params);
    return {
      ...row,
      checkpoints: store.checkpointSteps(row.id),
      branches: store.branchesOf(row.id),
      branch_of: store.branchRecord(row.id) ?? null,
    };
  });

  // Deletes a run and its log (events, checkpoint rows; shared blobs stay). 409 `run-live` for the
  // current running/paused run.
  app.delete('/api/runs/:id', async (req) => {
    const row = runOr404(req.params);
    const r = await runs.deleteRun(row.id);
    return { ok: true, run_id: row.id, deleted_events: r.events, deleted_checkpoints: r.checkpoints };
  });

  app.get('/api/runs/:id/events', async (req) => {
    const row = runOr404(req.params);
    const q = parseOr400(EventsQuerySchema, req.query, 'query');
    // The page ends early when its values pass the value limit (next_after says where to go on).
    const events = store.events(row.id, q.after, q.limit, q.type, store.blobs.maxValueBytes);
    const last = events[events.length - 1];
    return {
      run_id: row.id,
      last_seq: store.getRun(row.id)?.last_seq ?? row.last_seq,
      next_after: last ? last.seq : q.after,
      events,
    };
  });

  app.get('/api/runs/:id/state', async (req) => {
    const row = runOr404(req.params);
    const { step } = parseOr400(StateQuerySchema, req.query, 'query');
    return runs.stateAt(row.id, step);
  });

  // Who last wrote each slot/key up to a step (the Compare view's "written by").
  app.get('/api/runs/:id/writers', async (req) => {
    const row = runOr404(req.params);
    const { step } = parseOr400(StateQuerySchema, req.query, 'query');
    return { run_id: row.id, step, writers: writersAt(store, row.id, step) };
  });

  app.get('/api/runs/:id/graph', async (req) => runs.graphOfRun(runOr404(req.params).id));

  app.get('/api/runs/:id/checkpoints', async (req) => ({
    steps: store.checkpointSteps(runOr404(req.params).id),
  }));

  app.post('/api/runs/:id/fork', async (req, reply) => {
    const row = runOr404(req.params);
    const b = parseOr400(ForkBodySchema, req.body, 'body');
    const r = await runs.fork(row.id, {
      step: b.step,
      graph: b.graph,
      freshEffects: b.fresh_effects,
      stepDelayMs: b.step_delay_ms,
      paused: b.paused,
    });
    return reply
      .status(201)
      .send({ ok: true, run_id: r.runId, execution_id: r.runId, parent_run_id: r.parent, step: r.step });
  });

  app.post('/api/runs/:id/restore', async (req) => {
    const row = runOr404(req.params);
    const { step } = parseOr400(RestoreBodySchema, req.body, 'body');
    return { ok: true, run_id: row.id, restored_to: await runs.adopt(row.id, step) };
  });
}
