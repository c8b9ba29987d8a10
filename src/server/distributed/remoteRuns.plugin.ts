// REST of distributed mode, where PostgreSQL is the record of every run (episodes written by the
// workers, every instance's own runs forwarded by runForwarder.ts):
//  - `GET /api/runs` lists PostgreSQL's runs: every instance's runs and every batch's episodes;
//  - the run routes of a run this server did not execute (another instance's, a worker's episode)
//    answer from PostgreSQL: its record, events, state at any step, writers, graph, checkpoints and
//    its bundle (`…/bundle`);
//  - forking such a run first copies it into this server's store (remoteCopies.ts), then the runs
//    plugin's route forks it here as any local run; restoring it is refused (409 `remote-run`): a
//    run has one writer, the instance that executed it — fork it to continue here.
//
// A fastify plugin that app.ts registers before the runs plugin, and the one plugin here that is not
// encapsulated: it answers in front of routes another plugin owns (runs/runs.plugin.ts), so its hook
// must sit on the root. fastify's documented `skip-override` property does that (what the
// fastify-plugin package sets, without adding it as a dependency).
import type { FastifyPluginAsync } from 'fastify';
import type { ContainerDef } from '../../domain/graph/graph.schema.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import {
  EventsQuerySchema,
  RunIdParamSchema,
  RunListQuerySchema,
  StateQuerySchema,
} from '../../domain/protocol/protocol.rest.ts';
import type { PgRunLog } from '../db/pgRunLog.ts';
import { listedRuns } from '../db/runList.ts';
import type { RunLog, StoredRun } from '../db/runLog.ts';
import type { RunStore } from '../db/runStore.ts';
import { conflict, notFound, parseOr400 } from '../errors/errors.ts';
import { sendBundle } from '../runs/bundle.routes.ts';
import { pgSource, type RemoteCopies } from './remoteCopies.ts';
import { reduceState, type RunStateView } from '../runs/stateAt.ts';
import { foldWriters, writersUpTo } from '../runs/writers.ts';

/** Every event of a run, page by page (fine for batch episodes, which are small runs). */
export async function wholeLog(log: RunLog, runId: string): Promise<EventEnvelope[]> {
  const out: EventEnvelope[] = [];
  for (;;) {
    const page = await log.events(runId, out[out.length - 1]?.seq ?? 0, 2000);
    out.push(...page);
    if (page.length < 2000) return out;
  }
}

const stepOf = (e: EventEnvelope): number =>
  typeof (e.data as { step?: unknown } | null)?.step === 'number' ? (e.data as { step: number }).step : -1;
const isSnapshot = (e: EventEnvelope) => e.type === 'nav_step' || e.type === 'restored';

/**
 * State at a step from the PostgreSQL log, chosen as the SQLite store chooses (RunStore.stateEvents):
 * the snapshot of step N (a nav_step before a restored, the later one first), else the newest earlier
 * snapshot plus the state_written/signal events of the steps after it up to N.
 */
async function remoteStateAt(log: RunLog, row: StoredRun, step: number): Promise<RunStateView> {
  const events = await wholeLog(log, row.id);
  const snapshots = events.filter(isSnapshot);
  const maxStep = Math.max(-1, ...snapshots.map(stepOf));
  if (step > maxStep)
    throw notFound(`run ${row.id} has no committed step ${step} (last: ${row.steps})`, 'no-state');
  const graph = (await log.graphOf(row.id)) as { containers?: ContainerDef[] } | undefined;
  const defs = graph?.containers ?? [];
  // `snapshots` is in seq order: the last of a kind is the newest.
  const atStep = snapshots.filter((e) => stepOf(e) === step);
  const exact = atStep.filter((e) => e.type === 'nav_step').pop() ?? atStep.pop();
  if (exact) return reduceState(exact, [], step, defs);
  let base: EventEnvelope | undefined;
  for (const e of snapshots) if (stepOf(e) < step && (!base || stepOf(e) >= stepOf(base))) base = e;
  const baseStep = base ? stepOf(base) : -1;
  const after = events.filter(
    (e) =>
      e.seq > (base?.seq ?? 0) &&
      stepOf(e) > baseStep &&
      stepOf(e) <= step &&
      (e.type === 'state_written' || e.type === 'signal'),
  );
  if (!base && after.length === 0)
    throw notFound(`run ${row.id} has no committed state at step ${step}`, 'no-state');
  return reduceState(base, after, step, defs);
}

const REMOTE_ROUTES = new Set([
  '/api/runs/:id',
  '/api/runs/:id/bundle',
  '/api/runs/:id/events',
  '/api/runs/:id/graph',
  '/api/runs/:id/state',
  '/api/runs/:id/writers',
  '/api/runs/:id/checkpoints',
]);

export interface RemoteRunsPluginOptions {
  /** This server's runs: they are answered by the runs plugin's routes as usual. */
  store: RunStore;
  /** The distributed run log (PostgreSQL) where the other runs are found. */
  log: PgRunLog;
  /** Other instances' runs copied here to be forked (their reads still go to PostgreSQL). */
  copies: RemoteCopies;
}

/**
 * Answers the run routes from the PostgreSQL log for runs this server's SQLite store does not
 * have (a preHandler: the Host/Origin/token rules have run; local runs go to the normal routes).
 */
export const remoteRunsPlugin: FastifyPluginAsync<RemoteRunsPluginOptions> = async (
  app,
  { store, log, copies },
) => {
  app.addHook('preHandler', async (req, reply) => {
    const route = req.routeOptions.url;
    if (route === undefined) return;
    if (req.method === 'GET' && route === '/api/runs') {
      const q = parseOr400(RunListQuerySchema, req.query, 'query');
      return reply.send(listedRuns(await log.listPage(q)));
    }
    const id = (req.params as { id?: unknown }).id;
    // This server's own runs are answered by the runs plugin's routes from its store.
    if (typeof id !== 'string' || (store.getRun(id) && !copies.has(id))) return;
    if (req.method === 'POST' && route === '/api/runs/:id/fork') {
      const { id: runId } = parseOr400(RunIdParamSchema, req.params, 'params');
      await copies.ensure(runId); // then the fork route forks the copy here (404 if nowhere)
      return;
    }
    if (req.method === 'POST' && route === '/api/runs/:id/restore' && !store.getRun(id)) {
      if (await log.getRun(id))
        throw conflict(
          `run ${id} was executed by another instance, which alone writes it: fork it to continue here`,
          'remote-run',
        );
      return;
    }
    if (req.method !== 'GET' || !REMOTE_ROUTES.has(route)) return;
    const { id: runId } = parseOr400(RunIdParamSchema, req.params, 'params');
    const row = await log.getRun(runId);
    if (!row) return; // the route answers its own 404
    if (route === '/api/runs/:id/bundle') return sendBundle(reply, row, pgSource(log, row.id));
    const body = await remoteAnswer(route, row, req.query, log);
    return reply.send(body);
  });
};
Object.assign(remoteRunsPlugin, { [Symbol.for('skip-override')]: true });

async function remoteAnswer(route: string, row: StoredRun, query: unknown, log: RunLog): Promise<unknown> {
  switch (route) {
    case '/api/runs/:id':
      return { ...row, checkpoints: await log.checkpointSteps(row.id), branches: [], branch_of: null };
    case '/api/runs/:id/events': {
      const q = parseOr400(EventsQuerySchema, query, 'query');
      const events = await log.events(row.id, q.after, q.limit, q.type);
      const last = events[events.length - 1];
      return {
        run_id: row.id,
        last_seq: (await log.getRun(row.id))?.last_seq ?? row.last_seq,
        next_after: last ? last.seq : q.after,
        events,
      };
    }
    case '/api/runs/:id/graph':
      return log.graphOf(row.id);
    case '/api/runs/:id/checkpoints':
      return { steps: await log.checkpointSteps(row.id) };
    case '/api/runs/:id/state': {
      const { step } = parseOr400(StateQuerySchema, query, 'query');
      return remoteStateAt(log, row, step);
    }
    case '/api/runs/:id/writers': {
      // Episodes are never forked, so the whole history is the run's own log.
      const { step } = parseOr400(StateQuerySchema, query, 'query');
      const history = foldWriters(await wholeLog(log, row.id), row.id);
      return { run_id: row.id, step, writers: writersUpTo(history, step) };
    }
    default:
      throw notFound(`no route GET ${route}`);
  }
}
