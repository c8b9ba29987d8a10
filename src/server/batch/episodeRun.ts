// One batch episode = one run of its own, driven to its end and written through an `EpisodeLog` (the
// SQLite file from this process or an episode child's writer thread, the pool's parent over IPC, or
// PostgreSQL for distributed workers).
// The log discipline is the run writer's (runs/runWriter.ts), as for interactive runs: envelopes
// stamped {type, runId, seq, ts, data} with seq consecutive from 1, each root step's events committed
// together with that step's checkpoint (steps run back to back are grouped, several whole steps to a
// commit, each with its own checkpoint: group commit), then publish, and a last commit holding
// `run_result` plus the run row's end. Because events and checkpoints commit together, a worker that dies leaves a log that ends at
// a checkpoint, and a retried job continues from there (`fromCheckpoint`) with the next seq: nothing
// repeated, nothing missing. A run whose log already ends with `run_result` is not run again.
import type { EpisodeRow, EpisodeStatus } from '../../domain/batch/batch.types.ts';
import { scoreEpisode, shownMetrics } from '../../domain/batch/metrics.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type {
  EventEnvelope,
  RunEndStatus,
  RunResultData,
  RunStatus,
} from '../../domain/protocol/protocol.ts';
import { createRun, type EngineRunExt } from '../../engine/createRun.ts';
import { offlineProvider } from '../../engine/llm.providers.ts';
import type { NodeRegistry } from '../../engine/registry.ts';
import type { Checkpoint } from '../../engine/run.api.ts';
import type { EpisodeLog, StoredRun } from '../db/runLog.ts';
import { RunWriter } from '../runs/runWriter.ts';
import { decodeGraph, describeErrors } from '../workspace/graphCodec.ts';

export interface EpisodeJob {
  batchId: string;
  episode: number;
  seed: number;
  runId: string;
  graphName: string;
  graph: unknown /* already seeded + sets applied */;
  /** The batch's graph version (before seeding: every episode of a batch runs the same version). */
  graphVersion?: string | null;
}

export interface EpisodeRunDeps {
  log: EpisodeLog;
  registry: NodeRegistry;
  worker: string;
  publish?: (events: EventEnvelope[]) => void;
  now?: () => number;
  shouldStop?: () => boolean;
  stepDelayMs?: number;
  /** How the engine is built (default the plain one; with node services, theirs: episodeServices.ts). */
  createRun?: typeof createRun;
}

/** What a commit writes on the run row besides the events. */
interface RowUpdate {
  checkpoint?: Checkpoint;
  steps: number;
  status: RunStatus;
  endedAt?: string | null;
  error?: string | null;
}

/** An episode's run writer (runs/runWriter.ts), noting what its Metrics viewers show. */
class EpisodeWriter {
  readonly w: RunWriter;
  /** What Metrics viewers showed last (episode metrics besides the outputs). */
  readonly shown: Record<string, number> = {};

  constructor(
    private readonly runId: string,
    private readonly log: EpisodeLog,
    now: () => number,
    seq: number,
    publish: ((events: EventEnvelope[]) => void) | undefined,
  ) {
    this.w = new RunWriter(runId, now, seq, publish && ((events) => publish([...events])));
  }

  readonly sink = (e: { type: EventEnvelope['type']; data: unknown }): void => this.add(e.type, e.data);

  add(type: EventEnvelope['type'], data: unknown): void {
    if (type === 'viewer_data') shownMetrics((data as { fields?: unknown } | null)?.fields, this.shown);
    this.w.stamp(type, data);
  }

  iso(): string {
    return this.w.iso();
  }

  /**
   * One commit of what is staged and pending (+ checkpoint, row counters), published once it is in
   * the log; unless `wait`, the next root step runs while it is written (RunWriter.commitAsync).
   * Staged steps mean the episode runs flat out: their payloads and checkpoints go in as plain roots,
   * the cheapest durable form, encoded by compaction once the run has ended (as for interactive runs).
   */
  commit({ checkpoint, ...row }: RowUpdate, wait = true): Promise<void> {
    return this.w.commitAsync(
      ({ earlier, events, checkpoint: cp }) =>
        this.log.commit(this.runId, {
          ...(earlier.length > 0 ? { earlier, plain: true } : {}),
          events,
          ...(cp ? { checkpoint: cp } : {}),
          ...row,
        }),
      checkpoint,
      wait,
    );
  }

  /** Keeps a finished step (events + checkpoint) for the next group commit (RunWriter.stage). */
  stage(checkpoint: Checkpoint | undefined): void {
    this.w.stage(checkpoint);
  }

  /** Enough steps are staged, or waited long enough, for a group commit. */
  get groupDue(): boolean {
    return this.w.groupDue;
  }
}

function toRow(
  job: EpisodeJob,
  result: Pick<RunResultData, 'status' | 'steps' | 'outputs' | 'error'>,
  extra: Pick<EpisodeRow, 'worker' | 'attempts' | 'duration_ms'>,
  shown: Record<string, number> = {},
): EpisodeRow {
  const { metrics, success } = scoreEpisode(result, shown);
  return {
    episode: job.episode,
    seed: job.seed,
    run_id: job.runId,
    status: result.status as EpisodeStatus,
    steps: result.steps,
    outputs: result.outputs,
    metrics,
    success,
    error: result.error ?? null,
    ...extra,
  };
}

/** The run's last event when it is its `run_result` (the run ended), else undefined. */
async function storedResult(log: EpisodeLog, row: StoredRun): Promise<RunResultData | undefined> {
  if (row.last_seq === 0) return undefined;
  const [last] = await log.events(row.id, row.last_seq - 1, 1);
  return last?.type === 'run_result' ? (last.data as RunResultData) : undefined;
}

/** What the run's Metrics viewers showed last, from its log (an ended run reported again). */
async function storedShown(log: EpisodeLog, runId: string): Promise<Record<string, number>> {
  const shown: Record<string, number> = {};
  let after = 0;
  for (;;) {
    const page = await log.events(runId, after, 1000, 'viewer_data');
    for (const e of page) shownMetrics((e.data as { fields?: unknown } | null)?.fields, shown);
    if (page.length < 1000) return shown;
    after = page[page.length - 1]!.seq;
  }
}

/** Attempts so far: the first one, plus one per resume (each resume logs a `restored` event). */
async function priorAttempts(log: EpisodeLog, runId: string): Promise<number> {
  const restored = await log.events(runId, 0, 100_000, 'restored');
  return 1 + restored.length;
}

const newRun = (job: EpisodeJob, graph: unknown, startedAt: string, stepDelayMs: number) => ({
  id: job.runId,
  graphName: job.graphName,
  graph,
  status: 'running' as const,
  startedAt,
  parentRunId: null,
  parentStep: null,
  lineage: job.runId,
  freshEffects: false,
  stepDelayMs,
  graphVersion: job.graphVersion ?? null,
});

/**
 * Ends an episode's run as `error` without running it (its graph does not build, or its worker died
 * once too often): the run row is created if the job never got that far, and the log gets a
 * `nav_status` error and a `run_result`, so the episode's `/?run=<id>` shows why it ended.
 */
export async function failEpisode(
  job: EpisodeJob,
  deps: Pick<EpisodeRunDeps, 'log' | 'worker' | 'publish' | 'now'>,
  reason: string,
  attempts = 1,
): Promise<EpisodeRow> {
  const now = deps.now ?? Date.now;
  const started = now();
  let row = await deps.log.getRun(job.runId);
  if (!row) {
    await deps.log.createRun(newRun(job, job.graph ?? null, new Date(started).toISOString(), 0));
    row = await deps.log.getRun(job.runId);
  }
  const ended = row ? await storedResult(deps.log, row) : undefined;
  const extra = { worker: deps.worker, attempts, duration_ms: 0 };
  if (ended) return toRow(job, ended, extra);
  const steps = row?.steps ?? 0;
  const w = new EpisodeWriter(job.runId, deps.log, now, row?.last_seq ?? 0, deps.publish);
  const result: RunResultData = {
    status: 'error',
    steps,
    outputs: {},
    containers: {},
    keyed: {},
    error: reason,
  };
  w.add('nav_status', { status: 'error', step: steps, error: reason });
  w.add('run_result', result);
  await w.commit({ steps, status: 'error', endedAt: w.iso(), error: reason });
  return toRow(job, result, extra);
}

const pause = (ms: number) =>
  new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

/** Runs (or resumes, or just reports) one episode; see the file comment. */
export async function runEpisode(job: EpisodeJob, deps: EpisodeRunDeps): Promise<EpisodeRow> {
  const now = deps.now ?? Date.now;
  const startedMs = now();
  const stepDelayMs = deps.stepDelayMs ?? 0;
  const existing = await deps.log.getRun(job.runId);
  let attempts = 1;
  let from: (Checkpoint & { seq: number }) | undefined;
  if (existing) {
    const ended = await storedResult(deps.log, existing);
    if (ended)
      return toRow(
        job,
        ended,
        { worker: deps.worker, attempts: 1, duration_ms: 0 },
        await storedShown(deps.log, job.runId),
      );
    attempts = (await priorAttempts(deps.log, job.runId)) + 1;
    from = await deps.log.lastCheckpoint(job.runId);
  }
  const decoded = decodeGraph(job.graph);
  if (!decoded.ok)
    return failEpisode(job, deps, `invalid graph: ${describeErrors(decoded.errors)}`, attempts);
  const graph: GraphDef = decoded.graph;
  const w = new EpisodeWriter(job.runId, deps.log, now, existing?.last_seq ?? 0, deps.publish);
  // A resumed episode keeps what its Metrics viewers showed before the resume.
  if (existing) Object.assign(w.shown, await storedShown(deps.log, job.runId));
  let engine: EngineRunExt;
  try {
    engine = (deps.createRun ?? createRun)(
      graph,
      {
        runId: job.runId,
        now,
        registry: deps.registry,
        llm: offlineProvider,
        // Only the newest checkpoint is committed with each step; older ones are in the log.
        retention: 2,
        lineage: job.runId,
        ...(from ? { fromCheckpoint: { step: from.step, state: from.state } } : {}),
      },
      w.sink,
    );
  } catch (err) {
    return failEpisode(job, deps, `the graph does not build: ${(err as Error).message}`, attempts);
  }
  if (!existing) await deps.log.createRun(newRun(job, graph, w.iso(), stepDelayMs));
  const extra = () => ({ worker: deps.worker, attempts, duration_ms: Math.max(0, now() - startedMs) });

  let status: RunEndStatus | undefined;
  let error: string | undefined;
  while (!status) {
    if (deps.shouldStop?.()) {
      // Left resumable: no run_result, the row says interrupted (as a server restart marks it).
      await w.commit({ steps: engine.step, status: 'interrupted', endedAt: w.iso() });
      return toRow(job, engine.result({ status: 'interrupted' }), extra(), w.shown);
    }
    try {
      const { done } = await engine.stepOnce();
      if (done) status = engine.status === 'error' || engine.status === 'stopped' ? engine.status : 'done';
    } catch (err) {
      status = 'error';
      error = (err as Error).message;
      w.add('nav_status', { status: 'error', step: engine.step, error });
    }
    const checkpoint = engine.checkpoint(engine.step);
    const row = { steps: engine.step, status: 'running' as const, endedAt: null };
    if (status || stepDelayMs > 0) {
      // The last step (its run_result follows) and a paced episode's every step commit at once.
      await w.commit({ ...row, ...(checkpoint ? { checkpoint } : {}) }, false);
    } else {
      // Flat out: steps are grouped, each with its own checkpoint, and the group goes to the log as
      // one commit (RunWriter GROUP_STEPS / GROUP_MS) while the next steps run. A killed worker loses
      // only steps not yet committed; the log still ends at a checkpoint, where the retry resumes.
      w.stage(checkpoint);
      if (w.groupDue) await w.commit(row, false);
    }
    if (!status) await pause(stepDelayMs);
  }
  const result = engine.result({ status, ...(error !== undefined ? { error } : {}) });
  w.add('run_result', result);
  await w.commit({ steps: engine.step, status, endedAt: w.iso(), error: result.error ?? null });
  return toRow(job, result, extra(), w.shown);
}
