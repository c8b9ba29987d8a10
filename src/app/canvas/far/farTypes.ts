// What the far view's drawing takes and gives (farDraw.ts, farEdges.ts), and the part of the canvas
// 2D context it uses.
import type { RunState } from './farStyle.ts';

/** What an item shows besides its geometry (farLooks.ts reads it from the editor store). */
export interface FarLook {
  label: string;
  /** The node type's colour (its colour bar). */
  color: string | undefined;
  mark: 'error' | 'warning' | undefined;
  composite: boolean;
}

/** The viewport of the drawn area: transform and size, screen px. */
export interface FarView {
  tx: number;
  ty: number;
  k: number;
  width: number;
  height: number;
}

export interface FarFrame {
  /** Selected flow ids (items and edges). */
  selected: ReadonlySet<string>;
  hovered: number;
  /** Items related to the hovered one through grants (hoverRelations.ts). */
  related: ReadonlySet<number>;
  /** A graph node's run status in the followed run (useNodeRunStatus.ts's rule). */
  status: (defId: string) => RunState | undefined;
  /** The graph node a breakpoint stopped at. */
  breakpoint: string | null;
  /** Items being dragged and by how much (flow px). */
  drag: { items: Iterable<number>; offset(i: number): readonly [number, number] | undefined } | null;
}

export interface FarStats {
  /** Graph nodes (and notes) drawn. */
  nodes: number;
  /** Screen px of every label drawn. */
  labelPx: number[];
}

/** The subset of CanvasRenderingContext2D the far view uses (a recording fake in the unit tests). */
export type Ctx2D = Pick<
  CanvasRenderingContext2D,
  | 'beginPath'
  | 'rect'
  | 'moveTo'
  | 'lineTo'
  | 'bezierCurveTo'
  | 'fill'
  | 'stroke'
  | 'fillText'
  | 'measureText'
  | 'save'
  | 'restore'
  | 'clearRect'
  | 'setTransform'
> & {
  fillStyle: CanvasRenderingContext2D['fillStyle'];
  strokeStyle: CanvasRenderingContext2D['strokeStyle'];
  lineWidth: number;
  globalAlpha: number;
  font: string;
  textBaseline: CanvasTextBaseline;
};
