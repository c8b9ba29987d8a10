// A query over a whole batch: every (episode, step) where a condition holds, answered from the
// stored logs (no episode is run again). The condition is the debugger's breakpoint grammar
// (debug/breakpoints.ts, parseBreakExpression) — one grammar for `--break`, `statewire query` and
// the Batches query box — read over a step's stored state rather than a live event:
//  - `container.slot[.path] OP value` holds at step N when the slot's value in step N's snapshot (the
//    nav_step, taken before the step's step_end clear, as graph tests read it) meets the condition;
//    for a keyed slot each partition is checked, as a breakpoint checks a keyed write's partition,
//    and the hit names the partitions that meet it;
//  - `[write] container.slot [by NODE]` holds at step N when step N wrote the slot (by that node);
//  - `clear container.slot` holds at step N when the slot (or a partition) was cleared at step N: by a
//    signal after nav_step N−1 or by nav_step N's `cleared`, trailing clears (run_end) counting for
//    the last step — the rule of graph tests (graphtest/evaluate.ts, StepRecorder).
// A store reads only what a query needs (`queryPlan`): one slot of each nav_step, the few fields of
// each state write, or the clear lists — a batch of 1,000 episodes × 50 steps is 50,000 snapshots.
import type { Breakpoint } from '../debug/breakpoints.ts';
import { describeBreakpoint, meets, parseBreakExpression, valueAtPath } from '../debug/breakpoints.ts';
import type { GraphDef } from '../graph/graph.schema.ts';
import { StepRecorder } from '../graphtest/evaluate.ts';
import type { ClearedRef, SlotSnapshot } from '../protocol/protocol.ts';

/** The conditions a batch query can ask (a node breakpoint has no meaning over stored state). */
export type BatchQuery = Exclude<Breakpoint, { kind: 'node' }>;

/** A path of object keys into an event's data. */
export type DataPath = readonly string[];

/** The events of one type a query reads, reduced to the values at `paths`. */
export interface EventProjection {
  type: 'nav_step' | 'state_written' | 'signal';
  paths: readonly DataPath[];
}

/** One event of a projection: its seq and the value at each path (undefined where absent). */
export interface ProjectedEvent {
  seq: number;
  values: unknown[];
}

export interface QueryHit {
  step: number;
  /** Partitions that met the condition, were written or cleared (empty: the slot as a whole). */
  keys: string[];
  /** Nodes that wrote the slot at this step (write queries). */
  nodes: string[];
  /** The value the condition looked at (match queries; the first partition that met it). */
  value?: unknown;
}

export function parseQuery(text: string): { ok: true; query: BatchQuery } | { ok: false; error: string } {
  const bp = parseBreakExpression(text, 'query');
  if ('error' in bp) return { ok: false, error: bp.error };
  if (bp.kind === 'node') return { ok: false, error: 'a node condition cannot be asked of stored steps' };
  return { ok: true, query: bp };
}

export const describeQuery = (q: BatchQuery): string => describeBreakpoint(q);

function containersOf(graph: GraphDef): GraphDef['containers'] {
  return [...graph.containers, ...graph.nodes.flatMap((n) => (n.subgraph ? containersOf(n.subgraph) : []))];
}

function nodeIdsOf(graph: GraphDef): string[] {
  return graph.nodes.flatMap((n) => [n.id, ...(n.subgraph ? nodeIdsOf(n.subgraph) : [])]);
}

/** Why a query cannot match anything the batch's graph has (a misspelt container, slot or node), else null. */
export function queryProblem(q: BatchQuery, graph: GraphDef): string | null {
  const containers = containersOf(graph);
  const c = containers.find((x) => x.id === q.container);
  if (!c)
    return `the batch's graph has no container '${q.container}' (containers: ${containers.map((x) => x.id).join(', ') || 'none'})`;
  if (!Object.hasOwn(c.states, q.slot))
    return `container '${q.container}' has no slot '${q.slot}' (slots: ${Object.keys(c.states).join(', ') || 'none'})`;
  if (q.kind === 'write' && q.by !== undefined && !nodeIdsOf(graph).includes(q.by))
    return `the batch's graph has no node '${q.by}'`;
  return null;
}

/** What a store must read for `q`, in the order `evaluateEpisode` takes it. */
export function queryPlan(q: BatchQuery): EventProjection[] {
  switch (q.kind) {
    case 'match':
      return [{ type: 'nav_step', paths: [['step'], ['containers', q.container, 'states', q.slot]] }];
    case 'write':
      return [{ type: 'state_written', paths: [['step'], ['container'], ['slot'], ['node_id'], ['key']] }];
    case 'clear':
      return [
        { type: 'signal', paths: [['cleared']] },
        { type: 'nav_step', paths: [['step'], ['cleared']] },
      ];
  }
}

const asRefs = (v: unknown): ClearedRef[] => (Array.isArray(v) ? (v as ClearedRef[]) : []);

function matchHits(q: Extract<BatchQuery, { kind: 'match' }>, steps: readonly ProjectedEvent[]): QueryHit[] {
  const out: QueryHit[] = [];
  for (const { values } of steps) {
    const [step, slot] = values as [number, SlotSnapshot | undefined];
    if (typeof step !== 'number' || !slot) continue;
    if (slot.keyed) {
      const keys: string[] = [];
      let first: unknown;
      for (const [key, partition] of Object.entries(slot.keyed)) {
        const v = valueAtPath(partition, q.path);
        if (!meets(v, q.op, q.value)) continue;
        if (keys.length === 0) first = v;
        keys.push(key);
      }
      if (keys.length > 0) out.push({ step, keys, nodes: [], value: first });
    } else {
      const v = valueAtPath(slot.value, q.path);
      if (meets(v, q.op, q.value)) out.push({ step, keys: [], nodes: [], value: v });
    }
  }
  return out;
}

/** One hit per step, in step order (events arrive in seq order; a restore may revisit a step). */
function byStep(): { hit(step: number): QueryHit; all(): QueryHit[] } {
  const m = new Map<number, QueryHit>();
  return {
    hit(step) {
      let h = m.get(step);
      if (!h) m.set(step, (h = { step, keys: [], nodes: [] }));
      return h;
    },
    all: () => [...m.values()].sort((x, y) => x.step - y.step),
  };
}

const pushNew = (list: string[], v: string) => void (list.includes(v) ? undefined : list.push(v));

function writeHits(q: Extract<BatchQuery, { kind: 'write' }>, writes: readonly ProjectedEvent[]): QueryHit[] {
  const hits = byStep();
  for (const { values } of writes) {
    const [step, container, slot, node, key] = values as [number, string, string, string, string?];
    if (container !== q.container || slot !== q.slot || typeof step !== 'number') continue;
    if (q.by !== undefined && node !== q.by) continue;
    const h = hits.hit(step);
    pushNew(h.nodes, node);
    if (typeof key === 'string') pushNew(h.keys, key);
  }
  return hits.all();
}

function clearHits(
  q: Extract<BatchQuery, { kind: 'clear' }>,
  signals: readonly ProjectedEvent[],
  navSteps: readonly ProjectedEvent[],
): QueryHit[] {
  const recorder = new StepRecorder();
  const merged = [
    ...signals.map((e) => ({ seq: e.seq, nav: false, values: e.values })),
    ...navSteps.map((e) => ({ seq: e.seq, nav: true, values: e.values })),
  ].sort((x, y) => x.seq - y.seq);
  for (const e of merged)
    if (!e.nav)
      recorder.add({ type: 'signal', data: { signal: '', scope: '', cleared: asRefs(e.values[0]) } });
    else if (typeof e.values[0] === 'number')
      recorder.add({
        type: 'nav_step',
        data: {
          step: e.values[0],
          containers: {},
          nodeStates: {},
          features: {},
          cleared: asRefs(e.values[1]),
          outputs: {},
          done: false,
        },
      });
  const hits = byStep();
  for (const rec of recorder.steps())
    for (const r of rec.cleared) {
      if (r.container !== q.container || r.slot !== q.slot) continue;
      const h = hits.hit(rec.step);
      if (r.key !== undefined) pushNew(h.keys, r.key);
    }
  return hits.all();
}

/** The steps of one episode where `q` holds, from the projections `queryPlan(q)` asked for. */
export function evaluateEpisode(
  q: BatchQuery,
  projected: readonly (readonly ProjectedEvent[])[],
): QueryHit[] {
  switch (q.kind) {
    case 'match':
      return matchHits(q, projected[0] ?? []);
    case 'write':
      return writeHits(q, projected[0] ?? []);
    case 'clear':
      return clearHits(q, projected[0] ?? [], projected[1] ?? []);
  }
}

/** The value at a path of object keys (list indexes as strings); undefined when a key is absent. */
export function valueAtKeys(data: unknown, path: DataPath): unknown {
  let v: unknown = data;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** Projects a whole event's data (as a store without a projecting read does): the values at `paths`. */
export function projectEvent(data: unknown, paths: readonly DataPath[]): unknown[] {
  return paths.map((path) => valueAtKeys(data, path));
}
