// The engine handler of a service node type: firing it posts `/call/{fn}` and turns the answer into
// outputs (or a dynamic fire list). A failed call throws, so the engine records a node error naming
// the node, and our message names the service, the function and what the service said — never a
// silent `{error}` output (the reference's defect).
// While a call is in flight its node context is listed in `ActiveCalls`, so the service can read and
// write the node's granted containers back through the executor endpoints (`/api/internal/containers/…`,
// docs/node-services-protocol.md "Calls back into Statewire"): those
// writes go through the same container handles — reducers, lifetimes, state_written, checkpoints.
import type { ServiceFunction } from '../../domain/services/manifest.ts';
import type { Aggregator, FireList } from '../../engine/dynamic.ts';
import type { HandlerResult, NodeContext, NodeHandler } from '../../engine/handler.types.ts';
import type { ServiceClient } from './serviceClient.ts';
import {
  applyRecordedWrites,
  recordingContext,
  type ContainerWrite,
  type ServiceCallRecord,
  type ServiceCallRequest,
} from './callRecording.ts';
import { isPngPort } from './wireCodec.ts';

export interface ActiveCall {
  ctx: NodeContext;
  service: string;
  fn: string;
}

/** Calls in flight by execution id (= run id); a run fires one node at a time, so one per run. */
export class ActiveCalls {
  private readonly calls = new Map<string, ActiveCall>();
  /**
   * Per run (the last 64 runs): its last call, so events pushed just after a call still find their
   * run, and which node last called each function, so an event naming a function (the reference puts
   * the function name in `node_id` when a handler fails) lands on that node.
   */
  private readonly recent = new Map<string, { last: ActiveCall; nodeByFn: Map<string, string> }>();

  /** `onBegin`: told of every call as it starts (serviceSnapshots.ts: which services a run changed). */
  constructor(private readonly onBegin: (runId: string, service: string) => void = () => undefined) {}

  begin(call: ActiveCall): void {
    const runId = call.ctx.runId;
    this.onBegin(runId, call.service);
    this.calls.set(runId, call);
    const r = this.recent.get(runId) ?? { last: call, nodeByFn: new Map<string, string>() };
    r.last = call;
    r.nodeByFn.set(call.fn, call.ctx.node.id);
    this.recent.delete(runId);
    this.recent.set(runId, r);
    if (this.recent.size > 64) this.recent.delete(this.recent.keys().next().value!);
  }

  end(runId: string): void {
    this.calls.delete(runId);
  }

  get(executionId: string): ActiveCall | undefined {
    return this.calls.get(executionId);
  }

  lastOf(executionId: string): ActiveCall | undefined {
    return this.calls.get(executionId) ?? this.recent.get(executionId)?.last;
  }

  /** The node of `executionId` that last called function `fn`. */
  nodeCalling(executionId: string, fn: string): string | undefined {
    return this.recent.get(executionId)?.nodeByFn.get(fn);
  }

  /** Whether a call to `service` is in flight (its health answers may then be slow). */
  busy(service: string): boolean {
    for (const c of this.calls.values()) if (c.service === service) return true;
    return false;
  }
}

export interface ServiceBinding {
  name: string;
  /** The live client, or why there is none (service down). */
  client(): ServiceClient | { down: string };
  /** Stores the container previews a call of run `runId` answered with. */
  onPreviews(
    runId: string,
    previews: Record<string, { label?: string; states?: Record<string, unknown> }>,
  ): void;
  /** Where the service calls back (`_exec.executor_url`; the environment variable is the fallback). */
  executorUrl(): string | undefined;
}

const AGGREGATORS = new Set(['passthrough_last', 'passthrough_index', 'merge_all', 'rename']);

/** The reference's aggregator forms (`"merge_all"`, `{type: …}`, `{kind: …}`) → ours. */
function toAggregator(raw: unknown): Aggregator | undefined {
  if (typeof raw === 'string' && AGGREGATORS.has(raw)) return { kind: raw } as Aggregator;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const o = raw as Record<string, unknown>;
  const kind = (o.kind ?? o.type) as string | undefined;
  if (!kind || !AGGREGATORS.has(kind)) return undefined;
  return { ...o, kind } as Aggregator;
}

export function serviceNodeHandler(
  binding: ServiceBinding,
  fn: ServiceFunction,
  active: ActiveCalls,
): NodeHandler {
  const imageInputs = new Set(fn.input_ports.filter((p) => isPngPort(p.wire_type)).map((p) => p.name));
  const imageOutputs = new Set(fn.output_ports.filter((p) => isPngPort(p.wire_type)).map((p) => p.name));
  return {
    async fire(inputs, ctx): Promise<HandlerResult> {
      // Missing optional inputs are absent and None values are not sent (docs/node-services-protocol.md "A call").
      const sent = Object.fromEntries(
        Object.entries(inputs).filter(([, v]) => v !== null && v !== undefined),
      );
      const request: ServiceCallRequest = {
        service: binding.name,
        fn: fn.name,
        inputs: sent,
        config: { ...ctx.node.config },
      };
      // One recorded effect per call (callRecording.ts): a resumed run or a replay answers from the
      // record, re-applying the container writes the service made; a fresh call sends its key.
      let fresh = false;
      const record = await ctx.effect<ServiceCallRecord>(
        request,
        async (callId) => {
          fresh = true;
          return callService(binding, fn, ctx, request, callId, active, imageInputs, imageOutputs);
        },
        'service',
      );
      if (!fresh) applyRecordedWrites(ctx, record.writes);
      const answer = record.answer;
      if (answer.containers && typeof answer.containers === 'object')
        binding.onPreviews(ctx.runId, answer.containers);
      if (answer.firelist) {
        const fireList: FireList = {
          specs: answer.firelist.specs as FireList['specs'],
          aggregator: toAggregator(answer.firelist.aggregator),
        };
        return { outputs: answer.firelist.spawner_outputs ?? {}, fireList };
      }
      return { outputs: answer.outputs };
    },
  };
}

/** Posts the call with its idempotency key; the service's container writes are recorded with the answer. */
async function callService(
  binding: ServiceBinding,
  fn: ServiceFunction,
  ctx: NodeContext,
  request: ServiceCallRequest,
  callId: string,
  active: ActiveCalls,
  imageInputs: ReadonlySet<string>,
  imageOutputs: ReadonlySet<string>,
): Promise<ServiceCallRecord> {
  const client = binding.client();
  if ('down' in client)
    throw new Error(`service '${binding.name}' is unavailable (${client.down}); cannot call '${fn.name}'`);
  const writes: ContainerWrite[] = [];
  active.begin({ ctx: recordingContext(ctx, writes), service: binding.name, fn: fn.name });
  try {
    const answer = await client.call(
      fn.name,
      {
        inputs: request.inputs,
        config: request.config,
        _exec: {
          execution_id: ctx.runId,
          grants: Object.keys(ctx.containers),
          node_id: ctx.node.id,
          step: ctx.step,
          call_id: callId,
          ...(binding.executorUrl() ? { executor_url: binding.executorUrl() } : {}),
        },
      },
      imageInputs,
      imageOutputs,
      ctx.signal, // a stop aborts the call instead of waiting for its timeout
    );
    return { answer, writes, fn };
  } finally {
    active.end(ctx.runId);
  }
}
