// Live runs through the UI: Play the demo graph, watch the step counter and a container's live value
// move, Pause, Step once, inspect an earlier step on the Timeline, Restore it, Resume, Fork; then
// open the first run by its `/?run=<id>` link and find its graph and timeline.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
// Its own name: the editor opens a graph showing the latest run of that name, and earlier specs
// ran the demo under its usual one.
const DEMO = {
  ...(JSON.parse(readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8')) as object),
  name: 'Grid Navigator (run spec)',
};

const counter = (page: Page) => page.getByTestId('run-step-counter');
const stepOf = async (page: Page) => Number((await counter(page).textContent())?.replace(/\D+/g, '') ?? NaN);
/** The container box's live value line for the step counter slot (the canvas, not the State panel). */
const boxValue = (page: Page) =>
  page.getByTestId('container-graph_state').getByTestId('live-value-graph_state-step_count');

test.describe.configure({ mode: 'serial' });

let runId = '';

test('play, pause, step, inspect, restore, resume and fork the demo graph', async ({ page, server }) => {
  server.writeGraph('run_spec_demo', DEMO);
  const editor = new EditorPage(page);
  await editor.open('?graph=run_spec_demo');
  await expect(editor.container('graph_state')).toBeVisible();
  await expect(boxValue(page)).toHaveText('');

  // Play: the counter advances and the container box shows the live counter slot.
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  await expect.poll(() => stepOf(page)).toBeGreaterThanOrEqual(2);
  const seen = (await boxValue(page).textContent()) ?? '';
  expect(seen).toMatch(/^\d+$/);
  await expect.poll(async () => (await boxValue(page).textContent()) ?? '').not.toBe(seen);

  // Pause: the counter settles on the server's step.
  await page.getByTestId('run-pause').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused');
  const paused = (await (await page.request.get('/api/navigate/run/status')).json()) as {
    step: number;
    execution_id: string;
  };
  runId = paused.execution_id;
  await expect(counter(page)).toHaveText(`Step ${paused.step}`);
  await expect(boxValue(page)).toHaveText(String(paused.step));

  // Step once: exactly one more step, still paused.
  await page.getByTestId('run-step').click();
  await expect(counter(page)).toHaveText(`Step ${paused.step + 1}`);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused');

  // Timeline: one tick per step; inspecting step 2 shows its values on the canvas.
  await page.getByTestId('drawer-tab-timeline').click();
  await expect(page.getByTestId('timeline-count')).toHaveText(`${paused.step + 1} steps`);
  await page.getByTestId('timeline-tick-2').click();
  await expect(page.getByTestId('timeline-selected')).toHaveText('inspecting step 2');
  await expect(boxValue(page)).toHaveText('2');
  await expect(boxValue(page)).toHaveAttribute('data-inspecting', 'true');
  await expect(page.getByTestId('timeline-values')).toHaveAttribute('data-full', 'true');
  await expect(page.getByTestId('timeline-changes')).toContainText('graph_state.step_count');

  // Restore step 2: the run rewinds there, paused; the later ticks are gone.
  await page.getByTestId('timeline-restore').click();
  await expect(counter(page)).toHaveText('Step 2');
  await expect(page.getByTestId('timeline-count')).toHaveText('2 steps');
  await expect(boxValue(page)).toHaveAttribute('data-inspecting', 'false');
  await expect(page.getByTestId('run-play')).toContainText('Resume');

  // Resume continues from step 2.
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  await expect.poll(() => stepOf(page)).toBeGreaterThanOrEqual(4);
  await expect(page.getByTestId('timeline-tick-4')).toBeVisible();

  // Fork from step 3: a new run, paused at 3, whose timeline keeps the parent's first 3 steps.
  await page.getByTestId('timeline-tick-3').click();
  await page.getByTestId('timeline-fork').click();
  await page.getByTestId('fork-start').click();
  await expect(page.getByTestId('timeline-panel')).toContainText('fork_');
  await expect(counter(page)).toHaveText('Step 3');
  await expect(page.getByTestId('timeline-count')).toHaveText('3 steps');
  await page.getByTestId('run-play').click();
  await expect.poll(() => stepOf(page)).toBeGreaterThanOrEqual(5);
  await page.getByTestId('run-stop').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped');

  // After a reload the fork reads the same: the parent's first steps, then its own, same episodes.
  const count = (await page.getByTestId('timeline-count').textContent())!;
  const bands = page.locator('[data-testid^="timeline-band-"]');
  const bandCount = await bands.count();
  const forkRun = (await page.getByTestId('timeline-panel').textContent())!.match(/fork_\w+/)![0];
  await page.reload();
  await expect(editor.container('graph_state')).toBeVisible();
  await page.getByTestId('drawer-tab-timeline').click();
  await expect(page.getByTestId('timeline-panel')).toContainText(forkRun);
  await expect(page.getByTestId('timeline-count')).toHaveText(count);
  await expect(page.getByTestId('timeline-tick-1')).toBeVisible();
  await expect(bands).toHaveCount(bandCount);
});

test('/?run=<id> opens a past run with its graph and timeline', async ({ page }) => {
  expect(runId).not.toBe('');
  const info = (await (await page.request.get(`/api/runs/${runId}`)).json()) as { steps: number };
  const editor = new EditorPage(page);
  await editor.open(`?run=${encodeURIComponent(runId)}`);
  // The run's tab names the run (its tooltip, the whole id).
  await expect(editor.activeTab()).toHaveAttribute('title', new RegExp(`· run ${runId}$`));
  await expect(editor.container('graph_state')).toBeVisible();
  await expect(editor.node('env')).toBeVisible();
  // The drawer switched to the Timeline by itself.
  await expect(page.getByTestId('timeline-panel')).toContainText(runId);
  await expect(page.getByTestId(`timeline-tick-${info.steps}`)).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped');
  // The last step's values are on the canvas; inspecting the first step shows its own.
  await expect(boxValue(page)).toHaveText(String(info.steps));
  await page.getByTestId('timeline-tick-1').click();
  await expect(boxValue(page)).toHaveText('1');
  // The Runs menu lists the history, forks included; picking one opens it.
  await page.getByTestId('runs-menu').click();
  const forkItem = page.locator('[data-testid^="runs-item-fork_"]').first();
  await expect(forkItem).toContainText('fork');
  await forkItem.click();
  await expect(page.getByTestId('timeline-panel')).toContainText('fork_');
  await expect(page).toHaveURL(/\?run=fork_/);
});
