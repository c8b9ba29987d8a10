// Helpers for engine tests and benchmarks: terse graph builders and an event-collecting sink.
import {
  emptyGraph,
  type AccessGrantDef,
  type ContainerDef,
  type EdgeDef,
  type GraphDef,
  type NodeDef,
  type StateDef,
} from '../domain/graph/graph.schema.ts';
import type { EngineEvent, EventType } from '../domain/protocol/protocol.ts';
import { createRun, type EngineRunExt } from './createRun.ts';
import type { RunOptions } from './run.api.ts';
import { createRegistry, type NodeRegistry } from './registry.ts';

export function node(id: string, type: string, config: Record<string, unknown> = {}): NodeDef {
  return { id, type, label: id, position: { x: 0, y: 0 }, config };
}

let edgeSeq = 0;
/** `edge('a.out', 'b.in')`; a missing handle is "". */
export function edge(from: string, to: string, id?: string): EdgeDef {
  const [source, sourceHandle = ''] = from.split('.') as [string, string?];
  const [target, targetHandle = ''] = to.split('.') as [string, string?];
  return { id: id ?? `e${++edgeSeq}`, source, target, sourceHandle, targetHandle };
}

export function slot(type: string, extra: Partial<StateDef> = {}): StateDef {
  return { type, value_type: 'ANY', config: {}, lifetime: 'forever', reset_on: [], ...extra };
}

export function container(id: string, states: Record<string, StateDef>): ContainerDef {
  return { id, label: id, position: { x: 0, y: 0 }, states };
}

export function grant(nodeId: string, containerId: string): AccessGrantDef {
  return { id: `ag_${nodeId}_${containerId}`, node_id: nodeId, container_id: containerId };
}

export function graph(parts: Partial<GraphDef>): GraphDef {
  return { ...emptyGraph('test'), eval_graph: false, ...parts };
}

/** iterIn/iterOut pair with the given carry ports and init ports. */
export function loop(
  inId: string,
  outId: string,
  carries: { name: string; persist?: boolean; required?: boolean }[],
  initPorts: { name: string; persist?: boolean }[] = [],
  extra: Record<string, unknown> = {},
): NodeDef[] {
  return [
    node(inId, 'iterIn', { version: 3, pairedWith: outId, initPorts, ...extra }),
    node(outId, 'iterOut', { pairedWith: inId, ports: carries }),
  ];
}

export type DataOf<T extends EventType> = Extract<EngineEvent, { type: T }>['data'];

export interface Collected {
  events: EngineEvent[];
  of<T extends EventType>(type: T): DataOf<T>[];
}

function pick<T extends EventType>(events: readonly EngineEvent[], type: T): DataOf<T>[] {
  return events.filter((e) => e.type === type).map((e) => e.data as DataOf<T>);
}

export function collector(): Collected & { sink: (e: EngineEvent) => void } {
  const events: EngineEvent[] = [];
  return {
    events,
    sink: (e) => void events.push(e),
    of: (type) => pick(events, type),
  };
}

/** Runs to completion (or `maxSteps` root steps). */
export async function runAll(
  g: GraphDef,
  options: Partial<RunOptions> = {},
  maxSteps = 100_000,
): Promise<{ run: EngineRunExt } & Collected> {
  const c = collector();
  const run = createRun(g, { runId: 'test', now: () => 0, ...options }, c.sink);
  for (let i = 0; i < maxSteps; i++) if ((await run.stepOnce()).done) break;
  return { run, events: c.events, of: c.of };
}

/**
 * Built-ins plus small probe types for executor tests:
 * - `pass` (input `value`, output `value`), optional input `trigger`;
 * - `stopAt {n}`: outputs `value` and `stop = value >= n` (input `value`, a number);
 * - `boom {message}`: throws; `softFail`: returns {error} and declares an `error` output port;
 * - `inc`: outputs value + 1 (input `value`).
 */
export function testRegistry(): NodeRegistry {
  const reg = createRegistry();
  const p = (name: string, optional = true) => ({ name, wire_type: 'ANY', optional });
  reg.register(
    {
      type: 'pass',
      display_name: 'pass',
      input_ports: [p('value'), p('trigger')],
      output_ports: [p('value')],
    },
    (i) => ({ value: i.value ?? i.trigger ?? null }),
  );
  reg.register(
    { type: 'inc', display_name: 'inc', input_ports: [p('value', false)], output_ports: [p('value')] },
    (i) => ({ value: Number(i.value) + 1 }),
  );
  reg.register(
    {
      type: 'stopAt',
      display_name: 'stopAt',
      input_ports: [p('value', false)],
      output_ports: [p('value'), p('stop')],
    },
    (i, ctx) => ({
      value: i.value,
      stop: Number(i.value) >= Number(ctx.node.config.n),
    }),
  );
  reg.register(
    { type: 'boom', display_name: 'boom', input_ports: [p('value')], output_ports: [p('value')] },
    (_i, ctx) => {
      throw new Error(String(ctx.node.config.message ?? 'boom'));
    },
  );
  reg.register(
    {
      type: 'softFail',
      display_name: 'softFail',
      input_ports: [p('value')],
      output_ports: [p('value'), p('error')],
    },
    () => ({ error: 'soft failure' }),
  );
  reg.register(
    { type: 'errResult', display_name: 'errResult', input_ports: [p('value')], output_ports: [p('value')] },
    () => ({ error: 'returned error' }),
  );
  reg.register(
    { type: 'failAt', display_name: 'failAt', input_ports: [p('value', false)], output_ports: [p('value')] },
    (i, ctx) => {
      if (Number(i.value) >= Number(ctx.node.config.n)) throw new Error(`failed at ${String(i.value)}`);
      return { value: i.value };
    },
  );
  return reg;
}

/**
 * The structural-sharing workload (checkpoint test and engine bench): one loop of `steps` root
 * steps whose `painter` node rewrites one cell of a rows × cols map slot per step, replacing only
 * that row and the outer array. `initial` is the map's starting value (all zeros).
 */
export function paintedMap(
  steps: number,
  rows = 100,
  cols = 500,
): { graph: GraphDef; registry: NodeRegistry; initial: number[][] } {
  const initial = Array.from({ length: rows }, () => Array.from({ length: cols }, () => 0));
  const registry = createRegistry();
  registry.register(
    {
      type: 'painter',
      display_name: 'painter',
      input_ports: [{ name: 'step', wire_type: 'ANY', optional: false }],
      output_ports: [{ name: 'done', wire_type: 'ANY' }],
    },
    (i, ctx) => {
      const world = ctx.container('world');
      const map = world.read('map') as readonly (readonly number[])[];
      const s = Number(i.step);
      const r = s % rows;
      const row = [...map[r]!];
      row[(s * 7) % cols] = (row[(s * 7) % cols]! + 1) % 10;
      world.write(
        'map',
        map.map((old, k) => (k === r ? row : old)),
      );
      return { done: s };
    },
  );
  const g = graph({
    step_budget: steps,
    nodes: [...loop('in', 'out', [{ name: 'v' }]), node('paint', 'painter')],
    edges: [edge('in.step', 'paint.step'), edge('paint.done', 'out.v')],
    containers: [
      container('world', {
        map: slot('lastWrite', { value_type: 'OCCUPANCY_MAP', config: { initial_value: initial } }),
      }),
    ],
    access_grants: [grant('paint', 'world')],
  });
  return { graph: g, registry, initial };
}
