// What the far view draws, in flow coordinates: one item per flow node (its box), one edge per data
// edge and access grant, both taken from the very flow nodes and edges the canvas gives React Flow.
// Far out every graph node and container carries its box geometry as an estimate (nodeEstimate.ts:
// size and anchors), so an edge here starts and ends exactly where React Flow draws it on the DOM
// boxes, and zooming in (DOM nodes again) moves nothing. Edge ends are kept as offsets from their
// item's corner, so a dragged item takes its edges along.
import { Position, type NodeHandle } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../flowMapping.ts';
import { SpatialGrid, type GridRect } from './spatialGrid.ts';

export type FarKind = 'node' | 'container' | 'note';

export interface FarItem extends GridRect {
  flowId: string;
  kind: FarKind;
  /** The graph node's or container's own id. */
  defId: string;
}

export interface FarEdge {
  flowId: string;
  grant: boolean;
  /** Item indices of its two ends. */
  source: number;
  target: number;
  /** Its ends, as offsets from their item's top-left corner. */
  sx: number;
  sy: number;
  tx: number;
  ty: number;
  sourcePosition: Position;
  targetPosition: Position;
  stroke: string;
  /** Flow px, as the SVG edge draws it. */
  width: number;
}

export interface FarScene {
  items: FarItem[];
  byFlowId: Map<string, number>;
  edges: FarEdge[];
  /** Per item, the indices of the edges at it (hover relations, dragging). */
  edgesAt: number[][];
  grid: SpatialGrid;
}

/** A node never measured nor estimated (a note far out) counts this big. */
export const UNKNOWN_SIZE = { width: 200, height: 40 };

function sizeOf(n: FlowNode): { width: number; height: number } {
  const width = n.measured?.width ?? n.width ?? n.initialWidth;
  const height = n.measured?.height ?? n.height ?? n.initialHeight;
  return width && height ? { width, height } : UNKNOWN_SIZE;
}

/** Where React Flow attaches an edge to this handle, relative to the node's corner (getHandlePosition). */
function attachPoint(h: NodeHandle): [number, number] {
  const w = h.width ?? 1;
  const hh = h.height ?? 1;
  switch (h.position) {
    case Position.Top:
      return [h.x + w / 2, h.y];
    case Position.Right:
      return [h.x + w, h.y + hh / 2];
    case Position.Bottom:
      return [h.x + w / 2, h.y + hh];
    default:
      return [h.x, h.y + hh / 2];
  }
}

/** The handle an edge uses: by id, or the node's first of that type when the edge names none. */
function handleOf(
  n: FlowNode,
  type: 'source' | 'target',
  id: string | null | undefined,
): NodeHandle | undefined {
  const of = n.handles?.filter((h) => h.type === type) ?? [];
  return id ? of.find((h) => h.id === id) : of[0];
}

const DATA_STROKE = '#71717a';

export function buildFarScene(nodes: readonly FlowNode[], edges: readonly FlowEdge[]): FarScene {
  const items: FarItem[] = [];
  const byFlowId = new Map<string, number>();
  for (const n of nodes) {
    const { width, height } = sizeOf(n);
    const kind: FarKind = n.type === 'container' ? 'container' : n.type === 'note' ? 'note' : 'node';
    byFlowId.set(n.id, items.length);
    items.push({
      flowId: n.id,
      kind,
      defId: n.data.defId,
      x: n.position.x,
      y: n.position.y,
      w: width,
      h: height,
    });
  }
  const out: FarEdge[] = [];
  const edgesAt: number[][] = items.map(() => []);
  for (const e of edges) {
    const source = byFlowId.get(e.source);
    const target = byFlowId.get(e.target);
    if (source === undefined || target === undefined) continue;
    const sh = handleOf(nodes[source]!, 'source', e.sourceHandle);
    const th = handleOf(nodes[target]!, 'target', e.targetHandle);
    // React Flow draws no edge whose handle it cannot find; neither does the far view.
    if (!sh || !th) continue;
    const [sx, sy] = attachPoint(sh);
    const [tx, ty] = attachPoint(th);
    const style = e.style as { stroke?: string; strokeWidth?: number } | undefined;
    edgesAt[source]!.push(out.length);
    if (target !== source) edgesAt[target]!.push(out.length);
    out.push({
      flowId: e.id,
      grant: e.type === 'grant',
      source,
      target,
      sx,
      sy,
      tx,
      ty,
      sourcePosition: sh.position,
      targetPosition: th.position,
      stroke: style?.stroke ?? DATA_STROKE,
      width: style?.strokeWidth ?? 1.5,
    });
  }
  return { items, byFlowId, edges: out, edgesAt, grid: new SpatialGrid(items) };
}
