// Legibility and things covering things (issue 27, item 18, apart from the far-zoom text rule):
// container boxes and viewer nodes keep their size from step to step; a truncated text always has a
// tooltip and no text is smaller than 9 px at 1:1; scrollbars and native controls are dark; the
// shortcut sheet's keycaps are one line tall; a restore's notice stays off the inspector.
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';
import { intersects, rectOf, SHOW_SCROLLBARS } from './geometry.ts';
import { DEMO, openFinishedDemo, startRun, stopRun, untilRunDone } from './restRuns.ts';

test.use(SHOW_SCROLLBARS);

/** Visible text cut with an ellipsis and no tooltip on it or around it: "Evict ended episo…". */
function cutWithoutTooltip(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => {
        const cs = getComputedStyle(el);
        if (cs.textOverflow !== 'ellipsis' || cs.overflowX === 'visible') return false;
        const r = el.getBoundingClientRect();
        return r.width > 0 && el.scrollWidth > el.clientWidth + 1 && !el.closest('[title]');
      })
      .map((el) => `${el.getAttribute('data-testid') ?? el.className} "${el.textContent}"`),
  );
}

/** Elements holding text of their own whose font is under 9 px. */
function tinyText(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => {
        const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
        const r = el.getBoundingClientRect();
        return own && r.width > 0 && parseFloat(getComputedStyle(el).fontSize) < 9;
      })
      .map((el) => `${el.getAttribute('data-testid') ?? el.className} "${el.textContent}"`),
  );
}

test('container boxes and viewer nodes keep their width from step to step', async ({ page, server }) => {
  await openFinishedDemo(page, server, 40);
  await page.getByTestId('drawer-tab-timeline').click();
  // Layout widths (not scaled by the zoom) of the boxes whose lines show live values.
  const widths = () =>
    page.evaluate(() =>
      Object.fromEntries(
        ['container-memory', 'container-graph_state', 'node-obs_view', 'node-metrics_view'].map((id) => [
          id,
          document.querySelector<HTMLElement>(`[data-testid="${id}"]`)?.offsetWidth ?? null,
        ]),
      ),
    );
  const live = await widths();
  for (const w of Object.values(live)) expect(w).toBeGreaterThan(0);
  for (const step of [1, 2, 7, 13, 21, 33]) {
    await page.getByTestId(`timeline-tick-${step}`).click();
    await expect(page.getByTestId('timeline-selected')).toHaveText(`inspecting step ${step}`);
    await expect(page.getByTestId('slot-live-graph_state-step_count')).toHaveText(String(step));
    expect(await widths(), `at step ${step}`).toEqual(live);
  }
});

test('text: cut only with a tooltip, never under 9 px; scrollbars and controls are dark; keycaps are one line', async ({
  page,
  server,
}) => {
  server.writeGraph('grid_navigator', DEMO);
  await startRun(page.request, { ...DEMO, step_budget: 25 }, 0);
  await untilRunDone(page.request);
  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    const editor = new EditorPage(page);
    await editor.open('?graph=grid_navigator');
    await expect(page.getByTestId('run-step-counter')).toHaveText('Step 25');
    // The canvas at 1:1, then every drawer tab with its content.
    await page.getByTestId('canvas').hover();
    await page.keyboard.press('f');
    for (const tab of ['state', 'issues', 'log', 'timeline', 'breakpoints', 'batches']) {
      await page.getByTestId(`drawer-tab-${tab}`).click();
      await page.waitForTimeout(300);
      expect(await cutWithoutTooltip(page), `${tab} at ${width}`).toEqual([]);
      expect(await tinyText(page), `${tab} at ${width}`).toEqual([]);
    }
  }

  // Dark scrollbars and controls: the page, a panel, a menu and the value viewer.
  const scrollbar = (testId: string) =>
    page
      .getByTestId(testId)
      .evaluate((el) => [getComputedStyle(el).scrollbarColor, getComputedStyle(el).scrollbarWidth]);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
  const DARK = ['rgb(82, 82, 91) rgba(0, 0, 0, 0)', 'thin'];
  await page.getByTestId('drawer-tab-timeline').click();
  expect(await scrollbar('timeline-ticks')).toEqual(DARK);
  await page.getByTestId('runs-menu').click();
  expect(await scrollbar('runs-list')).toEqual(DARK);
  await page.keyboard.press('Escape');
  await page.getByTestId('drawer-tab-state').click();
  await page.getByTestId('drawer').getByTestId('live-value-graph_state-visited').dblclick();
  const viewer = page.getByTestId('value-viewer');
  await expect(viewer).toBeVisible();
  expect(
    await viewer.evaluate((el) => {
      const scroller = el.querySelector<HTMLElement>('.overflow-auto')!;
      return [getComputedStyle(scroller).scrollbarColor, getComputedStyle(scroller).scrollbarWidth];
    }),
  ).toEqual(DARK);
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);

  // The shortcut sheet: every keycap one line tall (16 px), as wide as its label, never stretched.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.locator('body').press('?');
  const caps = page.getByTestId('cheatsheet').getByTestId('keycap');
  expect(await caps.count()).toBeGreaterThan(20);
  for (const cap of await caps.all()) {
    const r = await rectOf(cap);
    expect(r.height, String(await cap.textContent())).toBe(16);
    expect(await cap.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    expect(r.width).toBeLessThan(90);
  }
});

test("a restore's notice takes a bar above the canvas, clear of the inspector's header", async ({
  page,
  server,
}) => {
  const editor = await openFinishedDemo(page, server, 12);
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('timeline-tick-5').click();
  await page.getByTestId('timeline-restore').click();
  const notice = page.getByTestId('run-notice-branched');
  await expect(notice).toBeVisible();
  const bar = await rectOf(page.getByTestId('run-notices'));
  const inspectorHeader = await rectOf(page.getByTestId('inspector').locator(':scope > div').first());
  expect(intersects(bar, inspectorHeader)).toBe(false);
  // It covers no node either: the canvas starts below it.
  expect(bar.y + bar.height).toBeLessThanOrEqual((await rectOf(editor.canvas)).y + 1);
  await stopRun(page.request);
});
