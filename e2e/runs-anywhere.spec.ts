// Runs started anywhere, in Chromium against a real server: the connection status and the catch-up
// after the socket is cut mid-run; a run started over REST appears live in the Runs menu and the
// editor showing its graph offers to follow it; Play while another graph's run is live asks first,
// and the replaced editor says so; a reopened editor shows the graph's latest run; a restore keeps
// the abandoned steps as a branch that can be opened; a finished run is deleted from the Runs menu.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = JSON.parse(
  readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8'),
) as Record<string, unknown>;
const OTHER = { ...DEMO, name: 'Other Navigator' };
const SHOTS = process.env.RUNS_SHOTS ?? '/tmp/runs-shots';

const counter = (page: Page) => page.getByTestId('run-step-counter');
const stepOf = async (page: Page) => Number((await counter(page).textContent())?.replace(/\D+/g, '') ?? NaN);

interface Status {
  status: string;
  step: number;
  execution_id: string | null;
}
const serverStatus = async (request: APIRequestContext) =>
  (await (await request.get('/api/navigate/run/status')).json()) as Status;
const startViaRest = async (request: APIRequestContext, graph: unknown, delay = 200, paused = false) => {
  const r = await request.post('/api/navigate/run', {
    data: { loop_definition: graph, step_delay_ms: delay, paused },
  });
  expect(r.ok()).toBe(true);
  return ((await r.json()) as { execution_id: string }).execution_id;
};
const stopViaRest = (request: APIRequestContext) =>
  request.post('/api/navigate/run/stop', { headers: { 'content-type': 'application/json' } });

test.describe.configure({ mode: 'serial' });

test.beforeEach(({ server }) => {
  server.writeGraph('grid_navigator', DEMO);
  server.writeGraph('other_navigator', OTHER);
});

test('connection status; cut the socket for 3 s mid-run and the view catches up, no gap, no duplicate', async ({
  page,
}) => {
  const editor = new EditorPage(page);
  await editor.open('?graph=grid_navigator');
  const conn = page.getByTestId('connection-status');
  await expect(conn).toHaveAttribute('data-state', 'connected');
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  await expect.poll(() => stepOf(page)).toBeGreaterThanOrEqual(5);

  await page.context().setOffline(true);
  await expect(conn).toHaveAttribute('data-state', 'offline');
  await expect(conn).toHaveText('offline');
  await page.screenshot({ path: `${SHOTS}/offline.png` });
  const frozen = await stepOf(page);
  await page.waitForTimeout(3000);
  // The server ran on while this page heard nothing.
  expect((await serverStatus(page.request)).step).toBeGreaterThan(frozen + 5);
  await page.context().setOffline(false);
  await expect(conn).toHaveAttribute('data-state', 'connected');

  // Caught up: the toolbar follows the server's step again (within the step in flight).
  await expect
    .poll(async () => (await serverStatus(page.request)).step - (await stepOf(page)), { timeout: 10_000 })
    .toBeLessThanOrEqual(1);
  await page.getByTestId('run-pause').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused');
  const paused = await serverStatus(page.request);
  await expect(counter(page)).toHaveText(`Step ${paused.step}`);
  // No gap, no duplicate: one tick per step 1..N on the timeline.
  await page.getByTestId('drawer-tab-timeline').click();
  await expect(page.getByTestId('timeline-count')).toHaveText(`${paused.step} steps`);
  const ticks = await page
    .locator('[data-testid^="timeline-tick-"]')
    .evaluateAll((els) =>
      els.map((e) => Number(e.getAttribute('data-testid')!.replace('timeline-tick-', ''))),
    );
  expect(ticks).toEqual(Array.from({ length: paused.step }, (_, i) => i + 1));
});

test('a run started over REST replaces the shown one: the editor says so, the Runs menu has it live with Follow', async ({
  page,
}) => {
  // A paused run of this graph, started elsewhere before the editor opens (every test starts with
  // no live run, see fixtures.ts): the editor re-attaches to it.
  const before = await startViaRest(page.request, DEMO, 200, true);
  const editor = new EditorPage(page);
  await editor.open('?graph=grid_navigator');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused');
  expect((await serverStatus(page.request)).execution_id).toBe(before);

  const id = await startViaRest(page.request, DEMO);
  const notice = page.getByTestId('run-notice-replaced');
  await expect(notice).toContainText(
    `Run ${before} was stopped: a new run ${id} of graph Grid Navigator started from elsewhere`,
  );
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped');
  await page.screenshot({ path: `${SHOTS}/notice-replaced.png` });
  await notice.getByTestId('run-notice-dismiss').click();
  await expect(notice).toHaveCount(0);

  // The Runs menu lists it live (status, steps, duration) with Follow.
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('runs-menu').click();
  const row = page.getByTestId(`runs-item-${id}`);
  await expect(row).toHaveAttribute('data-status', 'running');
  const firstSteps = Number(await row.getByTestId('runs-item-steps').textContent());
  await expect
    .poll(async () => Number(await row.getByTestId('runs-item-steps').textContent()))
    .toBeGreaterThan(firstSteps);
  await page.screenshot({ path: `${SHOTS}/runs-menu.png` });
  await page.getByTestId(`runs-follow-${id}`).click();
  await expect(page.getByTestId('timeline-panel')).toContainText(id);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  await expect
    .poll(async () => (await serverStatus(page.request)).step - (await stepOf(page)))
    .toBeLessThanOrEqual(1);

  // Stop from elsewhere, forget it here, then a REST start of this graph: "started from elsewhere", Follow.
  await stopViaRest(page.request);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped');
  const next = await startViaRest(page.request, DEMO);
  const started = page.getByTestId('run-notice-started');
  await expect(started).toContainText(
    `Run ${next} of graph Grid Navigator (open here) started from elsewhere`,
  );
  await page.screenshot({ path: `${SHOTS}/notice-started.png` });
  await started.getByTestId('run-notice-follow').click();
  await expect(page.getByTestId('timeline-panel')).toContainText(next);
  await expect.poll(() => stepOf(page)).toBeGreaterThanOrEqual(2);
  await stopViaRest(page.request);

  // The offer goes once the run is followed by another way too (here: Runs › Follow).
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped');
  const third = await startViaRest(page.request, DEMO);
  await expect(page.getByTestId('run-notice-started')).toContainText(`Run ${third} of graph`);
  await page.getByTestId('runs-menu').click();
  await page.getByTestId(`runs-follow-${third}`).click();
  await expect(page.getByTestId('timeline-panel')).toContainText(third);
  await expect(page.getByTestId('run-notices')).toHaveCount(0);
  await stopViaRest(page.request);
});

test('Play while another graph runs in another tab asks first; the replaced tab says so', async ({
  page,
  context,
}) => {
  const first = new EditorPage(page);
  await first.open('?graph=grid_navigator');
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  const running = (await serverStatus(page.request)).execution_id!;

  const page2 = await context.newPage();
  const second = new EditorPage(page2);
  await second.open('?graph=other_navigator');
  await page2.getByTestId('run-play').click();
  const dialog = page2.getByTestId('run-confirm');
  await expect(dialog).toBeVisible();
  await expect(page2.getByTestId('run-confirm-text')).toContainText(
    'Stop run of Grid Navigator and start this one (Other Navigator)?',
  );
  await page2.screenshot({ path: `${SHOTS}/confirm.png` });
  // Cancel: nothing changes on the server.
  await page2.getByTestId('run-confirm-cancel').click();
  await expect(dialog).toHaveCount(0);
  expect((await serverStatus(page.request)).execution_id).toBe(running);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');

  // Confirm: the other graph's run starts, and the first tab is told why its run stopped.
  await page2.getByTestId('run-play').click();
  await page2.getByTestId('run-confirm-ok').click();
  await expect(page2.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  const other = (await serverStatus(page.request)).execution_id!;
  expect(other).not.toBe(running);
  await expect(page.getByTestId('run-notice-replaced')).toContainText(
    `Run ${running} was stopped: a new run ${other} of graph Other Navigator started from elsewhere`,
  );
  await expect(page2.getByTestId('run-notices')).toHaveCount(0);
  await page2.getByTestId('run-stop').click();
  await page2.close();
});

test('reopening the editor after a run finished shows its latest run on the timeline', async ({ page }) => {
  const id = await startViaRest(page.request, { ...DEMO, step_budget: 12 }, 0);
  await expect.poll(async () => (await serverStatus(page.request)).status).toBe('done');
  const editor = new EditorPage(page);
  await editor.open('?graph=grid_navigator');
  await expect(counter(page)).toHaveText('Step 12');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done');
  await page.getByTestId('drawer-tab-timeline').click();
  await expect(page.getByTestId('timeline-panel')).toContainText(id);
  await expect(page.getByTestId('timeline-count')).toHaveText('12 steps');
  // Older runs are in Runs; filtering by status narrows the list.
  await page.getByTestId('runs-menu').click();
  await expect(page.getByTestId('runs-list').locator('[data-kind]')).not.toHaveCount(1);
  await page.getByTestId('runs-filter-status').selectOption('done');
  await expect(page.getByTestId(`runs-item-${id}`)).toBeVisible();
  for (const s of await page
    .getByTestId('runs-list')
    .locator('[data-kind]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))))
    expect(s).toBe('done');
  await page.getByTestId('runs-filter-graph').fill('Other');
  await expect(page.getByTestId(`runs-item-${id}`)).toHaveCount(0);
});

test('restore keeps the abandoned steps as a branch that can be opened; a run is deleted from Runs', async ({
  page,
}) => {
  const id = await startViaRest(page.request, { ...DEMO, step_budget: 30 }, 0);
  await expect.poll(async () => (await serverStatus(page.request)).status).toBe('done');
  const editor = new EditorPage(page);
  await editor.open('?graph=grid_navigator');
  await expect(counter(page)).toHaveText('Step 30');
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('timeline-tick-20').click();
  const restoreBtn = page.getByTestId('timeline-restore');
  await expect(restoreBtn).toHaveText('Restore to step 20: steps 21–30 are kept as branch');
  await restoreBtn.click();
  await expect(counter(page)).toHaveText('Step 20');
  await expect(page.getByTestId('timeline-count')).toHaveText('20 steps');
  const branched = page.getByTestId('run-notice-branched');
  await expect(branched).toContainText(`Steps 21–30 of run ${id} are kept as branch branch_`);
  await page.screenshot({ path: `${SHOTS}/notice-branched.png` });
  const branchId = (await branched.getAttribute('data-run'))!;
  // The timeline lists the run's branches too.
  await expect(page.getByTestId('timeline-branches')).toHaveText('1 branch');
  await page.getByTestId('timeline-branches').click();
  await expect(page.getByTestId(`timeline-branch-${branchId}`)).toContainText('steps 21–30 (restored at 20)');
  await page.getByTestId('timeline-branches').click();
  await branched.getByTestId('run-notice-follow').click();
  await expect(page.getByTestId('timeline-panel')).toContainText(branchId);
  await expect(page.getByTestId('timeline-branches')).toHaveText('branch @20');
  await expect(page.getByTestId('timeline-branches')).toHaveAttribute('title', new RegExp(`branch of ${id}`));
  await expect(page.getByTestId('timeline-tick-30')).toBeVisible();
  await expect(page.getByTestId('timeline-tick-21')).toBeVisible();

  // The Runs menu lists the branch; delete it with its log.
  await page.getByTestId('runs-menu').click();
  const row = page.getByTestId(`runs-item-${branchId}`);
  await expect(row).toHaveAttribute('data-kind', 'branch');
  await expect(row.getByTestId('runs-item-kind')).toHaveText('branch @20');
  await page.screenshot({ path: `${SHOTS}/runs-menu-branch.png` });
  await page.getByTestId(`runs-delete-${branchId}`).click();
  await expect(page.getByTestId('run-confirm-text')).toContainText(`Delete run ${branchId}`);
  await page.getByTestId('run-confirm-ok').click();
  await expect(row).toHaveCount(0);
  expect((await page.request.get(`/api/runs/${branchId}`)).status()).toBe(404);
  await stopViaRest(page.request);
});

test('a run started while the editor was offline is announced after the reconnect', async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open('?graph=grid_navigator');
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  const mine = (await serverStatus(page.request)).execution_id!;
  await page.context().setOffline(true);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'offline');
  const id = await startViaRest(page.request, OTHER);
  await page.waitForTimeout(500);
  // Nothing reached this page while offline: the notice comes from the check after the reconnect.
  await expect(page.getByTestId('run-notices')).toHaveCount(0);
  await page.context().setOffline(false);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('run-notice-replaced')).toContainText(
    `Run ${mine} was stopped: a new run ${id} of graph Other Navigator started from elsewhere`,
  );
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped');
  await stopViaRest(page.request);
});
