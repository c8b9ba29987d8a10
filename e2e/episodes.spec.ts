// Episodes on the Timeline, as a user sees them after running the demo: ticks banded by episode
// (episode_reset), tooltips that say what each step did, a slot compared across two episodes step
// by step, and a uPlot chart of a slot and of the Metrics viewer with episode starts marked — under
// the app's CSP, with no console error.
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = JSON.parse(
  readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8'),
) as object;
const SHOTS = process.env.EPISODE_SHOTS ?? '/tmp/ep-shots';

/** Console errors, page errors and CSP violations, registered before any script of the page. */
async function watchProblems(page: Page): Promise<() => Promise<string[]>> {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content.Security.Policy|Refused to/i.test(m.text())) seen.push(m.text());
  });
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`csp ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return async () => [
    ...seen,
    ...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)),
  ];
}

test('episodes: banded timeline, step tooltips, compare across episodes, uPlot chart', async ({
  page,
  server,
}) => {
  const budget = 120;
  server.writeGraph('grid_episodes', { ...DEMO, step_budget: budget });
  const problems = await watchProblems(page);
  const editor = new EditorPage(page);
  await editor.open('?graph=grid_episodes');
  await expect(editor.node('env')).toBeVisible();

  // Step delay 0 (the slider's minimum), Timeline open, Play to the end.
  await page.getByTestId('run-delay').focus();
  await page.keyboard.press('Home');
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('timeline-count')).toHaveText(`${budget} steps`);

  // 1. At least 3 labelled bands; together they cover every step once, in order.
  const bands = page.locator('[data-testid^="timeline-band-"]');
  const count = await bands.count();
  expect(count).toBeGreaterThanOrEqual(3);
  const spans = await bands.evaluateAll((els) =>
    els.map((e) => ({
      id: e.getAttribute('data-testid'),
      first: Number(e.getAttribute('data-first')),
      last: Number(e.getAttribute('data-last')),
      label: e.textContent ?? '',
    })),
  );
  expect(spans[0]?.first).toBe(1);
  expect(spans[spans.length - 1]?.last).toBe(budget);
  spans.forEach((b, i) => {
    expect(b.id).toBe(`timeline-band-${i + 1}`);
    expect(b.label).toContain(`ep ${i + 1}`);
    if (i > 0) expect(b.first).toBe(spans[i - 1]!.last + 1);
  });

  // 2. The first tick of episode 2 names its episode and what happened; the env's observation at
  // that step is the new episode's t=0 (the rule: a reset inside step N starts the episode at N).
  const ep2 = spans[1]!.first;
  const tick = page.getByTestId(`timeline-tick-${ep2}`);
  await expect(tick).toHaveAttribute(
    'title',
    new RegExp(`^step ${ep2} · episode 2 · \\d+ writes · cleared [^·]+ · signal [^·]*episode_reset`),
  );
  await expect(tick).toHaveAttribute('data-signal', 'true');
  await expect(page.getByTestId(`timeline-tick-${ep2 + 1}`)).toHaveAttribute(
    'title',
    new RegExp(`^step ${ep2 + 1} · episode 2 · \\d+ writes`),
  );
  await tick.click();
  await expect(editor.node('obs_view')).toContainText('episode 2 t=0:');
  await page.getByTestId(`timeline-tick-${ep2 - 1}`).click();
  await expect(editor.node('obs_view')).toContainText('episode 1');
  await page.keyboard.press('Escape');
  mkdirSync(SHOTS, { recursive: true });
  await page.getByTestId('timeline-ticks').evaluate((el) => (el.scrollLeft = 0));
  await page.getByTestId('timeline-panel').screenshot({ path: join(SHOTS, 'timeline-bands.png') });

  // 3. Compare last_obs (text: full values fetched per step) across episodes 1 and 2: row i holds
  // the i-th step of each, i.e. the env's t=i in both.
  await page.getByTestId('timeline-episodes').click();
  await expect(page.getByTestId('episodes-view')).toContainText(`Episodes · ${count}`);
  await page.getByTestId('episodes-tab-compare').click();
  await page.getByTestId('episode-a').selectOption('1');
  await page.getByTestId('episode-b').selectOption('2');
  await page.getByTestId('episodes-series').selectOption('graph_state.last_obs');
  for (const i of [0, 1, 5]) {
    await expect(page.getByTestId(`episode-compare-a-${i}`)).toContainText(`episode 1 t=${i}:`);
    await expect(page.getByTestId(`episode-compare-b-${i}`)).toContainText(`episode 2 t=${i}:`);
    await expect(page.getByTestId(`episode-compare-a-${i}`)).toHaveAttribute('data-step', String(1 + i));
    await expect(page.getByTestId(`episode-compare-b-${i}`)).toHaveAttribute('data-step', String(ep2 + i));
  }
  const rowsA = spans[0]!.last - spans[0]!.first + 1;
  const rowsB = spans[1]!.last - spans[1]!.first + 1;
  await expect(page.locator('[data-testid^="episode-compare-row-"]')).toHaveCount(Math.max(rowsA, rowsB));
  await page.getByTestId('timeline-panel').screenshot({ path: join(SHOTS, 'compare.png') });

  // 4. Plot from the State panel's slot row: step_count over every step, episode starts marked.
  await page.getByTestId('drawer-tab-state').click();
  await page.getByTestId('plot-slot-graph_state-step_count').click();
  await expect(page.getByTestId('episodes-tab-plot')).toHaveAttribute('data-active', 'true');
  const plot = page.getByTestId('episode-plot');
  await expect(plot).toHaveAttribute('data-series', 'graph_state.step_count');
  await expect(plot.locator('canvas')).toBeVisible();
  await expect(plot).toHaveAttribute('data-plotted', String(budget));
  await expect(plot).toHaveAttribute('data-boundaries', String(count - 1));

  // The Metrics viewer's numbers (viewer_data of the metrics node): one point per step too.
  await page.getByTestId('episodes-series').selectOption('viewer:metrics_view:metrics.distance');
  await expect(plot).toHaveAttribute('data-series', 'metrics_view › metrics.distance');
  await expect(plot).toHaveAttribute('data-plotted', String(budget));
  await expect(plot.locator('canvas')).toBeVisible();
  await page.getByTestId('timeline-panel').screenshot({ path: join(SHOTS, 'plot.png') });

  // 5. The same run opened from history (`/?run=<id>`: its timeline rebuilt from the event log)
  // shows the same bands.
  const runId = ((await page.getByTestId('timeline-run-id').textContent()) ?? '').split(' · ')[0]!.trim();
  expect(runId).not.toBe('');
  await editor.open(`?run=${encodeURIComponent(runId)}`);
  await expect(page.getByTestId('timeline-count')).toHaveText(`${budget} steps`);
  await expect(bands).toHaveCount(count);
  const replayed = await bands.evaluateAll((els) =>
    els.map((e) => [Number(e.getAttribute('data-first')), Number(e.getAttribute('data-last'))]),
  );
  expect(replayed).toEqual(spans.map((b) => [b.first, b.last]));
  await expect(page.getByTestId(`timeline-tick-${ep2}`)).toHaveAttribute(
    'title',
    /· episode 2 · .*signal [^·]*episode_reset/,
  );

  expect(await problems()).toEqual([]);
});
