// The canvas's dot grid, kept at a readable spacing on screen at every zoom. A fixed 20-unit grid
// shrinks with the view: zoomed out to a thousand-node graph (zoom ~0.07) its dots were 1.5 screen
// pixels apart and a twentieth of a pixel wide, invisible, yet the browser painted a pattern tile
// every 1.5 px across the whole pane (over half a million per frame) on the first paint and on every
// pan frame. Like a map's graticule, the grid coarsens instead: every fifth line of the finer grid,
// with dots grown by the same factor, so they stay about a pixel wide and at least MIN_GAP_PX apart.
import { Background, BackgroundVariant, useStore, type ReactFlowState } from '@xyflow/react';

/** Flow units between dots at full detail. */
export const BASE_GAP = 20;
/** Screen pixels between dots at least; below it the grid steps to the next coarser one. */
export const MIN_GAP_PX = 10;
const STEP = 5;

/** The grid's level at `zoom`: 0 = every 20 units, 1 = every 100, 2 = every 500 … */
export function gridLevel(zoom: number): number {
  let level = 0;
  while (BASE_GAP * STEP ** level * zoom < MIN_GAP_PX && level < 6) level++;
  return level;
}

// A selector that returns the level, so the grid renders again only when the level changes.
const levelOf = (s: ReactFlowState) => gridLevel(s.transform[2]);

export function CanvasGrid() {
  const factor = STEP ** useStore(levelOf);
  return (
    <Background variant={BackgroundVariant.Dots} gap={BASE_GAP * factor} size={factor} color="#3f3f46" />
  );
}
