// The bottom panel: its top edge resizes it (drag, double-click, keys) and the height survives a
// reload; the Timeline's toolbar and the Batches view's header and table stay one line each and
// wholly visible in a wide (1440×900) and a narrow (1024×700) window; the charts (Episodes › Plot,
// the batch's per-episode chart) get a readable height.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';
import { rectOf, SHOW_SCROLLBARS } from './geometry.ts';
import { DEMO, startRun, untilRunDone } from './restRuns.ts';

test.use(SHOW_SCROLLBARS);

const here = dirname(fileURLToPath(import.meta.url));
const SMOKE = JSON.parse(
  readFileSync(join(here, 'fixtures/workspace/graphs/smoke_demo.json'), 'utf8'),
) as object;

/** Drawer height and the sash's middle. */
async function drawer(page: Page) {
  const d = await rectOf(page.getByTestId('drawer'));
  const s = await rectOf(page.getByTestId('drawer-sash'));
  return { height: d.height, sashX: s.x + s.width / 2, sashY: s.y + s.height / 2 };
}

async function dragSash(page: Page, dy: number) {
  const { sashX, sashY } = await drawer(page);
  await page.mouse.move(sashX, sashY);
  await page.mouse.down();
  await page.mouse.move(sashX, sashY + dy / 2, { steps: 3 });
  await page.mouse.move(sashX, sashY + dy, { steps: 3 });
  await page.mouse.up();
}

test('the bottom panel resizes from its top edge and keeps its height across a reload', async ({
  page,
  server,
}) => {
  server.writeGraph('drawer_demo', { ...SMOKE, name: 'drawer_demo' });
  const editor = new EditorPage(page);
  await editor.open('?graph=drawer_demo');
  const start = await drawer(page);
  expect(start.height).toBe(256);
  const canvasBefore = (await rectOf(editor.canvas)).height;

  await dragSash(page, -150);
  expect((await drawer(page)).height).toBe(406);
  // The canvas gave up the same room.
  expect((await rectOf(editor.canvas)).height).toBe(canvasBefore - 150);

  await page.reload();
  await expect(page.locator('html[data-ready="true"]')).toBeAttached();
  expect((await drawer(page)).height).toBe(406);

  // Dragged past the top, it stops where the canvas keeps 200 px of the window.
  await dragSash(page, -2000);
  expect((await drawer(page)).height).toBe(900 - 200);
  // And past the bottom, at its minimum.
  await dragSash(page, 2000);
  expect((await drawer(page)).height).toBe(120);
  // Keys on the focused sash: ↑ grows it by 16 px; double-click: the default height again.
  await page.getByTestId('drawer-sash').focus();
  await page.keyboard.press('ArrowUp');
  expect((await drawer(page)).height).toBe(136);
  await page.getByTestId('drawer-sash').dblclick();
  expect((await drawer(page)).height).toBe(256);
  await page.reload();
  await expect(page.locator('html[data-ready="true"]')).toBeAttached();
  expect((await drawer(page)).height).toBe(256);
});

/**
 * What is wrong with `row` as a one-line bar: its children overlap, stick out of it, or wrap (a
 * child taller than one line); an empty list when all is well.
 */
async function lineProblems(row: Locator): Promise<string[]> {
  return row.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const problems: string[] = [];
    if (box.height > 34) problems.push(`the row is ${box.height}px tall (wrapped)`);
    const kids = [...el.children].filter((c) => {
      const r = c.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    });
    const name = (c: Element) => `${c.tagName}[${c.getAttribute('data-testid') ?? ''}] "${c.textContent}"`;
    for (const c of kids) {
      const r = c.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1) problems.push(`${name(c)} sticks out`);
      if (r.height > 26) problems.push(`${name(c)} wraps (${r.height}px)`);
    }
    for (let i = 1; i < kids.length; i++) {
      const a = kids[i - 1]!.getBoundingClientRect();
      const b = kids[i]!.getBoundingClientRect();
      if (a.right > b.left + 1) problems.push(`${name(kids[i - 1]!)} overlaps ${name(kids[i]!)}`);
    }
    return problems;
  });
}

for (const [width, height] of [
  [1440, 900],
  [1024, 700],
] as const) {
  test(`at ${width}×${height}: the Timeline toolbar and the Batches view fit on one line, charts are readable`, async ({
    page,
    server,
  }) => {
    test.setTimeout(120_000);
    server.writeGraph('grid_navigator', DEMO);
    // A finished run of 30 steps (two episodes and more) and a finished batch of 4 episodes.
    await startRun(page.request, { ...DEMO, step_budget: 30 }, 0);
    const batch = await page.request.post('/api/batches', {
      data: { loop_definition: { ...DEMO, step_budget: 30 }, episodes: 4, workers: 1, seed: 3 },
    });
    expect(batch.ok()).toBe(true);
    const batchId = ((await batch.json()) as { batch_id: string }).batch_id;
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get(`/api/batches/${batchId}`)).json()) as {
              batch: { status: string };
            }
          ).batch.status,
        { timeout: 60_000 },
      )
      .toBe('done');
    await untilRunDone(page.request);

    await page.setViewportSize({ width, height });
    const editor = new EditorPage(page);
    await editor.open('?graph=grid_navigator');
    await page.getByTestId('drawer-tab-timeline').click();
    const toolbar = page.getByTestId('timeline-toolbar');
    await expect(page.getByTestId('timeline-count')).toHaveText('30 steps');
    expect(await lineProblems(toolbar)).toEqual([]);
    // Inspecting a step: the Restore button says more, still one line.
    await page.getByTestId('timeline-tick-10').click();
    await expect(page.getByTestId('timeline-selected')).toHaveText('inspecting step 10');
    expect(await lineProblems(toolbar)).toEqual([]);
    // Every button of it is whole and can be pressed.
    for (const id of [
      'timeline-live',
      'timeline-restore',
      'timeline-fork',
      'timeline-compare',
      'timeline-episodes',
      'runs-menu',
    ])
      expect(await page.getByTestId(id).evaluate((b) => b.scrollWidth <= b.clientWidth + 1)).toBe(true);

    // Episodes › Plot: a chart with room for its axes.
    await page.getByTestId('timeline-episodes').click();
    await page.getByTestId('episodes-tab-plot').click();
    const plot = page.getByTestId('episode-plot');
    await expect(plot.locator('canvas')).toBeVisible();
    expect((await rectOf(plot)).height).toBeGreaterThanOrEqual(140);
    expect((await rectOf(plot.locator('canvas'))).height).toBeGreaterThanOrEqual(140);

    // Batches: the header rows are one line each, the table's header too.
    await page.getByTestId('drawer-tab-batches').click();
    await page.getByTestId(`batch-item-${batchId}`).click();
    const header = page.getByTestId('batch-header');
    await expect(page.getByTestId('batch-status')).toHaveText('done');
    for (const row of await header.locator(':scope > div').all()) expect(await lineProblems(row)).toEqual([]);
    const table = page.getByTestId('batch-episodes');
    await expect(page.getByTestId('batch-episode-1')).toBeVisible();
    const tableHead = table.locator(':scope > div > div').first();
    expect((await rectOf(tableHead)).height).toBeLessThanOrEqual(22);
    // The table scrolls sideways when its metric columns need more room: its scrollbar is in view,
    // and scrolled to the end its last column is whole.
    const t = await table.evaluate((el: HTMLElement) => ({
      clipped: el.scrollWidth > el.clientWidth,
      bar: el.offsetHeight - el.clientHeight,
    }));
    if (t.clipped) expect(t.bar).toBeGreaterThan(0);
    await table.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    const lastColumn = tableHead.locator(':scope > button').last();
    await expect
      .poll(async () => {
        const a = await rectOf(lastColumn);
        const b = await rectOf(table);
        return a.x >= b.x && a.x + a.width <= b.x + b.width + 1;
      })
      .toBe(true);
    // The summary (beside the table when wide enough, else one click away): a chart 140 px tall.
    const summary = page.getByTestId('batch-view-summary');
    if (await summary.isVisible()) await summary.click();
    const chart = page.getByTestId('batch-chart').getByTestId('episode-plot');
    await expect(chart.locator('canvas')).toBeVisible();
    expect((await rectOf(chart)).height).toBeGreaterThanOrEqual(140);
    await expect(page.getByTestId('batch-success-rate')).toBeVisible();
  });
}
