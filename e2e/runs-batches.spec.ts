// Batch episodes do not flood the Runs menu: a batch is one row (its graph, "k episodes", its id,
// its status), closed by default; opened, it lists its episode runs, each opening like any run.
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';
import { writerGraph } from './writerGraph.ts';

const GRAPH = writerGraph('tiny_batch', { writer: 'w', value: 'x', stepBudget: 2 });

test('a batch is one row in Runs, closed by default; opened, it lists its episodes', async ({
  page,
  server,
}) => {
  const post = (path: string, body: unknown) =>
    page.request.post(`${server.url}${path}`, {
      data: body,
      headers: { 'content-type': 'application/json' },
    });
  const started = await post('/api/batches', { loop_definition: GRAPH, episodes: 6, workers: 2, seed: 1 });
  expect(started.status()).toBe(202);
  const batchId = ((await started.json()) as { batch_id: string }).batch_id;
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`${server.url}/api/batches/${batchId}`)).json()) as {
            batch: { status: string };
          }
        ).batch.status,
      { timeout: 60_000 },
    )
    .toBe('done');
  // And one ordinary run beside it.
  const single = await post('/api/navigate/run', { loop_definition: GRAPH, step_delay_ms: 0 });
  const singleId = ((await single.json()) as { execution_id: string }).execution_id;

  server.writeGraph('tiny_batch', GRAPH);
  const editor = new EditorPage(page);
  await editor.open('?graph=tiny_batch');
  await expect(editor.node('w')).toBeVisible();
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('runs-menu').click();

  const batch = page.getByTestId(`runs-batch-${batchId}`);
  await expect(batch).toHaveAttribute('data-open', 'false');
  await expect(batch.getByTestId('runs-batch-label')).toHaveText(`6 episodes · ${batchId}`);
  await expect(batch).toContainText('done');
  await expect(page.getByTestId(`runs-item-${singleId}`)).toBeVisible();
  await expect(page.locator(`[data-testid^="runs-item-${batchId}_e"]`)).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('runs-batch-closed.png') });

  await page.getByTestId(`runs-batch-toggle-${batchId}`).click();
  await expect(batch).toHaveAttribute('data-open', 'true');
  const episodes = page.locator(`[data-testid^="runs-item-${batchId}_e"]`);
  await expect(episodes).toHaveCount(6);
  await expect(episodes.first()).toContainText('episode 1');
  await page.screenshot({ path: test.info().outputPath('runs-batch-open.png') });

  // An episode opens like any run.
  await page.getByTestId(`runs-item-${batchId}_e3`).click();
  await expect(page.getByTestId('timeline-panel')).toContainText(`${batchId}_e3`);
});
