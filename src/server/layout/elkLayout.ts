// Auto-layout (docs/reference-system.md §1.12): ELK's layered algorithm left→right for the flow nodes, then the
// state containers in a row below the flow, each near the mean x of the nodes granted to it (so a
// container sits under its users), pushed apart so boxes never overlap. Long edges get waypoints.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { GRAPH_STATE_ID } from '../../domain/graph/graph.schema.ts';

export type Dimensions = Record<string, { width: number; height: number }>;
export type LaidOutGraph = Omit<GraphDef, 'edges'> & {
  edges: Array<GraphDef['edges'][number] & { waypoints?: Array<{ x: number; y: number }> }>;
};

const DEFAULT_NODE = { width: 220, height: 120 };
const DEFAULT_CONTAINER = { width: 240, height: 140 };
const LAYER_SPACING = 280;
const IN_LAYER_SPACING = 160;
const CONTAINER_GAP_Y = 160;
const CONTAINER_GAP_X = 40;

const elk = new ELK();

/**
 * The largest graph `/api/graphs/layout` accepts. ELK is recursive (a 7,000-node chain overflows
 * the stack) and runs on the server's only thread (a 1,000-node chain takes ~1 s; long edges cost
 * far more), so bigger graphs get 413 `graph-too-large` instead of a 500 or a stalled server.
 */
export const LAYOUT_LIMITS = { nodes: 2000, edges: 6000 } as const;

export class LayoutTooLargeError extends Error {}

/** Throws LayoutTooLargeError naming the count that is over LAYOUT_LIMITS. */
export function assertLayoutSize(graph: Pick<GraphDef, 'nodes' | 'edges'>): void {
  if (graph.nodes.length > LAYOUT_LIMITS.nodes)
    throw new LayoutTooLargeError(
      `auto-layout handles at most ${LAYOUT_LIMITS.nodes} nodes; this graph has ${graph.nodes.length}`,
    );
  if (graph.edges.length > LAYOUT_LIMITS.edges)
    throw new LayoutTooLargeError(
      `auto-layout handles at most ${LAYOUT_LIMITS.edges} edges; this graph has ${graph.edges.length}`,
    );
}

export async function layoutGraph(graph: GraphDef, dims: Dimensions): Promise<LaidOutGraph> {
  const ids = new Set(graph.nodes.map((n) => n.id));
  const size = (id: string, fallback: { width: number; height: number }) => dims[id] ?? fallback;
  const root: ElkNode = {
    id: '__root__',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.layered.spacing.nodeNodeBetweenLayers': String(LAYER_SPACING - DEFAULT_NODE.width / 2),
      'elk.spacing.nodeNode': String(IN_LAYER_SPACING - DEFAULT_NODE.height / 2),
      'elk.edgeRouting': 'ORTHOGONAL',
    },
    children: graph.nodes.map((n) => ({ id: n.id, ...size(n.id, DEFAULT_NODE) })),
    edges: graph.edges
      .filter((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target)
      .map((e): ElkExtendedEdge => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
  assertLayoutSize(graph);
  let out: ElkNode;
  try {
    out = await elk.layout(root);
  } catch (err) {
    // A shape within the limits that still recurses too deep is the same answer, not a crash.
    if (err instanceof RangeError)
      throw new LayoutTooLargeError(`the graph is too deep to lay out automatically (${err.message})`);
    throw err;
  }
  const pos = new Map(
    (out.children ?? []).map((c) => [c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) }]),
  );
  const waypoints = new Map<string, Array<{ x: number; y: number }>>();
  for (const e of (out.edges ?? []) as ElkExtendedEdge[]) {
    const bends = (e.sections ?? []).flatMap((s) => s.bendPoints ?? []);
    if (bends.length > 0)
      waypoints.set(
        e.id,
        bends.map((b) => ({ x: Math.round(b.x), y: Math.round(b.y) })),
      );
  }

  const nodes = graph.nodes.map((n) => ({ ...n, position: pos.get(n.id) ?? n.position }));
  const bottom = Math.max(0, ...nodes.map((n) => n.position.y + size(n.id, DEFAULT_NODE).height));
  const centerX = (id: string) => (pos.get(id)?.x ?? 0) + size(id, DEFAULT_NODE).width / 2;

  // Desired x per container = mean centre of its granted nodes; ungranted ones go to the right end.
  const drawn = graph.containers.filter((c) => c.id !== GRAPH_STATE_ID);
  let nextFree = Math.max(0, ...nodes.map((n) => n.position.x + size(n.id, DEFAULT_NODE).width));
  const wanted = drawn.map((c) => {
    const users = graph.access_grants
      .filter((g) => g.container_id === c.id && pos.has(g.node_id))
      .map((g) => centerX(g.node_id));
    const w = size(c.id, DEFAULT_CONTAINER).width;
    let x: number;
    if (users.length > 0) x = users.reduce((a, b) => a + b, 0) / users.length - w / 2;
    else {
      x = nextFree + CONTAINER_GAP_X;
      nextFree = x + w;
    }
    return { id: c.id, x, w };
  });
  // Sweep left→right keeping order by desired x and pushing right on overlap.
  const placed = new Map<string, number>();
  let cursor = -Infinity;
  for (const c of [...wanted].sort((a, b) => a.x - b.x)) {
    const x = Math.max(c.x, cursor);
    placed.set(c.id, Math.round(x));
    cursor = x + c.w + CONTAINER_GAP_X;
  }
  const containers = graph.containers.map((c) =>
    placed.has(c.id)
      ? { ...c, position: { x: placed.get(c.id) ?? 0, y: Math.round(bottom + CONTAINER_GAP_Y) } }
      : c,
  );
  const edges = graph.edges.map((e) => (waypoints.has(e.id) ? { ...e, waypoints: waypoints.get(e.id) } : e));
  return { ...graph, nodes, containers, edges };
}
