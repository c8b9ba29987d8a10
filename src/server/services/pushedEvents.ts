// Events a service pushes to `POST /api/internal/events` (docs/node-services-protocol.md, "Pushed
// events"), as the reference's services really send them: `code`, `node_id`, `nodeset` and
// `execution_id` may be null, `step` always is, and they arrive buffered — after the call that logged
// them, or (WARNING records of the service process) at any time. Each event goes to the run of its
// execution id, or to the only live run when it names none; to the node when it names one (a function
// name — what the reference sends when a handler fails — means the node that called that function in
// that run), else to the service. It becomes an `error_event` of that run: the Log shows it, the node
// shows it.
import { z } from 'zod';
import type { ErrorEnvelope } from '../../domain/protocol/protocol.ts';
import type { ActiveCalls } from './serviceNode.ts';

const nullable = <T extends z.ZodTypeAny>(t: T) => t.nullish().transform((v) => v ?? undefined);

export const PushedEventSchema = z.object({
  severity: z
    .string()
    .nullish()
    .transform((s) => {
      const v = (s ?? 'info').toLowerCase();
      return v === 'critical' || v === 'fatal' ? 'error' : v === 'warn' ? 'warning' : v;
    })
    .pipe(z.enum(['error', 'warning', 'info', 'debug'])),
  message: z.coerce.string(),
  code: nullable(z.string()),
  node_id: nullable(z.string()),
  step: nullable(z.number()),
  nodeset: nullable(z.string()),
  execution_id: nullable(z.string()),
  details: nullable(z.record(z.string(), z.unknown())),
});
export type PushedEvent = z.infer<typeof PushedEventSchema>;

export const PushedEventsBodySchema = z.object({ events: z.array(PushedEventSchema).max(1000) });

/** A run that can take a server-raised event now (whatever its state: stepping, paused, between steps). */
export interface RunEventTarget {
  runId: string;
  /** The step in progress (or the last one), for events that name none. */
  step(): number;
  emit(event: ErrorEnvelope): void;
}

/** Finds the run of an execution id, or the only live run for `null`; undefined when there is none. */
export type RunFinder = (executionId: string | null) => RunEventTarget | undefined;

let counter = 0;

/** The error_event an event becomes in `target`'s log. */
export function pushedEnvelope(
  ev: PushedEvent,
  target: RunEventTarget,
  calls: ActiveCalls,
  now: number,
): ErrorEnvelope {
  const last = calls.lastOf(target.runId);
  const service = ev.nodeset ?? last?.service;
  const nodeId = ev.node_id ? (calls.nodeCalling(target.runId, ev.node_id) ?? ev.node_id) : undefined;
  // The reference never sends a step: the step of the run's last call is the one the event is about.
  const step = ev.step ?? last?.ctx.step ?? target.step();
  const from = service ? `service '${service}'` : 'a node service';
  return {
    id: `${target.runId}-svc-${(counter++).toString(36)}`,
    ts: new Date(now).toISOString(),
    severity: ev.severity,
    source: nodeId ? 'node' : 'log',
    code: ev.code ?? 'SERVICE_EVENT',
    title: nodeId ? `Node '${nodeId}' (${from})` : from,
    message: ev.message,
    scope: nodeId ? { node_id: nodeId, step } : { step, ...(service ? { service } : {}) },
    details: {
      ...(ev.details ?? {}),
      ...(service ? { service } : {}),
      ...(ev.node_id && ev.node_id !== nodeId ? { reported_node_id: ev.node_id } : {}),
      pushed: true,
    },
    hint: '',
  };
}

/**
 * Delivers pushed events; returns how many found a run. An event whose run is unknown or over (and,
 * without an execution id, when no run or several are live) is dropped: it has no run to belong to.
 */
export function deliverPushedEvents(
  events: readonly PushedEvent[],
  findRun: RunFinder,
  calls: ActiveCalls,
  now: () => number = Date.now,
): { accepted: number; dropped: number } {
  let accepted = 0;
  for (const ev of events) {
    const target = findRun(ev.execution_id ?? null);
    if (!target) continue;
    target.emit(pushedEnvelope(ev, target, calls, now()));
    accepted++;
  }
  return { accepted, dropped: events.length - accepted };
}
