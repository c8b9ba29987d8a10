// What a user watches while a run goes on and after: the Timeline strip keeps the newest step in
// view (and a selected one), viewer nodes show what they showed at the inspected step (matching the
// container boxes), and a "cleared by" badge says at which step the slot was cleared.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = JSON.parse(readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8')) as {
  step_budget?: number;
};

/** True when `inner` lies horizontally inside the visible part of `outer`. */
async function inView(inner: Locator, outer: Locator): Promise<boolean> {
  const a = await inner.boundingBox();
  const b = await outer.boundingBox();
  return !!a && !!b && a.x >= b.x - 1 && a.x + a.width <= b.x + b.width + 1;
}

test('timeline follows the run; inspecting a step shows its viewer lines and clear steps', async ({
  page,
  server,
}) => {
  const budget = 120;
  server.writeGraph('grid_views', { ...DEMO, step_budget: budget });
  const editor = new EditorPage(page);
  await editor.open('?graph=grid_views');
  await expect(editor.node('obs_view')).toBeVisible();

  // No delay between steps (the slider's minimum, set with the keyboard), then Play to the end.
  await page.getByTestId('run-delay').focus();
  await page.keyboard.press('Home');
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('timeline-count')).toHaveText(`${budget} steps`);

  // The strip is far wider than the drawer, and the newest tick is the one in view.
  const strip = page.getByTestId('timeline-ticks');
  expect(await strip.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect.poll(() => inView(page.getByTestId(`timeline-tick-${budget}`), strip)).toBe(true);

  // Inspect step 2 (Playwright scrolls to it like a user would), then step with the arrow keys:
  // the selected tick stays in view.
  await page.getByTestId('timeline-tick-2').click();
  await expect(page.getByTestId('timeline-selected')).toHaveText('inspecting step 2');
  // The Observation viewer shows step 2's line (t=1, the env's second tick), like the boxes do.
  await expect(editor.node('obs_view')).toContainText('t=1:');
  // The clicked tick has the focus, so the arrow keys step through the timeline.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('timeline-selected')).toHaveText('inspecting step 3');
  await expect(editor.node('obs_view')).toContainText('t=2:');
  expect(await inView(page.getByTestId('timeline-tick-3'), strip)).toBe(true);

  // Step 1 cleared last_obs at its end (lifetime "step"); the badge names the signal and the step.
  await page.getByTestId('timeline-tick-1').click();
  await expect(page.getByTestId('timeline-selected')).toHaveText('inspecting step 1');
  const badge = editor.container('graph_state').getByTestId('cleared-badge');
  await expect(badge.first()).toBeVisible();
  await expect(
    editor
      .container('graph_state')
      .locator('[data-testid="cleared-badge"][title*="step_end signal at step 1"]'),
  ).toHaveCount(1);

  // Back to Live (Esc, as the cheatsheet says): the newest values and the newest tick, in view again.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('timeline-selected')).not.toContainText('inspecting');
  await expect(editor.node('obs_view')).not.toContainText('t=2:');
  await expect.poll(() => inView(page.getByTestId(`timeline-tick-${budget}`), strip)).toBe(true);
});
