// Data breakpoints through the UI: a condition on a slot stops the run the moment the slot takes
// that value, the writer node and the slot are highlighted and the Log says which breakpoint hit;
// Step and Resume go on; a disabled breakpoint no longer stops; breakpoints survive a reload (view
// settings of the graph, not its file); a slot's dot breaks on every write; a node breakpoint stops
// before the node fires.
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

const status = (page: Page) => page.getByTestId('run-status');
const serverStatus = async (page: Page) =>
  (await (await page.request.get('/api/navigate/run/status')).json()) as {
    status: string;
    step: number;
    breakpoint?: { node_id: string; value: unknown };
  };

/** The demo graph saved as `id` (its name, so no earlier run of it is shown) and opened. */
async function openDemoAs(page: Page, server: ServerHandle, id: string): Promise<EditorPage> {
  server.writeGraph(id, { ...(DEMO as object), name: id });
  const editor = new EditorPage(page);
  await editor.open(`?graph=${id}`);
  await expect(editor.container('graph_state')).toBeVisible();
  return editor;
}

/** The Breakpoints tab's form: `graph_state.step_count >= value`. */
async function addStepCountBreakpoint(page: Page, value: number): Promise<void> {
  await page.getByTestId('drawer-tab-breakpoints').click();
  await page.getByTestId('bp-kind').selectOption('match');
  await page.getByTestId('bp-slot').selectOption('graph_state.step_count');
  await page.getByTestId('bp-op').selectOption('>=');
  await page.getByTestId('bp-value').fill(String(value));
  await page.getByTestId('bp-add').click();
}

test('a slot condition stops the run, shows who wrote it, and Step/Resume/disable go on', async ({
  page,
  server,
}) => {
  await openDemoAs(page, server, 'bp_navigator');

  // Breakpoints tab: graph_state.step_count >= 3.
  await addStepCountBreakpoint(page, 3);
  const row = page.locator('[data-testid^="bp-row-"]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('graph_state.step_count >= 3');
  await expect(page.getByTestId('bp-count')).toHaveText('1');

  // Play: the run stops when step_count becomes 3.
  await page.getByTestId('run-play').click();
  await expect(status(page)).toHaveAttribute('data-status', 'paused');
  const paused = await serverStatus(page);
  expect(paused.breakpoint?.value).toBe(3);
  const writer = paused.breakpoint!.node_id;
  await expect(page.getByTestId('bp-hit')).toContainText(`step 3, written by ${writer}`);
  await expect(row).toHaveAttribute('data-hit', 'true');
  // The writer node and the slot are highlighted on the canvas.
  await expect(page.getByTestId(`node-${writer}`)).toHaveAttribute('data-breakpoint', 'true');
  await expect(page.getByTestId('slot-row-graph_state-step_count')).toHaveAttribute('data-hit', 'true');
  // The Log says which breakpoint hit.
  await page.getByTestId('drawer-tab-log').click();
  await expect(
    page
      .getByTestId('run-log-line')
      .filter({ hasText: 'breakpoint hit: graph_state.step_count >= 3 (step 3' }),
  ).toHaveCount(1);

  // Step: finishes that step; the highlight goes, the run stays paused.
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('slot-row-graph_state-step_count')).toHaveAttribute('data-hit', 'false');
  await expect(status(page)).toHaveAttribute('data-status', 'paused');

  // Resume: the condition still holds, so the next write (4) stops it again.
  await page.getByTestId('run-play').click();
  await expect.poll(async () => (await serverStatus(page)).breakpoint?.value).toBe(4);
  await expect(status(page)).toHaveAttribute('data-status', 'paused');

  // Disable it: Resume now runs on.
  await page.getByTestId('drawer-tab-breakpoints').click();
  await row.getByTestId('bp-enabled').uncheck();
  await expect(page.getByTestId('bp-count')).toHaveCount(0);
  await page.getByTestId('run-play').click();
  await expect(status(page)).toHaveAttribute('data-status', 'running');
  await expect.poll(async () => (await serverStatus(page)).step).toBeGreaterThan(6);
  await page.getByTestId('run-stop').click();
  await expect(status(page)).toHaveAttribute('data-status', 'stopped');

  // The breakpoint is a view setting of the saved graph: still there after a reload, still off,
  // and the graph file itself has no trace of it.
  await page.reload();
  await page.getByTestId('drawer-tab-breakpoints').click();
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('bp-enabled')).not.toBeChecked();
  expect(JSON.stringify(server.readGraph('bp_navigator'))).not.toContain('step_count >=');
});

test('the slot dot breaks on every write; a node breakpoint stops before the node fires', async ({
  page,
  server,
}) => {
  await openDemoAs(page, server, 'bp_demo');

  // The dot on the container box's `stats` row: break on every write of it.
  const dot = page.getByTestId('slot-row-graph_state-stats').getByTestId('slot-bp-graph_state-stats');
  await dot.click();
  await expect(dot).toHaveAttribute('data-set', 'true');
  await page.getByTestId('run-play').click();
  await expect(status(page)).toHaveAttribute('data-status', 'paused');
  await expect(page.getByTestId('slot-row-graph_state-stats')).toHaveAttribute('data-hit', 'true');
  await dot.click(); // off again
  await expect(dot).toHaveAttribute('data-set', 'false');

  // A node breakpoint on the policy: the next stop is before it fires.
  await page.getByTestId('drawer-tab-breakpoints').click();
  await page.getByTestId('bp-kind').selectOption('node');
  await page.getByTestId('bp-node').selectOption('policy');
  await page.getByTestId('bp-add').click();
  await page.getByTestId('run-play').click();
  await expect.poll(async () => (await serverStatus(page)).breakpoint?.node_id).toBe('policy');
  await expect(page.getByTestId('bp-hit')).toContainText('paused here');
  await expect(page.getByTestId('node-policy')).toHaveAttribute('data-breakpoint', 'true');
  await page.getByTestId('run-stop').click();
  await expect(status(page)).toHaveAttribute('data-status', 'stopped');
});

test('paused inside a step, every view shows the state right after the hit, after a reload too', async ({
  page,
  server,
}) => {
  const editor = await openDemoAs(page, server, 'bp_in_step');
  await addStepCountBreakpoint(page, 5);
  await page.getByTestId('run-play').click();
  await expect(status(page)).toHaveAttribute('data-status', 'paused');
  // The policy writes step_count in the middle of step 5: the server has 4 complete steps.
  const paused = await serverStatus(page);
  expect(paused.step).toBe(4);
  expect(paused.breakpoint?.value).toBe(5);

  const everyView = async () => {
    await expect(page.getByTestId('bp-hit')).toContainText('step 5');
    await expect(page.getByTestId('run-step-counter')).toHaveText('Step 5');
    await expect(page.getByTestId('run-step-counter')).toHaveAttribute('data-in-step', 'true');
    await expect(page.getByTestId('slot-live-graph_state-step_count')).toHaveText('5');
    await page.getByTestId('drawer-tab-state').click();
    await expect(page.getByTestId('live-value-graph_state-step_count').first()).toContainText('5');
    await page.getByTestId('drawer-tab-timeline').click();
    await expect(page.getByTestId('timeline-selected')).toHaveText('live · step 5 (paused inside it)');
    const tick = page.locator('[data-testid="timeline-tick-5"][data-partial="true"]');
    await expect(tick).toHaveAttribute('data-current', 'true');
    await expect(page.getByTestId('timeline-changes')).toContainText('step_count counter 5');
    await page.getByTestId('drawer-tab-breakpoints').click();
  };
  await everyView();
  await page.reload();
  await expect(editor.container('graph_state')).toBeVisible();
  await page.getByTestId('drawer-tab-breakpoints').click();
  await everyView();

  // Step finishes step 5: its own snapshot takes over, still 5, no longer "inside".
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('run-step-counter')).toHaveAttribute('data-in-step', 'false');
  await expect(page.getByTestId('run-step-counter')).toHaveText('Step 5');
  await expect(page.getByTestId('slot-live-graph_state-step_count')).toHaveText('5');
  await page.getByTestId('run-stop').click();
  await expect(status(page)).toHaveAttribute('data-status', 'stopped');
});
