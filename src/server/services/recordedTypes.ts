// Node-service types for a replay (`statewire replay`, `POST /api/runs/{id}/replay`): the services
// may be stopped, so each type is registered from the manifest entry its recorded calls kept
// (callRecording.ts), with the ordinary service handler (serviceNode.ts) behind a binding that has
// no client. The handler asks the run's effect store first, as always; a replay's store answers from
// the recording or refuses with why, so the binding's "no live calls" is never reached — it is the
// guarantee that a replay cannot call a service, not the way it usually fails.
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { nodesetOfType, serviceFunctionSpec, type ServiceFunction } from '../../domain/services/manifest.ts';
import type { NodeRegistry } from '../../engine/registry.ts';
import type { RecordedCall } from '../db/effectStore.ts';
import type { ServiceCallRecord, ServiceCallRequest } from './callRecording.ts';
import { allNodes } from './serviceEvents.ts';
import { ActiveCalls, serviceNodeHandler, type ServiceBinding } from './serviceNode.ts';

/** The service a recorded service call went to, with its function's manifest entry when kept. */
function serviceOf(call: RecordedCall): { service: string; fn?: ServiceFunction } | undefined {
  if (call.kind !== 'service') return undefined;
  const req = call.request as Partial<ServiceCallRequest> | null;
  if (typeof req?.service !== 'string') return undefined;
  return { service: req.service, fn: (call.response as Partial<ServiceCallRecord> | null)?.fn };
}

/** The names of the services recorded calls went to (their owned containers are their state). */
export function recordedServices(calls: readonly RecordedCall[]): Set<string> {
  return new Set(calls.flatMap((c) => serviceOf(c)?.service ?? []));
}

function replayBinding(service: string): ServiceBinding {
  return {
    name: service,
    client: () => ({ down: 'a replay answers every call from the recording and calls no service' }),
    executorUrl: () => undefined,
    onPreviews: () => undefined,
  };
}

/**
 * Registers every service node type of `graph` not already in `registry`: from the newest manifest
 * entry its recorded calls kept, else (a node the recorded run never called, or a record made
 * before entries were kept) with ports read off the graph's edges, every input required — such a
 * node, if it fires, finds no recorded answer and the replay says so. Returns a line per type built
 * from the edges.
 */
export function registerRecordedServiceTypes(
  registry: NodeRegistry,
  graph: GraphDef,
  calls: readonly RecordedCall[],
): string[] {
  const active = new ActiveCalls();
  const byType = new Map<string, { service: string; fn: ServiceFunction }>();
  for (const c of calls) {
    const s = serviceOf(c);
    if (s?.fn) byType.set(s.fn.name, { service: s.service, fn: s.fn });
  }
  const notes: string[] = [];
  const nodes = allNodes(graph);
  for (const type of new Set(nodes.map((n) => n.type))) {
    const service = nodesetOfType(type);
    if (!service || registry.has(type)) continue;
    const known = byType.get(type);
    const fn =
      known?.fn ??
      edgeFunction(
        type,
        graph,
        nodes.filter((n) => n.type === type).map((n) => n.id),
      );
    if (!known)
      notes.push(
        `node type ${type}: no recorded call kept its manifest entry, so its ports are read off the graph's edges`,
      );
    registry.register(
      serviceFunctionSpec(known?.service ?? service, fn),
      serviceNodeHandler(replayBinding(service), fn, active),
    );
  }
  return notes;
}

/** A function whose ports are the handles the graph's edges use on nodes `ids` (inputs required). */
function edgeFunction(type: string, graph: GraphDef, ids: readonly string[]): ServiceFunction {
  const inputs = new Set<string>();
  const outputs = new Set<string>();
  const visit = (g: GraphDef) => {
    for (const e of g.edges) {
      if (ids.includes(e.target) && e.targetHandle) inputs.add(e.targetHandle);
      if (ids.includes(e.source) && e.sourceHandle) outputs.add(e.sourceHandle);
    }
    for (const n of g.nodes) if (n.subgraph) visit(n.subgraph as GraphDef);
  };
  visit(graph);
  const port = (name: string, optional: boolean) => ({ name, wire_type: 'ANY', description: '', optional });
  return {
    name: type,
    description: '',
    input_ports: [...inputs].map((n) => port(n, false)),
    output_ports: [...outputs].map((n) => port(n, true)),
    config_schema: {},
    ui_config: {},
  };
}
