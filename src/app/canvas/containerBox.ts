// Geometry of the zoomed-out container box (level of detail, detail.ts): one element standing in
// for a container's title bar and slot rows. Its height follows the full container's layout while
// no run has filled the live value lines (those add a line per slot during a run), so zooming in
// or out across LOW_DETAIL_ZOOM moves the grant edges' ends by a few pixels at most. Also the
// container's title, which every level of detail shows (ContainerNode, the far view).
import { GRAPH_STATE_ID } from '../../domain/graph/graph.schema.ts';

/** The dashed border (border-2), top and bottom. */
const BORDER_PX = 2;
/** Title bar: 4 px padding twice, a 16.5 px line (11 px text, line-height 1.5), 1 px rule below. */
const TITLE_PX = 25.5;
/** Padding of the slot list (py-1), top and bottom. */
const BODY_PAD_PX = 4;
/** One slot row without a live value: 2 px padding twice and its 16.5 px line. */
export const SLOT_ROW_PX = 20.5;
/** The "No states defined" line of an empty container. */
const EMPTY_LINE_PX = 16.5;
/** Full-detail containers are at least this wide (min-w-[180px]); the box uses the same width. */
export const CONTAINER_BOX_WIDTH_PX = 180;

/**
 * Height of a container box with `slots` slots: the full container's before a run, rounded up to a
 * whole pixel (the laid-out size React Flow reads is whole, and the box's estimate must equal it).
 */
export function containerBoxHeight(slots: number): number {
  const body = slots === 0 ? EMPTY_LINE_PX : slots * SLOT_ROW_PX;
  return Math.ceil(2 * BORDER_PX + TITLE_PX + 2 * BODY_PAD_PX + body);
}

/** A container's title: its label, or what it is when it has none. */
export function containerLabel(id: string, label: string | undefined): string {
  return label || (id === GRAPH_STATE_ID ? 'Graph State' : 'State Container');
}
