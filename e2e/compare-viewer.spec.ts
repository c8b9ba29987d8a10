// Debugger Compare view and value viewer, in Chromium against a real server: run the demo graph a
// few steps, compare two steps (a changed slot, old → new, its writer; a keyed partition), fork from
// a step and compare with the parent run; open a slot value in the viewer, search it, copy a path;
// open a 100,000-item list and scroll to its end with only a few rows in the DOM.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test, type ServerHandle } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = JSON.parse(
  readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8'),
) as unknown;
const SHOTS = process.env.CMP_SHOTS ?? '/tmp/cmp-shots';
const BIG = 100_000;

/** One constant node writes a 100,000-item list into store.items (a DAG run: one step). */
const BIG_GRAPH = {
  name: 'Big list',
  eval_graph: false,
  nodes: [
    {
      id: 'big',
      type: 'constant',
      label: 'Big',
      position: { x: 0, y: 0 },
      config: { value: Array.from({ length: BIG }, (_, i) => `item-${i}`), wire_type: 'ANY' },
    },
    {
      id: 'write_big',
      type: 'stateWrite',
      label: 'Write items',
      position: { x: 320, y: 0 },
      config: { container: 'store', state: 'items' },
    },
  ],
  edges: [{ id: 'e1', source: 'big', target: 'write_big', sourceHandle: 'value', targetHandle: 'value' }],
  containers: [
    {
      id: 'store',
      label: 'Store',
      position: { x: 320, y: 260 },
      states: { items: { type: 'lastWrite', value_type: 'ANY' } },
    },
  ],
  access_grants: [{ id: 'ag_write_big', node_id: 'write_big', container_id: 'store' }],
};

const counter = (page: Page) => page.getByTestId('run-step-counter');
const stepOf = async (page: Page) => Number((await counter(page).textContent())?.replace(/\D+/g, '') ?? NaN);

test.describe.configure({ mode: 'serial' });

const serverRun = async (page: Page) =>
  (await (await page.request.get('/api/navigate/run/status')).json()) as {
    execution_id: string | null;
    step: number;
  };

/** Opens the demo graph, plays a new run of it to at least `steps` steps and pauses. */
async function runDemo(page: Page, server: ServerHandle, steps: number): Promise<EditorPage> {
  server.writeGraph('cmp_navigator', DEMO);
  const editor = new EditorPage(page);
  await editor.open('?graph=cmp_navigator');
  // The toolbar first shows the server's previous run: wait for the new one to get going.
  const before = (await serverRun(page)).execution_id;
  await page.getByTestId('run-play').click();
  await expect
    .poll(async () => {
      const r = await serverRun(page);
      return r.execution_id !== before && r.step >= steps;
    })
    .toBe(true);
  await page.getByTestId('run-pause').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused');
  await expect.poll(async () => stepOf(page)).toBe((await serverRun(page)).step);
  return editor;
}

test('compare two steps, then a fork with its parent', async ({ page, server }) => {
  await runDemo(page, server, 5);
  const parent = (await (await page.request.get('/api/navigate/run/status')).json()) as {
    execution_id: string;
  };

  // Timeline: inspect step 3, Compare… opens A = step 2, B = step 3.
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('timeline-tick-3').click();
  await page.getByTestId('timeline-compare').click();
  const view = page.getByTestId('compare-view');
  await expect(view).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('compare-a-step')).toHaveValue('2');
  await expect(page.getByTestId('compare-b-step')).toHaveValue('3');

  // The step counter changed 2 → 3, written by the policy node at step 3.
  const count = page.getByTestId('compare-slot-graph_state-step_count');
  await expect(count).toHaveAttribute('data-status', 'changed');
  await expect(count.getByTestId('compare-old-new')).toHaveText('2 → 3');
  await expect(count.getByTestId('compare-writer')).toHaveText('by policy @ 3');
  // A slot nobody changed is not listed (changed only), the goal text stays the same.
  await expect(page.getByTestId('compare-slot-graph_state-goal')).toHaveCount(0);

  // The keyed trail: its partition "1" grew by one pose, written by write_trail.
  const trail = page.getByTestId('compare-slot-memory-trail');
  await expect(trail).toHaveAttribute('data-status', 'changed');
  await expect(trail).toContainText('1/1 keys changed');
  await expect(trail.getByTestId('compare-old-new')).toHaveCount(0);
  await trail.click();
  const key = page.getByTestId('compare-key-memory-trail-1');
  await expect(key).toHaveAttribute('data-status', 'changed');
  await expect(key.getByTestId('compare-writer')).toHaveText('by write_trail @ 3');
  await key.click();
  await expect(view.getByTestId('compare-line').first()).toContainText('$["1"][2]');
  await expect(view.getByTestId('compare-line').first()).toContainText('added');

  // Stats (a METRICS record) gets a structural diff: its `t` field (the episode's 0-based step) changed.
  await page.getByTestId('compare-slot-graph_state-stats').click();
  await expect(view.getByTestId('compare-line').filter({ hasText: '$.t' })).toContainText('1 → 2');
  await page.screenshot({ path: join(SHOTS, 'compare-steps.png') });

  // Picking another step re-diffs: A = step 1 → B = step 3.
  await page.getByTestId('compare-a-step').fill('1');
  await page.getByTestId('compare-a-step').press('Enter');
  await expect(count.getByTestId('compare-old-new')).toHaveText('1 → 3');
  await page.getByTestId('compare-close').click();
  await expect(view).toHaveCount(0);

  // Fork from step 3, run one step in the fork, compare it with its parent at the same step.
  await page.getByTestId('timeline-fork').click();
  await page.getByTestId('fork-start').click();
  await expect(page.getByTestId('timeline-panel')).toContainText('fork_');
  await expect(counter(page)).toHaveText('Step 3');
  await page.getByTestId('run-step').click();
  await expect(counter(page)).toHaveText('Step 4');
  await page.getByTestId('timeline-compare').click();
  await expect(view).toHaveAttribute('data-status', 'ready');
  const fork = await page.getByTestId('compare-b-run').inputValue();
  expect(fork).toMatch(/^fork_/);
  // Both run pickers show their whole choice (the id and its steps), never an id cut short.
  for (const tag of ['a', 'b']) {
    const room = await page.getByTestId(`compare-${tag}-run`).evaluate((el) => {
      const sel = el as HTMLSelectElement;
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = getComputedStyle(sel).font;
      return { text: ctx.measureText(sel.selectedOptions[0]!.text).width, box: sel.clientWidth };
    });
    expect(room.text + 16, `picker ${tag}`).toBeLessThanOrEqual(room.box);
  }
  await expect(page.getByTestId('compare-b-run').locator('option:checked')).toHaveText(
    new RegExp(`^${fork} \\(\\d+ steps\\)$`),
  );
  // Fork vs the step before: the fork's own step-4 writers, and the parent's for what it kept.
  await expect(count.getByTestId('compare-old-new')).toHaveText('3 → 4');
  await expect(count.getByTestId('compare-writer')).toHaveText('by policy @ 4');
  await page.getByTestId('compare-vs-parent').click();
  await expect(page.getByTestId('compare-a-run')).toHaveValue(parent.execution_id);
  await expect(page.getByTestId('compare-a-step')).toHaveValue('4');
  await expect(view).toHaveAttribute('data-status', 'ready');
  // Same graph, same seeds: the fork's step 4 equals its parent's, slot for slot.
  await expect(view).toContainText('No differences.');
  await page.getByTestId('compare-changed-only').uncheck();
  await expect(count).toHaveAttribute('data-status', 'same');
  await expect(page.getByTestId('compare-slot-memory-trail')).toHaveAttribute('data-status', 'same');
  await page.screenshot({ path: join(SHOTS, 'compare-fork-parent.png') });
  await page.getByTestId('compare-close').click();
  await page.getByTestId('run-stop').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped');
});

test('open a slot value in the viewer, search it and copy a path', async ({ page, server, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const editor = await runDemo(page, server, 4);

  // The State panel's value cell: hover shows the open button.
  await page.getByTestId('drawer-tab-state').click();
  const cell = page.getByTestId('state-panel').getByTestId('live-value-memory-trail');
  await cell.hover();
  await cell.getByTestId('open-value-memory-trail').click();
  const viewer = page.getByTestId('value-viewer');
  await expect(viewer).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('viewer-title')).toHaveText('memory.trail');
  // The keyed trail opens on its partitions, small enough to be expanded fully.
  await expect(viewer.locator('[data-path="$[\\"1\\"][0].orientation"]')).toBeVisible();

  // Collapse, then search: matches are highlighted and their parents expanded again.
  await page.getByTestId('viewer-collapse').click();
  await expect(viewer.getByTestId('viewer-row')).toHaveCount(2);
  await page.getByTestId('viewer-search').fill('heading');
  await expect(page.getByTestId('viewer-match-count')).toHaveText(/^1 \/ \d+$/);
  const firstMatch = viewer.locator('[data-path="$[\\"1\\"][0].heading"]');
  await expect(firstMatch).toHaveAttribute('data-match', 'true');
  await expect(firstMatch).toBeVisible();
  // The current match is selected (Enter moves to the next one).
  await expect(page.getByTestId('viewer-selected-path')).toHaveText('$["1"][0].heading');
  await page.getByTestId('viewer-search').press('Enter');
  await expect(page.getByTestId('viewer-match-count')).toHaveText(/^2 \/ \d+$/);
  await expect(page.getByTestId('viewer-selected-path')).toHaveText('$["1"][1].heading');

  // Select a row and copy its JSON path.
  await viewer.locator('[data-path="$[\\"1\\"][1].heading"]').click();
  await expect(page.getByTestId('viewer-selected-path')).toHaveText('$["1"][1].heading');
  await page.getByTestId('viewer-copy-path').click();
  await expect(page.getByTestId('viewer-copied')).toHaveText('copied $["1"][1].heading');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('$["1"][1].heading');
  await page.getByTestId('viewer-copy-value').click();
  expect(Number(await page.evaluate(() => navigator.clipboard.readText()))).toBeGreaterThanOrEqual(0);
  await page.screenshot({ path: join(SHOTS, 'viewer-search.png') });
  await page.getByTestId('viewer-close').click();
  await expect(viewer).toHaveCount(0);

  // The container box on the canvas opens the same viewer by double-click.
  const boxValue = editor.container('graph_state').getByTestId('live-value-graph_state-stats');
  await boxValue.hover();
  await expect(boxValue.getByTestId('open-value-graph_state-stats')).toBeVisible();
  await editor.container('graph_state').screenshot({ path: join(SHOTS, 'box-open-affordance.png') });
  await boxValue.dblclick();
  await expect(page.getByTestId('viewer-title')).toHaveText('graph_state.stats');
  await expect(viewer.locator('[data-path="$.distance"]')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await page.getByTestId('run-stop').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped');
});

test('a 100,000-item list opens virtualized and scrolls to its last item', async ({ page, server }) => {
  server.writeGraph('big_list', BIG_GRAPH);
  const editor = new EditorPage(page);
  await editor.open('?graph=big_list');
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', /done|stopped/, {
    timeout: 30_000,
  });
  await page.getByTestId('drawer-tab-state').click();
  const cell = page.getByTestId('state-panel').getByTestId('live-value-store-items');
  await expect(cell).toContainText('100000 items');

  const t0 = Date.now();
  await cell.dblclick();
  const viewer = page.getByTestId('value-viewer');
  await expect(viewer).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
  const scroller = page.getByTestId('viewer-scroller');
  await expect(scroller).toHaveAttribute('data-rows', String(BIG + 1));
  await expect(viewer.locator('[data-path="$[0]"]')).toBeVisible();
  const openMs = Date.now() - t0;

  // Scroll to the end: the last item is shown, the DOM holds a window of rows only.
  const t1 = Date.now();
  await scroller.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  const last = viewer.locator(`[data-path="$[${BIG - 1}]"]`);
  await expect(last).toBeVisible();
  await expect(last).toContainText(`"item-${BIG - 1}"`);
  const scrollMs = Date.now() - t1;
  const domRows = await viewer.getByTestId('viewer-row').count();
  expect(domRows).toBeGreaterThan(10);
  expect(domRows).toBeLessThan(200);

  // Search inside the big list jumps to the match.
  await page.getByTestId('viewer-search').fill('item-54321');
  await expect(page.getByTestId('viewer-match-count')).toHaveText('1 / 1');
  await expect(viewer.locator('[data-path="$[54321]"]')).toBeVisible();
  await expect(page.getByTestId('viewer-selected-path')).toHaveText('$[54321]');
  await page.screenshot({ path: join(SHOTS, 'viewer-100k.png') });
  console.log(`100k viewer: open ${openMs} ms, scroll-to-end ${scrollMs} ms, ${domRows} rows in the DOM`);
});
