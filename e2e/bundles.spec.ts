// Run bundles through the UI: run the demo a few steps, Export it from the Runs menu (a real
// download), open a SECOND server, Import the file there through the menu's file picker: the run
// opens on the timeline with the same number of steps and the same values at an inspected step.
// A truncated file is refused with a toast and the second server's run list stays as it was.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';
import { startServer, type RunningServer } from './server.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = JSON.parse(
  readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8'),
) as unknown;

const boxValue = (page: Page) =>
  page.getByTestId('container-graph_state').getByTestId('live-value-graph_state-step_count');

/** What a user reads when inspecting `step` on the timeline: the canvas value and the values table. */
async function inspect(page: Page, step: number): Promise<{ box: string; values: string }> {
  await page.getByTestId(`timeline-tick-${step}`).click();
  await expect(page.getByTestId('timeline-selected')).toHaveText(`inspecting step ${step}`);
  await expect(page.getByTestId('timeline-values')).toHaveAttribute('data-full', 'true');
  return {
    box: (await boxValue(page).textContent()) ?? '',
    values: (await page.getByTestId('timeline-values').innerText()).trim(),
  };
}

async function importThroughMenu(page: Page, file: string): Promise<void> {
  await page.getByTestId('runs-menu').click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('runs-import').click();
  await (await chooser).setFiles(file);
}

let second: RunningServer | undefined;
const dir = mkdtempSync(join(tmpdir(), 'statewire-bundles-e2e-'));

test.afterAll(async () => {
  await second?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('export a run, import it into a second server, same timeline and values; a truncated file is refused', async ({
  page,
  server,
}) => {
  server.writeGraph('bundle_navigator', DEMO);
  const editor = new EditorPage(page);
  await editor.open('?graph=bundle_navigator');
  await expect(editor.container('graph_state')).toBeVisible();

  // Run the demo a few steps, then stop it: a finished run to export.
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  await expect
    .poll(async () => Number((await page.getByTestId('run-step-counter').textContent())?.replace(/\D+/g, '')))
    .toBeGreaterThanOrEqual(4);
  await page.getByTestId('run-stop').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped');
  const runId = (
    (await (await page.request.get('/api/navigate/run/status')).json()) as { execution_id: string }
  ).execution_id;
  const { steps } = (await (await page.request.get(`/api/runs/${runId}`)).json()) as { steps: number };
  expect(steps).toBeGreaterThanOrEqual(4);

  await page.getByTestId('drawer-tab-timeline').click();
  await expect(page.getByTestId('timeline-count')).toHaveText(`${steps} steps`);
  const before = await inspect(page, 3);
  expect(before.box).toBe('3');

  // Export: the Runs menu downloads `<graph>-<runid>.swrun`.
  await page.getByTestId('runs-menu').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('runs-export').click();
  const file = join(dir, (await download).suggestedFilename());
  expect((await download).suggestedFilename()).toBe(`Grid_Navigator-${runId}.swrun`);
  await (await download).saveAs(file);
  const bytes = readFileSync(file);
  expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);

  // A second, fresh server (its own workspace and database): nothing there yet.
  second = await startServer(join(here, 'fixtures/workspace'));
  const secondRuns = async () =>
    (await (await page.request.get(`${second!.url}/api/runs`)).json()) as unknown[];
  expect(await secondRuns()).toEqual([]);
  await page.goto(`${second.url}/`);
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
  await page.getByTestId('drawer-tab-timeline').click();
  await expect(page.getByTestId('timeline-panel')).toContainText('No run yet');

  // Import through the file picker: the run opens on the timeline like a `/?run=<id>` link.
  await importThroughMenu(page, file);
  await expect(page).toHaveURL(new RegExp(`\\?run=${runId}`));
  await expect(page.getByTestId('toast')).toContainText(`imported run ${runId}`);
  await expect(page.getByTestId('timeline-panel')).toContainText(runId);
  await expect(page.getByTestId('timeline-count')).toHaveText(`${steps} steps`);
  await expect(editor.container('graph_state')).toBeVisible();
  expect(await inspect(page, 3)).toEqual(before);
  const listed = await secondRuns();
  expect(listed).toHaveLength(1);

  // Restoring an imported run to continue it is refused (read-only), with the server's reason.
  await page.getByTestId('timeline-restore').click();
  await expect(page.getByTestId('timeline-panel')).toContainText(`${steps} steps`);
  const restore = await page.request.post(`${second.url}/api/runs/${runId}/restore`, {
    data: { step: 3 },
    headers: { 'content-type': 'application/json' },
  });
  expect(restore.status()).toBe(409);

  // A truncated bundle: a clear error toast, the run list and the shown run unchanged.
  const cut = join(dir, 'truncated.swrun');
  writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
  const url = page.url();
  await importThroughMenu(page, cut);
  await expect(page.getByTestId('toast')).toContainText('truncated.swrun: import refused (400)');
  await expect(page.getByTestId('toast')).toContainText('damaged or truncated');
  expect(await secondRuns()).toEqual(listed);
  expect(page.url()).toBe(url);
  await expect(page.getByTestId('timeline-count')).toHaveText(`${steps} steps`);
});
