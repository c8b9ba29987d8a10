// Menus and the tab strip behave like a desktop editor's. Every popup menu (File, Runs, the
// timeline's branches, all tabs) closes on Escape, on a press outside it and when a dialog opens,
// and stays open while the pointer merely wanders off. The tab strip never shows a scrollbar over
// the titles, keeps the active tab in view, tells same-named tabs apart, and neither run notices
// nor the toolbars beside it squeeze it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';
import { SHOW_SCROLLBARS, inside, intersects, rectOf } from './geometry.ts';
import { DEMO, openFinishedDemo, startRun, stopRun } from './restRuns.ts';

test.use(SHOW_SCROLLBARS);

const here = dirname(fileURLToPath(import.meta.url));
const read = (path: string) => JSON.parse(readFileSync(join(here, path), 'utf8')) as Record<string, unknown>;
const SMOKE = read('fixtures/workspace/graphs/smoke_demo.json');

/** Opens a saved graph from the Graphs list, as a user does. */
async function openFromList(page: Page, id: string) {
  await page.getByTestId(`explorer-graph-${id}`).dblclick();
}

/** The menu opens from its button; Escape closes it and gives the button the focus back. */
async function closesOnEscape(page: Page, button: Locator, list: Locator) {
  await button.click();
  await expect(list).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(button).toBeFocused();
}

/** The menu stays open while the pointer wanders off, and a press outside closes it. */
async function closesOnOutsidePress(page: Page, button: Locator, list: Locator) {
  await button.click();
  await expect(list).toBeVisible();
  const canvas = await rectOf(page.getByTestId('canvas'));
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2, { steps: 4 });
  await page.waitForTimeout(150);
  await expect(list).toBeVisible();
  await page.mouse.click(canvas.x + canvas.width / 2, canvas.y + 30);
  await expect(list).toHaveCount(0);
}

test('File and Runs menus close on Escape, on a press outside and when a dialog opens', async ({
  page,
  server,
}) => {
  server.writeGraph('menu_demo', { ...SMOKE, name: 'menu_demo' });
  const editor = new EditorPage(page);
  await editor.open('?graph=menu_demo');
  const file = page.getByTestId('file-menu');
  const fileList = page.getByTestId('file-menu-list');
  await closesOnEscape(page, file, fileList);
  await closesOnOutsidePress(page, file, fileList);
  // Its own button toggles it.
  await file.click();
  await file.click();
  await expect(fileList).toHaveCount(0);
  // A shortcut that opens a dialog while the menu is up: the dialog alone is left on screen.
  await file.click();
  await expect(fileList).toBeVisible();
  await page.keyboard.press('Control+Shift+S');
  await expect(page.getByTestId('save-dialog')).toBeVisible();
  await expect(fileList).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('save-dialog')).toHaveCount(0);
  // The arrow keys walk its items.
  await file.click();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('menu-file.new')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('menu-file.save')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(fileList).toHaveCount(0);

  // Runs, in the Timeline's header.
  await page.getByTestId('drawer-tab-timeline').click();
  const runs = page.getByTestId('runs-menu');
  const runsList = page.getByTestId('runs-list');
  await closesOnEscape(page, runs, runsList);
  await closesOnOutsidePress(page, runs, runsList);
  // Typing in its filter is inside the menu: it stays.
  await runs.click();
  await page.getByTestId('runs-filter-graph').fill('menu');
  await expect(runsList).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(runsList).toHaveCount(0);
});

test("the timeline's branches menu closes on Escape and on a press outside", async ({ page, server }) => {
  await openFinishedDemo(page, server, 12);
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('timeline-tick-6').click();
  await page.getByTestId('timeline-restore').click();
  const branches = page.getByTestId('timeline-branches');
  await expect(branches).toHaveText('1 branch');
  const list = page.getByTestId('timeline-branches-list');
  await closesOnEscape(page, branches, list);
  await closesOnOutsidePress(page, branches, list);
  await stopRun(page.request);
});

test('the tab strip: no scrollbar, the active tab in view, same titles told apart, never squeezed', async ({
  page,
  server,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  server.writeGraph('twins/first', { ...SMOKE, name: 'Twin Graph' });
  server.writeGraph('twins/second', { ...SMOKE, name: 'Twin Graph' });
  for (const n of ['alpha', 'beta', 'gamma', 'delta'])
    server.writeGraph(`many/${n}`, { ...SMOKE, name: `A rather long graph title ${n}` });
  const editor = new EditorPage(page);
  await editor.open('?graph=twins/first');
  await openFromList(page, 'twins/second');
  await expect(page.getByTestId('tab')).toHaveCount(2);

  // Two files named alike: each tab names its file, and its tooltip the path.
  const tabs = page.getByTestId('tab');
  await expect(tabs.nth(0).getByTestId('tab-detail')).toHaveText('twins/first');
  await expect(tabs.nth(1).getByTestId('tab-detail')).toHaveText('twins/second');
  await expect(tabs.nth(1)).toHaveAttribute('title', 'Twin Graph · graphs/twins/second.json');
  // Two new graphs: "unsaved" and "unsaved 2".
  await page.keyboard.press('Alt+n');
  await page.keyboard.press('Alt+n');
  await expect(tabs).toHaveCount(4);
  await expect(tabs.nth(2).getByTestId('tab-detail')).toHaveText('unsaved');
  await expect(tabs.nth(3).getByTestId('tab-detail')).toHaveText('unsaved 2');

  // More tabs than fit: the strip scrolls sideways, with no scrollbar over the titles.
  for (const n of ['alpha', 'beta', 'gamma', 'delta']) await openFromList(page, `many/${n}`);
  await expect(tabs).toHaveCount(8);
  const strip = page.getByTestId('tabs');
  const metrics = await strip.evaluate((el: HTMLElement) => ({
    overflows: el.scrollWidth > el.clientWidth,
    scrollbar: el.offsetHeight - el.clientHeight,
  }));
  expect(metrics).toEqual({ overflows: true, scrollbar: 0 });
  // Every title is whole vertically, inside the top bar.
  const header = await rectOf(page.locator('header'));
  for (const title of await page.getByTestId('tab-title').all()) {
    expect(await title.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
    const r = await rectOf(title);
    expect(r.y >= header.y && r.y + r.height <= header.y + header.height).toBe(true);
  }
  // The active (last opened) tab is wholly in view; so is the first once picked from "all tabs".
  await expect.poll(async () => inside(await rectOf(editor.activeTab()), await rectOf(strip))).toBe(true);
  await page.getByTestId('all-tabs').click();
  await page.getByTestId('all-tabs-item').first().click();
  await expect(page.getByTestId('all-tabs-list')).toHaveCount(0);
  await expect(tabs.first()).toHaveAttribute('data-active', 'true');
  await expect.poll(async () => inside(await rectOf(tabs.first()), await rectOf(strip))).toBe(true);
  // The all-tabs menu closes on Escape too.
  await closesOnEscape(page, page.getByTestId('all-tabs'), page.getByTestId('all-tabs-list'));

  // A run of an open graph started elsewhere: its notice takes a bar of its own above the canvas.
  // The strip keeps its width, and the notice covers neither the tabs nor the inspector's header.
  const stripWidth = (await rectOf(page.getByTestId('tab-strip'))).width;
  expect(stripWidth).toBeGreaterThanOrEqual(160);
  const id = await startRun(page.request, { ...DEMO, name: 'Twin Graph' }, 500, true);
  const notice = page.getByTestId('run-notice-started');
  await expect(notice).toBeVisible();
  expect((await rectOf(page.getByTestId('tab-strip'))).width).toBe(stripWidth);
  const bar = await rectOf(page.getByTestId('run-notices'));
  expect(intersects(bar, await rectOf(page.getByTestId('inspector').locator('div').first()))).toBe(false);
  expect(intersects(bar, await rectOf(page.getByTestId('tab-strip')))).toBe(false);
  await notice.getByTestId('run-notice-dismiss').click();
  await expect(page.getByTestId('run-notices')).toHaveCount(0);

  // Opened from Runs, the run gets a tab of its own that names the run: a third "Twin Graph".
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('runs-menu').click();
  await page.getByTestId(`runs-item-${id}`).click();
  await expect(tabs).toHaveCount(9);
  await expect(editor.activeTab().getByTestId('tab-title')).toHaveText('Twin Graph');
  await expect(editor.activeTab().getByTestId('tab-detail')).toHaveText(`exec_…${id.slice(-8)}`);
  await expect(editor.activeTab()).toHaveAttribute('title', `Twin Graph · run ${id}`);
  await expect.poll(async () => inside(await rectOf(editor.activeTab()), await rectOf(strip))).toBe(true);
  await stopRun(page.request);
});
