// The reference backend's canonical save form (docs/reference-system.md §1.14): fixed key
// order, defaults omitted where the backend omits them, `step_budget`/`eval_graph` always written,
// edge handles always strings, 2-space indentation and a trailing newline.
import type {
  AccessGrantDef,
  ContainerDef,
  EdgeDef,
  GraphDef,
  HookDef,
  NodeDef,
  StateDef,
} from './graph.schema.ts';
import { extensionBlock } from '../routing/routing.format.ts';
import { EXTENSION_KEY } from '../routing/routing.schema.ts';

type Json = unknown;
type JsonObject = Record<string, Json>;

function canonicalState(s: StateDef): JsonObject {
  const out: JsonObject = { type: s.type, value_type: s.value_type };
  if (Object.keys(s.config).length > 0) out.config = s.config;
  if (s.lifetime !== 'forever') out.lifetime = s.lifetime;
  if (s.reset_on.length > 0) out.reset_on = [...s.reset_on];
  return out;
}

function canonicalContainer(c: ContainerDef): JsonObject {
  return {
    id: c.id,
    label: c.label,
    position: { x: c.position.x, y: c.position.y },
    // fromEntries keeps a slot literally named `__proto__` as data.
    states: Object.fromEntries(Object.entries(c.states).map(([name, s]) => [name, canonicalState(s)])),
  };
}

const canonicalGrant = (g: AccessGrantDef): JsonObject => ({
  id: g.id,
  node_id: g.node_id,
  container_id: g.container_id,
});

const canonicalEdge = (e: EdgeDef): JsonObject => ({
  id: e.id,
  source: e.source,
  target: e.target,
  sourceHandle: e.sourceHandle ?? '',
  targetHandle: e.targetHandle ?? '',
});

function canonicalHook(h: HookDef): JsonObject {
  const out: JsonObject = { event: h.event, command: h.command, match_node_type: h.match_node_type };
  if (h.match_node_id) out.match_node_id = h.match_node_id;
  out.timeout_ms = h.timeout_ms;
  out.enabled = h.enabled;
  return out;
}

function canonicalNode(n: NodeDef): JsonObject {
  const out: JsonObject = {
    id: n.id,
    type: n.type,
    label: n.label,
    position: { x: n.position.x, y: n.position.y },
    config: n.config,
  };
  if (n.subgraph) out.subgraph = toCanonicalObject(n.subgraph);
  return out;
}

/** The graph as the plain object the reference backend would write (key order matters). */
export function toCanonicalObject(graph: GraphDef): JsonObject {
  const out: JsonObject = {
    name: graph.name,
    description: graph.description,
    nodes: graph.nodes.map(canonicalNode),
    edges: graph.edges.map(canonicalEdge),
  };
  if (graph.containers.length > 0) out.containers = graph.containers.map(canonicalContainer);
  if (graph.access_grants.length > 0) out.access_grants = graph.access_grants.map(canonicalGrant);
  if (graph.hooks.length > 0) out.hooks = graph.hooks.map(canonicalHook);
  out.step_budget = graph.step_budget;
  out.eval_graph = graph.eval_graph;
  if (graph.kind !== 'graph') out.kind = graph.kind;
  if (graph.group) out.group = graph.group;
  if (graph.presetId !== null && graph.presetId !== undefined) out.presetId = graph.presetId;
  // Statewire routing (features, edge conditions/effects): last, and only when there is any.
  const block = extensionBlock(graph);
  if (block) out[EXTENSION_KEY] = block;
  return out;
}

/** Canonical file text: 2-space indentation, trailing newline. */
export function formatGraph(graph: GraphDef): string {
  return JSON.stringify(toCanonicalObject(graph), null, 2) + '\n';
}
