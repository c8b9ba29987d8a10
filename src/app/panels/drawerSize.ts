// The bottom drawer's height: the user drags its top edge (ResizeSash.tsx); the height is kept in
// localStorage, so a reload (or the next session) opens the drawer as the user left it. One height
// for every tab, like an IDE's bottom panel: switching tabs never makes the canvas jump.
const KEY = 'statewire.drawerHeight';

/** A first-time drawer: room for a chart with its axes (Episodes › Plot, Batches) under the tabs. */
export const DRAWER_DEFAULT_PX = 256;
/** Below this the drawer shows its tab bar and two or three rows: smaller is no use. */
export const DRAWER_MIN_PX = 120;
/** The canvas (and the top bar above it) keep at least this much of the window. */
export const CANVAS_KEEP_PX = 200;

/** `px` clamped to what a window `windowHeight` tall can give the drawer. */
export function clampDrawerHeight(px: number, windowHeight: number): number {
  const max = Math.max(DRAWER_MIN_PX, windowHeight - CANVAS_KEEP_PX);
  if (!Number.isFinite(px)) return Math.min(DRAWER_DEFAULT_PX, max);
  return Math.round(Math.min(max, Math.max(DRAWER_MIN_PX, px)));
}

/** The remembered height (the default when none is kept, or storage is unavailable). */
export function loadDrawerHeight(): number {
  try {
    const kept = window.localStorage.getItem(KEY);
    const px = kept === null ? NaN : Number(kept);
    return Number.isFinite(px) ? px : DRAWER_DEFAULT_PX;
  } catch {
    return DRAWER_DEFAULT_PX;
  }
}

export function saveDrawerHeight(px: number): void {
  try {
    window.localStorage.setItem(KEY, String(Math.round(px)));
  } catch {
    // storage unavailable (private mode): the height lasts this page load
  }
}
