// Batches in the editor, as a user runs one: "Batch…" on the demo (its own id and name) with 8
// episodes on 2 workers and a step_budget=15 override; the Batches tab follows the progress to 8/8;
// the table has 8 rows with distinct seeds (sortable), the aggregate and its chart are there; a row
// opens that episode's run on the Timeline; the CSV downloads; a bad override is refused beside its
// line, naming it; a long batch is cancelled.
// With BATCHES_SCREENSHOT=<file> it also saves the view at 1440×900 (docs/screenshots/batches.png).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
const NAME = 'Grid Navigator (batch spec)';
const DEMO = {
  ...(JSON.parse(readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8')) as object),
  name: NAME,
};
const BUDGET = 15;

const rows = (page: Page) => page.locator('[data-testid^="batch-episode-"]');
const attrs = (page: Page, name: string) =>
  rows(page).evaluateAll((els, n) => els.map((e) => e.getAttribute(n) ?? ''), name);

async function fillForm(page: Page, v: { episodes: string; workers: string; overrides: string }) {
  await page.getByTestId('batch-open').click();
  await expect(page.getByTestId('batch-form')).toBeVisible();
  await page.getByTestId('batch-form-episodes').fill(v.episodes);
  await page.getByTestId('batch-form-workers').fill(v.workers);
  await page.getByTestId('batch-form-overrides').fill(v.overrides);
}

test('batch of the demo: progress to 8/8, episodes table, aggregate, a row opens its run', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  server.writeGraph('batch_demo', DEMO);
  // Page errors and console errors (the refused start's 400 is the only failed request expected).
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource.*400/.test(m.text())) problems.push(m.text());
  });
  const editor = new EditorPage(page);
  await editor.open('?graph=batch_demo');
  await expect(editor.node('env')).toBeVisible();

  // 1. A line that is not path=value never leaves the form.
  await fillForm(page, { episodes: '8', workers: '2', overrides: `step_budget=${BUDGET}\noops` });
  await page.getByTestId('batch-form-start').click();
  await expect(page.getByTestId('batch-form-error')).toHaveAttribute('data-line', '2');
  await expect(page.getByTestId('batch-form-error')).toContainText('"oops" is not path=value');

  // 2. Start 8 episodes on 2 workers with the override: the form closes, the Batches tab shows it.
  await page.getByTestId('batch-form-overrides').fill(`step_budget=${BUDGET}`);
  await expect(page.getByTestId('batch-form-error')).toHaveCount(0);
  const started = page.waitForResponse(
    (r) => r.url().endsWith('/api/batches') && r.request().method() === 'POST',
  );
  await page.getByTestId('batch-form-start').click();
  const res = await started;
  expect(res.status()).toBe(202);
  const { batch_id } = (await res.json()) as { batch_id: string };
  await expect(page.getByTestId('batch-form')).toHaveCount(0);
  await expect(page.getByTestId('batches-panel')).toBeVisible();
  await expect(page.getByTestId('batch-detail')).toHaveAttribute('data-batch-id', batch_id);
  await expect(page.getByTestId(`batch-item-${batch_id}`)).toHaveAttribute('data-selected', 'true');
  await expect(page.getByTestId('batch-title')).toHaveText(NAME);
  await expect(page.getByTestId('batch-sets')).toHaveText(`step_budget=${BUDGET}`);

  // Every moment the panel says "done", its aggregate is either the final one or says it is behind
  // (the notice that ends the batch arrives before the last rows are fetched).
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as { __doneViews?: string[] }).__doneViews = seen;
    const look = () => {
      const status = document.querySelector('[data-testid="batch-status"]')?.getAttribute('data-status');
      const agg = document.querySelector('[data-testid="batch-aggregate"]');
      if (status === 'done' && agg)
        seen.push(`${agg.getAttribute('data-episodes')}:${agg.getAttribute('data-behind')}`);
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });

  // 3. The progress reaches 8/8 and the batch ends.
  const progress = page.getByTestId('batch-progress');
  await expect(progress).toHaveAttribute('data-total', '8');
  await expect(progress).toHaveText('8/8', { timeout: 90_000 });
  await expect(page.getByTestId('batch-status')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('batch-cancel')).toBeDisabled();
  await expect(page.getByTestId('batch-rate')).toContainText('ep/s');

  // 4. Eight rows, distinct seeds, no episode past the overridden budget; the server agrees.
  await expect(page.getByTestId('batch-episodes')).toHaveAttribute('data-rows', '8');
  await expect(rows(page)).toHaveCount(8);
  const seeds = await attrs(page, 'data-seed');
  expect(new Set(seeds).size).toBe(8);
  const steps = (await attrs(page, 'data-steps')).map(Number);
  for (const s of steps) expect(s).toBeGreaterThan(0);
  for (const s of steps) expect(s).toBeLessThanOrEqual(BUDGET);
  const detail = (await (await page.request.get(`/api/batches/${batch_id}`)).json()) as {
    episodes: { seed: number; run_id: string }[];
    aggregate: { episodes: number; success_rate: number };
  };
  expect(detail.episodes.map((e) => String(e.seed)).sort()).toEqual([...seeds].sort());
  expect(detail.aggregate.episodes).toBe(8);
  await expect(page.getByTestId('batch-aggregate')).toHaveAttribute('data-episodes', '8');
  await expect(page.getByTestId('batch-aggregate')).toHaveAttribute('data-behind', 'false');
  await expect(page.getByTestId('batch-aggregate-scope')).toHaveText('over 8 episodes');
  const doneViews = await page.evaluate(() => (window as { __doneViews?: string[] }).__doneViews ?? []);
  expect(doneViews.length).toBeGreaterThan(0);
  expect(doneViews.filter((v) => !v.startsWith('8:') && !v.endsWith(':true'))).toEqual([]);

  // 5. Sorting by seed orders the rows by seed; again, the other way.
  await page.getByTestId('batch-sort-seed').click();
  await expect(page.getByTestId('batch-sort-seed')).toHaveAttribute('data-sorted', 'asc');
  const ascending = [...seeds].map(Number).sort((a, b) => a - b);
  expect((await attrs(page, 'data-seed')).map(Number)).toEqual(ascending);
  await page.getByTestId('batch-sort-seed').click();
  expect((await attrs(page, 'data-seed')).map(Number)).toEqual([...ascending].reverse());
  await page.getByTestId('batch-sort-episode').click();

  // 6. The aggregate: success rate, mean steps, and a chart with one point per episode. Beside the
  // table when the drawer is wide enough, else behind the Summary switch.
  const summary = page.getByTestId('batch-view-summary');
  if (await summary.isVisible()) await summary.click();
  await expect(page.getByTestId('batch-aggregate')).toBeVisible();
  await expect(page.getByTestId('batch-success-rate')).toHaveText(
    `${(detail.aggregate.success_rate * 100).toFixed(1)}%`,
  );
  await expect(page.getByTestId('batch-mean-steps')).toHaveText(/^\d/);
  const plot = page.getByTestId('batch-chart').getByTestId('episode-plot');
  await expect(plot).toHaveAttribute('data-steps', '8');
  await expect(plot.locator('canvas')).toBeVisible();

  if (process.env.BATCHES_SCREENSHOT) {
    await page.mouse.move(0, 0);
    await page.screenshot({ path: process.env.BATCHES_SCREENSHOT });
  }

  // 7. Download CSV: a header and one line per episode.
  const download = page.waitForEvent('download');
  await page.getByTestId('batch-csv').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`${batch_id}\\.csv$`));
  const csv = readFileSync((await file.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv).toHaveLength(9);

  // 8. A row opens that episode's run on the Timeline (its id in the URL).
  const table = page.getByTestId('batch-view-episodes');
  if (await table.isVisible()) await table.click();
  const row = page.getByTestId('batch-episode-3');
  const runId = (await row.getAttribute('data-run-id'))!;
  const rowSteps = Number(await row.getAttribute('data-steps'));
  await row.click();
  await expect(page.getByTestId('timeline-panel')).toBeVisible();
  await expect(page.getByTestId('timeline-panel')).toContainText(runId);
  await expect(page.getByTestId('timeline-count')).toHaveText(`${rowSteps} steps`);
  expect(new URL(page.url()).searchParams.get('run')).toBe(runId);
  // Back on the Batches tab the batch is still selected, the row marked as the one shown.
  await page.getByTestId('drawer-tab-batches').click();
  await expect(page.getByTestId('batch-detail')).toHaveAttribute('data-batch-id', batch_id);

  // 9. An override of a node the graph does not have: refused by the server, beside its line.
  await fillForm(page, {
    episodes: '2',
    workers: '1',
    overrides: `step_budget=${BUDGET}\nnodes.envx.config.seed=3`,
  });
  await page.getByTestId('batch-form-start').click();
  const err = page.getByTestId('batch-form-error');
  await expect(err).toHaveAttribute('data-field', 'overrides');
  await expect(err).toHaveAttribute('data-line', '2');
  await expect(err).toContainText('nodes.envx');
  await page.getByTestId('batch-form-cancel').click();
  await expect(page.getByTestId('batch-form')).toHaveCount(0);

  // 10. A long batch, cancelled: it ends `cancelled` short of its total, listed above the first.
  await fillForm(page, { episodes: '60', workers: '1', overrides: `step_budget=${BUDGET}` });
  const second = page.waitForResponse(
    (r) => r.url().endsWith('/api/batches') && r.request().method() === 'POST',
  );
  await page.getByTestId('batch-form-start').click();
  const longId = ((await (await second).json()) as { batch_id: string }).batch_id;
  await expect(page.getByTestId('batch-form')).toHaveCount(0);
  await expect(page.getByTestId('batch-detail')).toHaveAttribute('data-batch-id', longId);
  await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-total', '60');
  await expect(page.getByTestId('batch-status')).toHaveAttribute('data-status', 'running');
  await page.getByTestId('batch-cancel').click();
  await expect(page.getByTestId('batch-status')).toHaveAttribute('data-status', 'cancelled', {
    timeout: 30_000,
  });
  expect(Number(await page.getByTestId('batch-progress').getAttribute('data-finished'))).toBeLessThan(60);
  const listed = await page
    .locator('[data-testid^="batch-item-"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  expect(listed[0]).toBe(`batch-item-${longId}`);
  expect(listed).toContain(`batch-item-${batch_id}`);
  expect(problems).toEqual([]);
});
