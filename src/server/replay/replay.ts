// Offline replay of a stored run (`statewire replay`, `POST /api/runs/{id}/replay`): the run's graph
// (or an edited one) re-executed by a fresh engine whose every LLM and node-service answer comes from
// the run's recorded calls (db/effectStore.ts) — zero network calls: service node types are built
// from the manifests the calls kept (services/recordedTypes.ts), the LLM provider and the service
// bindings refuse to call anything, and a call with no recorded answer stops the replay naming the
// node, the step and what differs (missExplanation.ts). With `verify`, every replayed step's state
// (containers and node-local state, as its nav_step shows them) is compared with the recorded one,
// and the first difference names the step, the slot and the node that wrote it.
// The engine is deterministic given the graph and the answers (clock only in timestamps, randomness
// only from seeded node state: docs/architecture.md "Contracts between layers"), which is what
// makes "identical" a meaningful verdict. Service-owned containers are left out of the comparison:
// they are the services' state, which a replay takes from the recording and does not recompute.
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { ReplayDifference, ReplayVerdict } from '../../domain/protocol/replay.schema.ts';
import type {
  ContainerSnapshot,
  EngineEvent,
  ErrorEnvelope,
  EventEnvelope,
} from '../../domain/protocol/protocol.ts';
import { stateDifferences, type StepState } from '../../domain/debug/firstDiff.ts';
import { containsNdArray, mapNdArrays } from '../../domain/services/ndarray.ts';
import { createRun } from '../../engine/createRun.ts';
import type { ReuseUntilDivergence } from '../../engine/effectReuse.ts';
import type { EffectCall, EffectStore } from '../../engine/effects.ts';
import type { LlmProvider } from '../../engine/handler.types.ts';
import type { NodeRegistry } from '../../engine/registry.ts';
import type { RecordedCall } from '../db/effectStore.ts';
import type { RunStore } from '../db/runStore.ts';
import { runCalls } from '../runs/bundleExport.ts';
import { forkReuse, reusableCalls } from '../runs/forkReuse.ts';
import { recordedServices, registerRecordedServiceTypes } from '../services/recordedTypes.ts';
import { summarizeForWire } from '../services/serviceEvents.ts';
import { decodeGraph, describeErrors } from '../workspace/graphCodec.ts';
import { explainMiss, missReason, shortValue } from './missExplanation.ts';

export interface ReplayOptions {
  /** Built-ins and plugins; the recorded service types are added to it. */
  registry: NodeRegistry;
  /** An edited graph to replay instead of the run's own (its containers must match the run's). */
  graph?: unknown;
  verify?: boolean;
  /**
   * Replay as a fork of this run from `step` would run (forkPreview.ts): from the run's checkpoint
   * there, answering from the run's calls after it only until the first call that differs
   * (engine/effectReuse.ts, the rule the fork itself follows).
   */
  fork?: { step: number };
}

/** A replay that cannot start (unknown run, bad graph): a 4xx / exit 2, not a verdict. */
export class ReplayError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    readonly code = 'replay-failed',
  ) {
    super(message);
  }
}

/** Answers from the recording only; a miss is remembered and thrown (the node fails with it). */
class RecordedAnswers implements EffectStore {
  readonly byKey: Map<string, RecordedCall>;
  miss: { call: EffectCall; message: string } | undefined;
  answered = 0;

  constructor(
    private readonly lineage: string,
    private readonly calls: readonly RecordedCall[],
  ) {
    this.byKey = new Map(calls.map((c) => [c.key, c]));
  }

  lookup(key: string, call?: EffectCall): unknown {
    const hit = this.byKey.get(key);
    if (hit) {
      this.answered++;
      return hit.response ?? null;
    }
    const message = call ? explainMiss(call, this.lineage, this.calls) : `no recorded answer for call ${key}`;
    this.miss ??= {
      call: call ?? { key, step: -1, node_id: '', index: 0, kind: '', request: null },
      message,
    };
    throw new Error(message);
  }

  record(): void {
    // Never reached: lookup answers or throws.
  }
}

/**
 * A fork's preview: the recorded answer while the fork's calls are the recorded ones, place by
 * place; the first that is not is the miss (explained like any replay miss), and the fork calls live
 * from there.
 */
class ReusedAnswers implements EffectStore {
  miss: { call: EffectCall; message: string; reason?: string } | undefined;

  constructor(
    readonly matcher: ReuseUntilDivergence,
    private readonly lineage: string,
    private readonly calls: readonly RecordedCall[],
  ) {}

  /**
   * Calls reused at steps before the one that differs: the fork runs that step live as a whole
   * (engine/effectReuse.ts `untilStep`), so a call reused earlier in it is not counted.
   */
  get answered(): number {
    const at = this.miss?.call.step;
    return at === undefined ? this.matcher.reused : this.matcher.reusedSteps.filter((s) => s < at).length;
  }

  lookup(key: string, call?: EffectCall): unknown {
    const c = call ?? { key, step: -1, node_id: '', index: 0, kind: '', request: null };
    const hit = this.matcher.take(c);
    if (hit) return hit.response;
    if (!this.miss) {
      const reason = missReason(c, this.lineage, this.calls);
      const message = `no recorded answer for node '${c.node_id}' at step ${c.step}: ${reason}`;
      this.miss = { call: c, message, reason };
    }
    throw new Error(this.miss.message);
  }

  record(): void {
    // Never reached: lookup answers or throws.
  }
}

/** The provider the recorded LLM calls named (their requests carry it; it is part of their key). */
function replayProvider(calls: readonly RecordedCall[]): LlmProvider {
  const named = calls.find(
    (c) => c.kind === 'llm' && typeof (c.request as { provider?: unknown })?.provider === 'string',
  );
  return {
    name: named ? String((named.request as { provider: string }).provider) : 'offline',
    complete: () => Promise.reject(new Error('a replay answers every LLM call from the recording')),
  };
}

/** The recorded run's per-step states (newest snapshot of each step) and node errors per step. */
function recordedSteps(
  store: RunStore,
  runId: string,
): {
  states: Map<number, StepState>;
  errors: Map<number, string[]>;
} {
  const states = new Map<number, StepState>();
  const errors = new Map<number, string[]>();
  const PAGE = 500;
  for (let after = 0; ;) {
    const page: EventEnvelope[] = store.events(runId, after, PAGE);
    for (const e of page) {
      if (e.type === 'nav_step') {
        const d = e.data as {
          step: number;
          containers: Record<string, ContainerSnapshot>;
          nodeStates: Record<string, unknown>;
        };
        states.set(d.step, { step: d.step, containers: d.containers, nodeStates: d.nodeStates });
      } else if (e.type === 'error_event') {
        const d = e.data as ErrorEnvelope;
        const step = d.scope.step;
        if (d.severity === 'error' && typeof step === 'number')
          errors.set(step, [...(errors.get(step) ?? []), d.message]);
      }
    }
    const last = page[page.length - 1];
    if (!last || page.length < PAGE) break;
    after = last.seq;
  }
  return { states, errors };
}

/** `memory.trail` → the node that wrote it in the step (its state_written events), if any. */
function writerOf(writes: ReadonlyMap<string, string>, slots: readonly string[]): string | undefined {
  for (const s of slots) {
    const w = writes.get(s);
    if (w) return w;
  }
  return undefined;
}

function slotValue(state: StepState, slot: string): unknown {
  const dot = slot.indexOf('.');
  const s = state.containers[slot.slice(0, dot)]?.states[slot.slice(dot + 1)];
  return s === undefined ? undefined : (s.value ?? s.preview);
}

/** Replays `runId` of `store`; resolves with the verdict (throws ReplayError when it cannot start). */
export async function replayRun(store: RunStore, runId: string, opts: ReplayOptions): Promise<ReplayVerdict> {
  const row = store.getRun(runId);
  if (!row) throw new ReplayError(`no run ${JSON.stringify(runId)}`, 404, 'not-found');
  const decoded = decodeGraph(opts.graph ?? store.graphOf(runId));
  if (!decoded.ok)
    throw new ReplayError(
      `${opts.graph ? 'the graph to replay' : `run ${runId}'s graph`}: ${describeErrors(decoded.errors)}`,
      400,
      'invalid-graph',
    );
  const graph: GraphDef = decoded.graph;
  const calls = opts.fork ? reusableCalls(store, runId, opts.fork.step) : runCalls(store, runId);
  const notes = registerRecordedServiceTypes(opts.registry, graph, calls);
  const answers = opts.fork
    ? new ReusedAnswers(forkReuse(store, runId, opts.fork.step, row.lineage, calls), row.lineage, calls)
    : new RecordedAnswers(row.lineage, calls);
  // A fork (or a restore's branch) begins at its parent's step: it is replayed from there.
  const from = opts.fork?.step ?? row.parent_step ?? 0;
  const start = opts.fork || row.parent_run_id !== null ? store.checkpoint(runId, from) : undefined;
  if (opts.fork && !start)
    throw new ReplayError(`no checkpoint at step ${from} of run ${runId}`, 404, 'no-checkpoint');
  if (row.parent_run_id !== null && !start)
    throw new ReplayError(
      `run ${runId} begins at step ${from} of ${row.parent_run_id}, but holds no checkpoint there`,
      409,
      'no-checkpoint',
    );
  const recorded = opts.verify ? recordedSteps(store, runId) : undefined;
  // A fork's preview ends with the recorded calls: past the last one, every call is live anyway.
  const lastStep = opts.fork ? Math.min(row.steps, Math.max(from, ...calls.map((c) => c.step))) : row.steps;

  let stepState: StepState | undefined;
  let writes = new Map<string, string>();
  let nodeErrors: { node: string; message: string }[] = [];
  const sink = (event: EngineEvent) => {
    if (event.type === 'state_written')
      writes.set(`${event.data.container}.${event.data.slot}`, event.data.node_id);
    else if (event.type === 'error_event' && event.data.severity === 'error' && event.data.source === 'node')
      nodeErrors.push({ node: String(event.data.scope?.node_id ?? ''), message: event.data.message });
    else if (event.type === 'nav_step') {
      // The recorded log holds arrays from services as summaries (serviceEvents.ts): compare alike.
      const d = containsNdArray(event.data)
        ? (mapNdArrays(event.data, summarizeForWire) as typeof event.data)
        : event.data;
      stepState = { step: d.step, containers: d.containers, nodeStates: d.nodeStates };
    }
  };
  let run;
  try {
    run = createRun(
      graph,
      {
        runId: row.id,
        now: Date.now,
        registry: opts.registry,
        llm: replayProvider(calls),
        effects: answers,
        lineage: row.lineage,
        retention: 1,
        ...(start ? { fromCheckpoint: { step: start.step, state: start.state } } : {}),
      },
      sink,
    );
  } catch (e) {
    throw new ReplayError(`the graph cannot run: ${(e as Error).message}`, 400, 'invalid-graph');
  }
  const services = recordedServices(calls);
  const verdict = (difference: ReplayDifference | null, steps: number, identical: number): ReplayVerdict => ({
    run_id: runId,
    ok: difference === null,
    verified: opts.verify === true,
    steps,
    identical,
    calls: { answered: answers.answered, recorded: calls.length },
    difference,
    notes,
    message:
      difference?.message ??
      (opts.verify
        ? `${identical} step${identical === 1 ? '' : 's'} identical`
        : `${steps} step${steps === 1 ? '' : 's'} replayed, ${answers.answered} call${answers.answered === 1 ? '' : 's'} answered from the recording`),
  });

  let identical = 0;
  let done = false;
  let step = from;
  while (!done && step < lastStep) {
    stepState = undefined;
    writes = new Map();
    nodeErrors = [];
    const outcome = await run.stepOnce();
    done = outcome.done;
    if (answers.miss) {
      const { call, message } = answers.miss;
      const reason = 'reason' in answers.miss ? answers.miss.reason : undefined;
      return verdict(
        { step: call.step, kind: 'call', node_id: call.node_id, message, ...(reason ? { reason } : {}) },
        step - from,
        identical,
      );
    }
    if (stepState === undefined) break; // ended without completing another step
    step = (stepState as StepState).step;
    if (!recorded) continue;
    const fresh = nodeErrors.find((e) => !(recorded.errors.get(step) ?? []).includes(e.message));
    if (fresh)
      return verdict(
        {
          step,
          kind: 'error',
          node_id: fresh.node,
          message: `step ${step}: ${fresh.message} (the recorded run did not fail there)`,
        },
        step - from,
        identical,
      );
    const want = recorded.states.get(step);
    if (!want)
      return verdict(
        { step, kind: 'steps', message: `step ${step}: the recorded log holds no state for this step` },
        step - from,
        identical,
      );
    const got = stepState as StepState;
    // Service-owned containers the replay does not show are the services' own state (see above).
    const expected: StepState = {
      ...want,
      containers: Object.fromEntries(
        Object.entries(want.containers).filter(([id, c]) => id in got.containers || !services.has(c.owner)),
      ),
    };
    const d = stateDifferences(expected, got);
    if (d.slots.length > 0) {
      const slot = d.slots[0]!;
      const node = writerOf(writes, [slot]);
      return verdict(
        {
          step,
          kind: 'state',
          slot,
          ...(node ? { node_id: node } : {}),
          message: `step ${step}: slot ${slot}${node ? ` (written by node '${node}')` : ''} differs: recorded ${shortValue(slotValue(expected, slot))}, replayed ${shortValue(slotValue(got, slot))}${d.slots.length > 1 ? ` (and ${d.slots.length - 1} more slot${d.slots.length > 2 ? 's' : ''})` : ''}`,
        },
        step - from,
        identical,
      );
    }
    if (d.nodes.length > 0) {
      const node = d.nodes[0]!;
      return verdict(
        {
          step,
          kind: 'state',
          node_id: node,
          message: `step ${step}: node '${node}' local state differs: recorded ${shortValue(expected.nodeStates?.[node])}, replayed ${shortValue(got.nodeStates?.[node])}`,
        },
        step - from,
        identical,
      );
    }
    identical++;
    // Let the server answer other requests between steps of a long replay.
    await new Promise((r) => setImmediate(r));
  }
  if (recorded && step < lastStep)
    return verdict(
      {
        step: step + 1,
        kind: 'steps',
        message: `the replay ended after step ${step}; the recorded run went on to step ${lastStep}`,
      },
      step - from,
      identical,
    );
  return verdict(null, step - from, identical);
}
