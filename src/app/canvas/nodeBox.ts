// Geometry of the zoomed-out node box (level of detail). The box stands in for a graph node's whole
// body with one element, so its height and the vertical position of each wired handle follow the
// full node's rows: edges attach where the port rows are, and zooming in moves them by a few pixels
// at most (React Flow re-measures the full node and redraws its edges).
import type { NodePorts } from '../store/derived.ts';

/** Full-detail header height (3 px colour bar, 4 px padding twice, one 11 px line) plus borders. */
export const HEADER_PX = 28;
/** Vertical padding of the port grid, top and bottom. */
export const PORTS_PAD_PX = 4;
/** One port row (h-5). */
export const ROW_PX = 20;
/** The box's colour bar (canvas.css .sw-node-box border-top-width): absolute tops start below it. */
export const BOX_TOP_BORDER_PX = 6;
/** Full-detail nodes are at least this wide (min-w-[170px]); the box uses the same width. */
export const BOX_WIDTH_PX = 170;

/** Rows the port grid needs: inputs and outputs sit in two independent columns. */
export function portRows(ports: Pick<NodePorts, 'inputs' | 'outputs'>): number {
  return Math.max(ports.inputs.length, ports.outputs.length);
}

/** Height of the box: the full node's header and port grid (extra rows such as a viewer line excluded). */
export function boxHeight(ports: Pick<NodePorts, 'inputs' | 'outputs'>): number {
  return HEADER_PX + 2 * PORTS_PAD_PX + Math.max(1, portRows(ports)) * ROW_PX;
}

/** Centre of port row `index` from the node's top edge, as at full detail. */
export function rowCentreY(index: number): number {
  return HEADER_PX + PORTS_PAD_PX + index * ROW_PX + ROW_PX / 2;
}

/** CSS top of a box anchor for row `index` (absolute positions start inside the top border). */
export function anchorTop(index: number): number {
  return rowCentreY(index) - BOX_TOP_BORDER_PX;
}

/**
 * Font size (flow px) of a box's label at `zoom`: large enough to be ~9 screen px, in 4 px steps so
 * zooming restyles the boxes only now and then, and capped so a short label still fits the box.
 */
export function boxFontPx(zoom: number): number {
  const want = 9 / Math.max(zoom, 0.01);
  return Math.min(44, Math.max(12, Math.ceil(want / 4) * 4));
}
