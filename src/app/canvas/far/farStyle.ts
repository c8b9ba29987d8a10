// The far view's colours, as the DOM draws the same things (GraphNode.tsx, NodeBox.tsx,
// ContainerBox.tsx, GrantEdge.tsx, canvas.css): the zinc body and border, the type's colour bar, the
// run status (the status colour over the body, so it still shows when a box is a few pixels), sky for
// the selection, violet for grant relations while hovering, the issue outline. Strokes are interned
// objects, so a frame groups thousands of boxes by style without building a key per box.
import type { NodeRunStatus } from '../../run/run.store.ts';

export type RunState = NodeRunStatus['status'];

/** A stroke: colour and width in screen px. */
export interface Stroke {
  color: string;
  width: number;
}

export const BODY = '#18181b';
export const BAR_DEFAULT = '#52525b';
export const NOTE_BODY = 'rgba(66, 32, 6, 0.6)';
export const NODE_TEXT = '#e4e4e7';
export const CONTAINER_TEXT = '#c4b5fd';
export const GRANT_COLOR = '#8b5cf6';
/** Screen px: far out the grant's "6 4" is drawn on screen, so a grant still reads as dashed. */
export const GRANT_DASH: readonly [number, number] = [6, 4];
export const GRANT_ALPHA = 0.5;
/** A container's dashed border (border-dashed), screen px. */
export const CONTAINER_DASH: readonly [number, number] = [4, 3];
export const MARK_STROKE = {
  error: { color: '#ef4444', width: 2 },
  warning: { color: 'rgba(245, 158, 11, 0.8)', width: 1 },
} as const satisfies Record<string, Stroke>;

const BORDER: Stroke = { color: '#3f3f46', width: 1 };
const COMPOSITE: Stroke = { color: '#3f3f46', width: 2 };
const SELECTED: Stroke = { color: '#38bdf8', width: 2 };
const BREAKPOINT: Stroke = { color: '#fbbf24', width: 2 };
const RELATED: Stroke = { color: '#a78bfa', width: 2 };
const HOVERED: Stroke = { color: '#d4d4d8', width: 1.5 };
const NOTE_BORDER: Stroke = { color: '#854d0e', width: 1 };
const CONTAINER: Stroke = { color: 'rgba(139, 92, 246, 0.4)', width: 1.5 };
const CONTAINER_SELECTED: Stroke = { color: '#a78bfa', width: 1.5 };
const CONTAINER_RELATED: Stroke = { color: '#c4b5fd', width: 1.5 };
const CONTAINER_HOVERED: Stroke = { color: '#d4d4d8', width: 1.5 };

/** The status colours (GraphNode.tsx RUN_DOT): a box too small for its parts is filled with it. */
export const STATUS_COLOR: Partial<Record<RunState, string>> = {
  queued: '#a1a1aa',
  running: '#fbbf24',
  done: '#10b981',
  error: '#ef4444',
};
/** A box's body in each status: about a third of the status colour over the zinc body. */
export const STATUS_BODY: Partial<Record<RunState, string>> = {
  queued: '#434347',
  running: '#5e4a1e',
  done: '#134a39',
  error: '#5b2021',
};
/** Running and failed nodes also get the status border (GraphNode.tsx RUN_BORDER). */
const STATUS_BORDER: Partial<Record<RunState, Stroke>> = {
  running: { color: '#fbbf24', width: 1 },
  error: { color: '#ef4444', width: 1 },
};

export interface ItemState {
  selected: boolean;
  hovered: boolean;
  related: boolean;
  atBreakpoint: boolean;
  status: RunState | undefined;
}

/** A graph node's border, by precedence as on the DOM node: selection, breakpoint, hover, status. */
export function nodeBorder(s: ItemState, composite: boolean): Stroke {
  if (s.selected) return SELECTED;
  if (s.atBreakpoint) return BREAKPOINT;
  if (s.related) return RELATED;
  if (s.hovered) return HOVERED;
  return (s.status && STATUS_BORDER[s.status]) ?? (composite ? COMPOSITE : BORDER);
}

/** Whether a node's border is its plain one (left out on boxes too small to show it). */
export const isPlainBorder = (s: Stroke) => s === BORDER || s === COMPOSITE;

export function containerBorder(s: ItemState): Stroke {
  if (s.selected) return CONTAINER_SELECTED;
  if (s.related) return CONTAINER_RELATED;
  return s.hovered ? CONTAINER_HOVERED : CONTAINER;
}

export const noteBorder = (s: ItemState): Stroke => (s.selected ? SELECTED : NOTE_BORDER);

/** Data edges: their SVG stroke (flow px wide), or the selection's. */
export const SELECTED_EDGE = SELECTED.color;

/** Lists of indices by style (a colour string or an interned Stroke), each drawn as one path. */
export class Buckets<K> {
  readonly map = new Map<K, number[]>();
  add(key: K, i: number): void {
    const list = this.map.get(key);
    if (list) list.push(i);
    else this.map.set(key, [i]);
  }
}
