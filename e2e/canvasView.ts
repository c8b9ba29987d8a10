// Helpers for canvas specs that work in flow coordinates: the viewport React Flow shows, where a flow
// point is on the page, zooming to a given zoom with the wheel as a user does, and what colour the
// far view's canvas (src/app/canvas/far/) drew at a page point.
import type { Page } from '@playwright/test';

export interface View {
  tx: number;
  ty: number;
  k: number;
  /** The React Flow container's page box. */
  left: number;
  top: number;
  width: number;
  height: number;
}

export const viewOf = (page: Page): Promise<View> =>
  page.evaluate(() => {
    const vp = document.querySelector<HTMLElement>('.react-flow__viewport')!.style.transform;
    const m = /translate\(([-\d.e]+)px, ?([-\d.e]+)px\) scale\(([-\d.e]+)\)/.exec(vp)!;
    const r = document.querySelector('.react-flow')!.getBoundingClientRect();
    return { tx: +m[1]!, ty: +m[2]!, k: +m[3]!, left: r.left, top: r.top, width: r.width, height: r.height };
  });

/** The page point of a flow point. */
export async function toPage(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const v = await viewOf(page);
  return { x: v.left + v.tx + x * v.k, y: v.top + v.ty + y * v.k };
}

const frames = (page: Page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Wheel-zooms at the pane's centre until the zoom is within 4 % of `zoom`; returns the zoom reached. */
export async function zoomTo(page: Page, zoom: number): Promise<number> {
  const v = await viewOf(page);
  await page.mouse.move(v.left + v.width / 2, v.top + v.height / 2);
  for (let i = 0; i < 120; i++) {
    const { k } = await viewOf(page);
    if (Math.abs(Math.log(k / zoom)) < 0.04) break;
    const step = Math.abs(Math.log(k / zoom)) > 0.3 ? 100 : 12;
    await page.mouse.wheel(0, k < zoom ? -step : step);
    await frames(page);
  }
  await frames(page);
  return (await viewOf(page)).k;
}

/**
 * The RGBA the far view shows at a page point (its hover layer where that draws, else its drawing),
 * or null when there is no far view.
 */
export const farPixel = (page: Page, x: number, y: number) =>
  page.evaluate(
    ([px, py]) => {
      let out: number[] | null = null;
      for (const sel of ['.sw-far-layer', '.sw-far-hover']) {
        const c = document.querySelector<HTMLCanvasElement>(sel);
        if (!c) continue;
        const r = c.getBoundingClientRect();
        const s = c.width / r.width;
        const d = c
          .getContext('2d')!
          .getImageData(Math.floor((px! - r.left) * s), Math.floor((py! - r.top) * s), 1, 1).data;
        if (!out || d[3]! > 0) out = [d[0]!, d[1]!, d[2]!, d[3]!];
      }
      return out;
    },
    [x, y],
  );

/** `#rrggbb` as the [r, g, b, 255] a canvas holds for it opaque. */
export const rgba = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).concat(255);

/** Waits until the far view has drawn a frame for the current viewport (two animation frames). */
export const settled = frames;
