// createRun: builds a run (flatten → containers → grants → scopes) and wraps the executor in the
// EngineRun contract the server and CLI drive (stepOnce/stop/checkpoints/restore, fork via
// fromCheckpoint). Build problems throw a BuildError before any event is emitted.
import type { GraphDef } from '../domain/graph/graph.schema.ts';
import type { RunState } from './run.state.ts';
import { applyCheckpoint, makeCheckpoint, readCheckpoint, type CheckpointState } from './checkpoint.ts';
import { Executor } from './executor.ts';
import { CheckpointHistory } from './history.ts';
import { TextPool } from './texts.ts';
import { flattenGraph } from './flatten.ts';
import { offlineProvider, providerFromEnv, type LlmEnv } from './llm.providers.ts';
import { createRegistry } from './registry.ts';
import { RunContext } from './runContext.ts';
import type { Checkpoint, EngineRun, EventSink, RunOptions } from './run.api.ts';
import { snapshotContainer } from './snapshot.ts';
import { featureValues } from './routing.ts';
import type { RunStatus } from '../domain/protocol/protocol.ts';

export interface EngineRunExt extends EngineRun {
  /** Build warnings (unknown reducers/lifetimes/value types, dangling grants). */
  readonly warnings: readonly string[];
  /** Containers + node-local state at a checkpointed step (or now, without a step). */
  stateAt(step?: number): RunState | undefined;
}

export function createRun(graph: GraphDef, options: RunOptions, sink: EventSink): EngineRunExt {
  const checkpoints = new CheckpointHistory(
    options.retention && options.retention > 0 ? options.retention : Infinity,
  );
  const holder: { exec?: Executor } = {};
  // The state of the last checkpoint taken or restored: the next one shares its unchanged records.
  let last: CheckpointState | undefined;
  // One copy of each repeated text for the whole history (freed with the run).
  const texts = new TextPool();
  const rc = new RunContext({
    flat: flattenGraph(graph),
    registry: options.registry ?? createRegistry(),
    options,
    sink,
    // Default provider: the OpenAI-compatible endpoint named by STATEWIRE_LLM_* if set, else offline.
    llm:
      options.llm ??
      providerFromEnv((globalThis as { process?: { env?: LlmEnv } }).process?.env ?? {}) ??
      offlineProvider,
    onCheckpoint: (step) => {
      if (!holder.exec) return;
      const cp = makeCheckpoint(holder.exec.live, rc.containers, last, texts);
      last = cp.state as CheckpointState;
      checkpoints.set(step, cp);
    },
  });
  const executor = new Executor(rc);
  holder.exec = executor;
  let running: Promise<{ done: boolean }> | null = null;

  const restoreFrom = (cp: Checkpoint) => {
    executor.live = applyCheckpoint(cp, rc.containers);
    last = readCheckpoint(cp);
    executor.clearStop();
    if (executor.live.phase !== 'finished') executor.live.status = 'paused';
    checkpoints.dropAfter(cp.step);
    checkpoints.set(cp.step, cp);
    const st = stateOf(cp);
    sink({ type: 'restored', data: { ...st, restored_to: cp.step } });
  };

  const stateOf = (cp: Checkpoint): RunState => {
    const s = readCheckpoint(cp);
    const containers: RunState['containers'] = {};
    for (const [id, c] of rc.containers) containers[id] = snapshotContainer(c, s.containers[id] ?? c.state);
    return {
      step: cp.step,
      containers,
      nodeStates: { ...s.live.nodeStates },
      features: featureValues(rc.flat.features, s.live.features),
    };
  };

  if (options.fromCheckpoint) restoreFrom(options.fromCheckpoint);

  return {
    get status(): RunStatus {
      return executor.live.status;
    },
    get step() {
      return executor.live.step;
    },
    warnings: rc.warnings,
    async stepOnce() {
      if (running) await running.catch(() => undefined);
      running = executor.stepOnce();
      try {
        return await running;
      } finally {
        running = null;
      }
    },
    stop() {
      executor.requestStop();
    },
    checkpointSteps() {
      return checkpoints.steps();
    },
    checkpoint(step) {
      return checkpoints.get(step);
    },
    restore(target) {
      if (running) throw new Error('cannot restore while a step is running; await stepOnce() first');
      const cp = typeof target === 'number' ? checkpoints.get(target) : target;
      if (!cp)
        throw new RangeError(
          `no checkpoint at step ${String(target)} (have: ${checkpoints.steps().join(', ') || 'none'})`,
        );
      restoreFrom(cp);
    },
    result(end) {
      return executor.result(end);
    },
    stateAt(step) {
      if (step !== undefined) {
        const cp = checkpoints.get(step);
        return cp ? stateOf(cp) : undefined;
      }
      const containers: RunState['containers'] = {};
      for (const [id, c] of rc.containers) containers[id] = snapshotContainer(c);
      return {
        step: executor.live.step,
        containers,
        nodeStates: { ...executor.live.nodeStates },
        features: featureValues(rc.flat.features, executor.live.features),
      };
    },
  };
}
