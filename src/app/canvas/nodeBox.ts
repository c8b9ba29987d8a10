// Geometry of the zoomed-out node box (level of detail). The box stands in for a graph node's whole
// body with one element, so its height and the vertical position of each wired handle follow the
// full node's rows: edges attach where the port rows are, and zooming in moves them by a few pixels
// at most (React Flow re-measures the full node and redraws its edges).
import type { NodePorts } from '../store/derived.ts';

/**
 * Full-detail header height: canvas.css gives .sw-node-head exactly this height (3 px colour bar,
 * 4 px padding twice, a 16 px line, 1 px border), so the rows below it do not move with the font.
 */
export const HEADER_PX = 28;
/** The full node's own border (border, 1 px): its header and rows start below it. */
export const NODE_BORDER_PX = 1;
/** Vertical padding of the port grid, top and bottom. */
export const PORTS_PAD_PX = 4;
/** One port row (h-5). */
export const ROW_PX = 20;
/** Full-detail nodes are at least this wide (min-w-[170px]); the box uses the same width. */
export const BOX_WIDTH_PX = 170;
/** A box anchor's side (canvas.css .sw-box-anchor: 1 px, centred on its spot by React Flow's CSS). */
export const ANCHOR_PX = 1;

/** Rows the port grid needs: inputs and outputs sit in two independent columns. */
export function portRows(ports: Pick<NodePorts, 'inputs' | 'outputs'>): number {
  return Math.max(ports.inputs.length, ports.outputs.length);
}

/** Height of the box: the full node's header and port grid (extra rows such as a viewer line excluded). */
export function boxHeight(ports: Pick<NodePorts, 'inputs' | 'outputs'>): number {
  return 2 * NODE_BORDER_PX + HEADER_PX + 2 * PORTS_PAD_PX + Math.max(1, portRows(ports)) * ROW_PX;
}

/** Centre of port row `index` from the node's top edge, as at full detail. */
export function rowCentreY(index: number): number {
  return NODE_BORDER_PX + HEADER_PX + PORTS_PAD_PX + index * ROW_PX + ROW_PX / 2;
}

/**
 * CSS top of a box anchor for row `index`. The anchors are positioned in React Flow's node wrapper
 * (the box is not positioned), whose top is the box's outer top, so this is the row centre itself.
 */
export function anchorTop(index: number): number {
  return rowCentreY(index);
}

/**
 * Font size (flow px) of a box's label at `zoom`: large enough to be ~9 screen px, in 4 px steps so
 * zooming restyles the boxes only now and then, and capped so a short label still fits the box.
 */
export function boxFontPx(zoom: number): number {
  const want = 9 / Math.max(zoom, 0.01);
  return Math.min(44, Math.max(12, Math.ceil(want / 4) * 4));
}

/** Wired handle keys of a box (detail.ts wiredHandles): `i:<name>`, `o:<name>`, `s`; `*` = all. */
type Wired = string;

/** One handle a box draws: which port, and where (`row` of the port column; the state handle has none). */
export interface BoxAnchor {
  key: string;
  id: string;
  type: 'source' | 'target';
  side: 'left' | 'right' | 'bottom';
  row: number;
}

/**
 * The handles a box draws, in render order: only the wired ones, at their port's row. NodeBox.tsx
 * renders exactly this list and boxHandleRects places it, so what React Flow is told before the first
 * measurement and what it then measures come from one place.
 */
export function boxAnchors(
  ports: Pick<NodePorts, 'inputs' | 'outputs'>,
  wired: Wired,
  stateVisible: boolean,
  stateHandleId: string,
): BoxAnchor[] {
  const keys = wired === '*' ? null : new Set(wired.split(','));
  const shows = (key: string) => keys === null || keys.has(key);
  const out: BoxAnchor[] = [];
  ports.inputs.forEach((p, row) => {
    if (shows(`i:${p.name}`)) out.push({ key: `i:${p.name}`, id: p.name, type: 'target', side: 'left', row });
  });
  ports.outputs.forEach((p, row) => {
    if (shows(`o:${p.name}`))
      out.push({ key: `o:${p.name}`, id: p.name, type: 'source', side: 'right', row });
  });
  if (stateVisible && shows('s'))
    out.push({ key: 's', id: stateHandleId, type: 'source', side: 'bottom', row: -1 });
  return out;
}

/**
 * Where React Flow measures an anchor, relative to the node's top-left corner (flow px). The anchors
 * are positioned in the node wrapper (the box itself is not positioned): a side anchor's top is
 * anchorTop(row), the bottom one sits on the bottom edge; React Flow's handle CSS centres each on
 * its spot (translate ±50 %), hence the half-pixel offsets.
 */
export function anchorRect(
  a: Pick<BoxAnchor, 'side' | 'row'>,
  height: number,
): { x: number; y: number; width: number; height: number } {
  const half = ANCHOR_PX / 2;
  const size = { width: ANCHOR_PX, height: ANCHOR_PX };
  if (a.side === 'bottom') return { x: BOX_WIDTH_PX / 2 - half, y: height - half, ...size };
  const y = anchorTop(a.row) - half;
  return { x: a.side === 'left' ? -half : BOX_WIDTH_PX - half, y, ...size };
}
