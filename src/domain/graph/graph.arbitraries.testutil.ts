// fast-check arbitraries for graph documents: valid normalized GraphDefs (every reducer, lifetime,
// grants, hooks, nested subgraphs) and malformed JSON-ish inputs derived from them.
import fc from 'fast-check';
import {
  LIFETIMES,
  REDUCERS,
  type AccessGrantDef,
  type ContainerDef,
  type EdgeDef,
  type GraphDef,
  type HookDef,
  type NodeDef,
  type StateDef,
} from './graph.schema.ts';
import { withSynthesizedPorts } from '../flow/loopPorts.ts';

/** JSON values as a file would hold them (no -0: JSON cannot write it). */
export const json = fc
  .jsonValue({ maxDepth: 3, stringUnit: 'binary' })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const text = fc.string({ unit: 'binary', maxLength: 12 });
const id = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
);
const num = fc
  .oneof(
    fc.integer({ min: -5000, max: 5000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  )
  .map((n) => n + 0);
const position = fc.record({ x: num, y: num });
const configDict = fc
  .dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 4 })
  .map((c) => JSON.parse(JSON.stringify(c)) as Record<string, unknown>);

const stateArb: fc.Arbitrary<StateDef> = fc.record({
  type: fc.oneof(fc.constantFrom(...REDUCERS), fc.constantFrom('ephemeral', 'weird')),
  value_type: fc.constantFrom('TEXT', 'ANY', 'BOOL', 'IMAGE', 'CUSTOM_T'),
  config: fc
    .record(
      {
        initial_value: json,
        max_size: fc.integer({ min: 1, max: 50 }),
        fields: fc.dictionary(
          fc.string({ maxLength: 5 }),
          fc.constantFrom('accumulator', 'lastWrite', 'union'),
        ),
      },
      { requiredKeys: [] },
    )
    .map((c) => JSON.parse(JSON.stringify(c)) as StateDef['config']),
  lifetime: fc.oneof(fc.constantFrom(...LIFETIMES), fc.constant('weekly')),
  reset_on: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
});

const containerArb: fc.Arbitrary<ContainerDef> = fc.record({
  id,
  label: text,
  position,
  states: fc
    .dictionary(fc.string({ maxLength: 8 }), stateArb, { maxKeys: 4 })
    .map((s) => Object.fromEntries(Object.entries(s))),
});

const hookArb: fc.Arbitrary<HookDef> = fc
  .record({
    event: fc.constantFrom('PreNodeExecute', 'PostNodeExecute', 'GraphStart', 'GraphComplete', 'GraphError'),
    command: text,
    match_node_type: fc.constantFrom('*', 'llm*', 'iterIn'),
    match_node_id: fc.option(id, { nil: undefined }),
    timeout_ms: fc.integer({ min: 1, max: 60000 }),
    enabled: fc.boolean(),
  })
  .map(({ match_node_id, ...h }) => (match_node_id ? { ...h, match_node_id } : h));

const NODE_TYPES = [
  'iterIn',
  'iterOut',
  'llmCall',
  'textParse',
  'graphOut',
  'graphIn',
  'note',
  'nav__planner',
  'unknown',
  'compositeNode',
];

function graphArb(depth: number): fc.Arbitrary<GraphDef> {
  const nodeArb: fc.Arbitrary<NodeDef> = fc
    .record({
      id,
      type: fc.constantFrom(...NODE_TYPES),
      label: text,
      position,
      config: configDict,
      subgraph:
        depth > 0 ? fc.option(graphArb(depth - 1), { nil: undefined, freq: 4 }) : fc.constant(undefined),
      pair: fc.option(id, { nil: undefined }),
      ports: fc.array(
        fc.record(
          {
            name: fc.string({ minLength: 1, maxLength: 5 }),
            wire_type: fc.constantFrom('TEXT', 'ANY', 'LIST[TEXT]'),
            persist: fc.boolean(),
          },
          { requiredKeys: ['name'] },
        ),
        { maxLength: 2 },
      ),
    })
    .map(({ subgraph, pair, ports, ...n }) => {
      const config = { ...n.config };
      if (n.type === 'iterIn' || n.type === 'iterOut') {
        if (pair) config.pairedWith = pair;
        config[n.type === 'iterIn' ? 'initPorts' : 'ports'] = ports;
      }
      const node: NodeDef = { ...n, config };
      if (subgraph) node.subgraph = subgraph;
      return node;
    });
  return fc
    .record({
      name: text,
      description: text,
      nodes: fc.array(nodeArb, { maxLength: depth > 0 ? 6 : 3 }),
      edgeSeeds: fc.array(
        fc.record({
          id,
          s: fc.nat(),
          t: fc.nat(),
          sh: fc.string({ maxLength: 8 }),
          th: fc.string({ maxLength: 8 }),
          dangling: fc.boolean(),
        }),
        { maxLength: 6 },
      ),
      containers: fc.array(containerArb, { maxLength: 3 }),
      grantSeeds: fc.array(fc.record({ id, n: fc.nat(), c: fc.nat(), dangling: fc.boolean() }), {
        maxLength: 4,
      }),
      hooks: fc.array(hookArb, { maxLength: 2 }),
      step_budget: fc.option(fc.integer({ min: 0, max: 10000 }), { nil: null }),
      eval_graph: fc.boolean(),
      kind: fc.constantFrom('graph' as const, 'node' as const),
      group: fc.oneof(fc.constant(''), text),
      presetId: fc.option(text, { nil: null }),
    })
    .map(({ edgeSeeds, grantSeeds, ...g }) => {
      const nodeId = (k: number, dangling: boolean) =>
        g.nodes.length === 0 || dangling ? `ghost_${k}` : g.nodes[k % g.nodes.length]!.id;
      const edges: EdgeDef[] = edgeSeeds.map((e) => ({
        id: e.id,
        source: nodeId(e.s, e.dangling),
        target: nodeId(e.t, false),
        sourceHandle: e.sh,
        targetHandle: e.th,
      }));
      const access_grants: AccessGrantDef[] = grantSeeds.map((a) => ({
        id: a.id,
        node_id: nodeId(a.n, a.dangling),
        container_id:
          g.containers.length === 0 || a.dangling
            ? 'ghost_container'
            : g.containers[a.c % g.containers.length]!.id,
      }));
      return { ...g, edges, access_grants };
    });
}

/** Valid graphs as a load leaves them (iterIn ports synthesized), with up to two levels of subgraphs. */
export const validGraph: fc.Arbitrary<GraphDef> = graphArb(2).map(withSynthesizedPorts);

type Slot = { get: () => unknown; set: (v: unknown) => void };

/** Every place in a JSON tree a value could be replaced. */
function slots(root: unknown): Slot[] {
  const out: Slot[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v))
      v.forEach((x, i) => (out.push({ get: () => v[i], set: (n) => (v[i] = n) }), walk(x)));
    else if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
      // Only plain JSON objects: values inserted by earlier edits (boxed strings, Maps…) stay opaque.
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        out.push({ get: () => o[k], set: (n) => (o[k] = n) });
        walk(o[k]);
      }
    }
  };
  walk(root);
  return out;
}

/** A valid graph's canonical JSON with a few values replaced by anything (incl. non-JSON values). */
export const corruptedGraph: fc.Arbitrary<unknown> = fc
  .tuple(
    validGraph,
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.anything({
          maxDepth: 2,
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withSparseArray: true,
          withBigInt: true,
          withDate: true,
          withTypedArray: true,
        }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([g, edits]) => {
    const doc = JSON.parse(JSON.stringify(g)) as unknown;
    for (const [k, value] of edits) {
      const all = slots(doc);
      if (all.length > 0) all[k % all.length]!.set(value);
    }
    return doc;
  });
