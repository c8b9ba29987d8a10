// Rectangles of what the editor draws, for the layout tests (what covers what, what fits where).
import type { Locator } from '@playwright/test';
import config from '../playwright.config.ts';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The element's box on screen; fails the test (with its name) when it is not rendered. */
export async function rectOf(locator: Locator): Promise<Rect> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`not rendered: ${locator.toString()}`);
  return box;
}

/** Overlapping areas (touching edges do not count). */
export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** `inner` lies wholly inside `outer` (1 px of rounding allowed). */
export function inside(inner: Rect, outer: Rect): boolean {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}

/**
 * Launch options that show scrollbars: headless Chromium hides them by default (Playwright passes
 * --hide-scrollbars), so a test that measures one (the room it takes, whether it is there at all)
 * asks for real ones with `test.use(SHOW_SCROLLBARS)`.
 */
export const SHOW_SCROLLBARS = {
  launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ['--hide-scrollbars'] },
};
