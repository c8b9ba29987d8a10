// New-user fixes in the browser: the drawer opens on State; the demo's trail is keyed per episode
// and the State panel says so; the slot editor offers value types with descriptions and refuses an
// unknown one as it is typed; the node inspector shows a node's local state live and at an
// inspected step.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = JSON.parse(
  readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8'),
) as unknown;

const stepOf = async (page: Page) =>
  Number((await page.getByTestId('run-step-counter').textContent())?.replace(/\D+/g, '') ?? NaN);
const activeDrawerTab = (page: Page, id: string) =>
  expect(page.getByTestId(`drawer-tab-${id}`)).toHaveClass(/border-sky-500/);

test('demo: State drawer, keyed trail, value-type suggestions and refusals, node local state', async ({
  page,
  server,
}) => {
  server.writeGraph('grid_navigator', DEMO);
  const editor = new EditorPage(page);
  await editor.open('?graph=grid_navigator');
  await expect(editor.container('memory')).toBeVisible();

  // 4. The drawer opens on State (the demo has only info notes), not on Issues.
  await activeDrawerTab(page, 'state');
  await expect(page.getByTestId('drawer-tab-issues')).not.toHaveClass(/border-sky-500/);
  await expect(page.getByTestId('state-panel')).toBeVisible();

  // 3. The slot editor's value type: suggestions with descriptions; an unknown type is refused as
  // it is typed and not committed.
  await editor.selectContainer('memory');
  const vt = page.getByTestId('slot-trail-value-type');
  await expect(vt).toHaveValue('POSE');
  await vt.click();
  const options = page.getByTestId('slot-trail-value-type-options');
  await expect(options.getByRole('option')).toHaveCount(9);
  await expect(page.getByTestId('slot-trail-value-type-option-POSE')).toContainText('position and heading');
  await vt.fill('POSEE');
  await expect(page.getByTestId('slot-trail-value-type-error')).toHaveText(
    /^unknown value type 'POSEE'; use one of TEXT, BOOL/,
  );
  await vt.press('Enter');
  await expect(page.getByTestId('slot-trail-value-type-error')).toBeVisible();
  await expect(page.getByTestId('state-row-memory-trail')).toContainText('POSE');
  await expect(page.getByTestId('state-row-memory-trail')).not.toContainText('POSEE');
  await vt.press('Escape');
  await expect(vt).toHaveValue('POSE');
  await expect(page.getByTestId('slot-trail-value-type-error')).toHaveCount(0);

  // 1. Run: the trail is written keyed by episode, and the State panel shows its one key.
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  await expect.poll(() => stepOf(page)).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('live-value-memory-trail').first()).toContainText('1 key');
  await expect(page.getByTestId('state-row-memory-trail')).toContainText(/1 key · \d+ items?/);

  // 5. The node inspector shows the env's local state live, following the run.
  await editor.node('env').click();
  const local = page.getByTestId('node-local-state');
  await expect(local).toBeVisible();
  await expect(page.getByTestId('node-local-state-step')).toContainText(/^live · step \d+$/);
  await expect(page.getByTestId('node-local-state-value')).toContainText('"episode": 1');
  const firstLive = Number(await local.getAttribute('data-step'));
  await expect.poll(async () => Number(await local.getAttribute('data-step'))).toBeGreaterThan(firstLive);

  // …and at an inspected step (full values).
  await page.getByTestId('run-pause').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused');
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('timeline-tick-2').click();
  await expect(page.getByTestId('timeline-values')).toHaveAttribute('data-full', 'true');
  await expect(page.getByTestId('node-local-state-step')).toHaveText('inspected step 2');
  await expect(local).toHaveAttribute('data-inspecting', 'true');
  // At step 2 the env is two fires into episode 1 (t counts from 0 at the reset).
  await expect(page.getByTestId('node-local-state-value')).toContainText('"t": 1');
  await page.getByTestId('run-stop').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'stopped');
});
