// Virtualized rows for the drawer's long lists (Issues, run Log): only the rows in view and a margin
// are in the page, because hundreds of rows cost paint on every frame of a canvas pan
// (docs/performance.md, canvas.dashed_vs_solid). Rows are measured as they render, so a row may wrap.
import type { RefObject } from 'react';
import { measureElement, observeElementRect, useVirtualizer } from '@tanstack/react-virtual';

/** Rows rendered beyond the visible ones, each way. */
const OVERSCAN = 20;
/** What the list is taken to show while its scroller has no size yet (or there is no layout at all). */
const SCREENFUL = { width: 800, height: 400 };

/** The scroller's size, except that "no size" shows a screenful of rows rather than none. */
const observeRect: typeof observeElementRect = (instance, cb) =>
  observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : SCREENFUL));

export function useRowVirtualizer(count: number, scroller: RefObject<HTMLDivElement | null>, rowPx: number) {
  return useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowPx,
    overscan: OVERSCAN,
    initialRect: SCREENFUL,
    observeElementRect: observeRect,
    // A row that measures 0 (no layout) counts as the estimate.
    measureElement: (el, entry, instance) => measureElement(el, entry, instance) || rowPx,
  });
}
