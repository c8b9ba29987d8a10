// Evaluation over stored batches, for the REST routes (evaluation.routes.ts) and the CLI (`statewire
// compare`, `statewire query`): compare two batches episode by episode, query every step of every
// episode of a batch, and find the first step where two runs' states part. Everything is read from
// a `RunLog` — SQLite or PostgreSQL alike — and nothing is run again. The logic is pure and lives in
// the domain (batch/compare.ts, batch/query.ts, debug/firstDiff.ts); this file only loads.
import type { BatchRecord, EpisodeRow } from '../../domain/batch/batch.types.ts';
import {
  compareBatches,
  CompareError,
  type BatchComparison,
  type CompareOptions,
} from '../../domain/batch/compare.ts';
import { queryRows, type QueryRow } from '../../domain/batch/evaluationCsv.ts';
import {
  describeQuery,
  evaluateEpisode,
  parseQuery,
  queryPlan,
  queryProblem,
  type BatchQuery,
} from '../../domain/batch/query.ts';
import { firstDifference, type StepState } from '../../domain/debug/firstDiff.ts';
import type { BatchQueryResult, FirstDifferenceResult } from '../../domain/batch/evaluation.schema.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { ContainerSnapshot } from '../../domain/protocol/protocol.ts';
import type { RunLog } from '../db/runLog.ts';
import { badRequest, notFound } from '../errors/errors.ts';
import { decodeGraph } from '../workspace/graphCodec.ts';

/** Episodes whose logs are read together (bounds what one query holds in memory). */
const EPISODES_PER_READ = 200;

export interface StoredBatch {
  record: BatchRecord;
  rows: EpisodeRow[];
  graph: GraphDef | undefined;
}

export async function loadBatch(log: RunLog, id: string): Promise<StoredBatch> {
  const record = await log.getBatch(id);
  if (!record) throw notFound(`no batch ${JSON.stringify(id)}`, 'no-batch');
  const decoded = decodeGraph(record.graph);
  return { record, rows: await log.episodes(id), graph: decoded.ok ? decoded.graph : undefined };
}

const withoutGraph = ({ graph: _graph, ...rest }: BatchRecord) => rest;

/** Batch `a` (the baseline) against batch `b`; a metric neither shares is a 400 naming the shared ones. */
export async function compareStoredBatches(
  log: RunLog,
  a: string,
  b: string,
  opts: CompareOptions = {},
): Promise<BatchComparison> {
  const [sa, sb] = await Promise.all([loadBatch(log, a), loadBatch(log, b)]);
  try {
    return compareBatches(
      { batch: withoutGraph(sa.record), rows: sa.rows, graph: sa.graph },
      { batch: withoutGraph(sb.record), rows: sb.rows, graph: sb.graph },
      opts,
    );
  } catch (err) {
    if (err instanceof CompareError) throw badRequest('unknown-metric', err.message);
    throw err;
  }
}

/** Parses a condition of the breakpoint grammar; a bad one is a 400 saying what the grammar is. */
export function parseBatchQuery(text: string): BatchQuery {
  const parsed = parseQuery(text);
  if (!parsed.ok) throw badRequest('invalid-condition', parsed.error);
  return parsed.query;
}

/** Every (episode, step) of batch `id` where `text` holds, from the stored logs. */
export async function queryStoredBatch(log: RunLog, id: string, text: string): Promise<BatchQueryResult> {
  const q = parseBatchQuery(text);
  const batch = await loadBatch(log, id);
  const problem = batch.graph ? queryProblem(q, batch.graph) : null;
  if (problem) throw badRequest('unknown-slot', problem);
  const plan = queryPlan(q);
  const rows = [...batch.rows].sort((x, y) => x.episode - y.episode);
  const hits: QueryRow[] = [];
  let episodesHit = 0;
  for (let i = 0; i < rows.length; i += EPISODES_PER_READ) {
    const part = rows.slice(i, i + EPISODES_PER_READ);
    const runIds = part.map((r) => r.run_id);
    const read = await Promise.all(plan.map((p) => log.projectEvents(runIds, p.type, p.paths)));
    for (const row of part) {
      const found = evaluateEpisode(
        q,
        read.map((m) => m.get(row.run_id) ?? []),
      );
      if (found.length > 0) episodesHit += 1;
      hits.push(...queryRows(id, row, found));
    }
  }
  return { batch_id: id, query: describeQuery(q), episodes: rows.length, episodes_hit: episodesHit, hits };
}

/** The step states of a run as the Compare view loads them: each nav_step's containers and node-local state. */
async function stepStates(log: RunLog, runId: string): Promise<StepState[]> {
  const read = await log.projectEvents([runId], 'nav_step', [['step'], ['containers'], ['nodeStates']]);
  return (read.get(runId) ?? []).flatMap(({ values: [step, containers, nodeStates] }) =>
    typeof step === 'number'
      ? [
          {
            step,
            containers: (containers ?? {}) as Record<string, ContainerSnapshot>,
            nodeStates: (nodeStates ?? {}) as Record<string, unknown>,
          },
        ]
      : [],
  );
}

/** The first step where runs `a` and `b` differ (a pair of a comparison, or any two runs of the log). */
export async function firstStoredDifference(
  log: RunLog,
  a: string,
  b: string,
): Promise<FirstDifferenceResult> {
  for (const id of [a, b])
    if (!(await log.getRun(id))) throw notFound(`no run ${JSON.stringify(id)} in the batches' run log`);
  const [sa, sb] = await Promise.all([stepStates(log, a), stepStates(log, b)]);
  return { run_a: a, run_b: b, first: firstDifference(sa, sb) };
}
