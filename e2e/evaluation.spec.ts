// Evaluation in the editor, as a user does it: two batches of the demo with the same seed and a
// changed policy (epsilon 0.05 → 0.6); in the Batches view "Compare…" shows both versions, the graph
// change, the metric table with intervals, wins/losses/ties, the pairs with regressions first and the
// unpaired episodes; a pair opens both runs in the state Compare view at the first step where they
// differ. The query box filters the episode table and a hit opens that episode's run at that step.
// Graph versions show in the Runs list; the graph diff compares the open graph with a run's version.
// With EVAL_SCREENSHOTS=<dir> it saves the views at 1440×900.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test, type ServerHandle } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
const NAME = 'Grid Navigator (eval spec)';
const DEMO = {
  ...(JSON.parse(readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8')) as object),
  name: NAME,
};
const BASE = [
  'step_budget=8',
  'nodes.env.config.width=4',
  'nodes.env.config.height=4',
  'nodes.env.config.obstacle_ratio=0',
];
const SHOTS = process.env.EVAL_SCREENSHOTS;

async function api<T>(server: ServerHandle, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

async function batch(server: ServerHandle, sets: string[], episodes: number): Promise<string> {
  const { batch_id } = await api<{ batch_id: string }>(server, 'POST', '/api/batches', {
    loop_definition: DEMO,
    episodes,
    workers: 2,
    seed: 3,
    set: sets,
  });
  await expect
    .poll(
      async () =>
        (await api<{ batch: { status: string } }>(server, 'GET', `/api/batches/${batch_id}`)).batch.status,
      {
        timeout: 90_000,
      },
    )
    .toBe('done');
  return batch_id;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

test('compare two batches, open a pair at its first difference, query a batch', async ({ page, server }) => {
  test.setTimeout(240_000);
  server.writeGraph('eval_demo', DEMO);
  const a = await batch(server, [...BASE, 'nodes.policy.config.epsilon=0.05'], 8);
  const b = await batch(server, [...BASE, 'nodes.policy.config.epsilon=0.6'], 10);
  const expected = await api<{
    pairs: { seed: number; outcome: string; run_a: string; run_b: string }[];
    success: { wins: number; losses: number; ties: number };
  }>(server, 'GET', `/api/batches/compare?a=${a}&b=${b}`);
  expect(expected.success.losses).toBeGreaterThan(0);

  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  const editor = new EditorPage(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await editor.open('?graph=eval_demo');
  await expect(editor.node('env')).toBeVisible();

  // The Batches view: both batches listed with their (different) versions.
  await page.getByTestId('drawer-tab-batches').click();
  await page.getByTestId(`batch-item-${b}`).click();
  await expect(page.getByTestId('batch-detail')).toHaveAttribute('data-batch-id', b);
  const version = page.getByTestId('batch-version');
  await expect(version).toHaveText(/^v [0-9a-f]{8}$/);
  const versionB = await version.getAttribute('data-version');
  await page.getByTestId(`batch-item-${a}`).click();
  await expect(page.getByTestId('batch-version')).not.toHaveAttribute('data-version', versionB!);
  await page.getByTestId(`batch-item-${b}`).click();

  // Compare…: B against the batch before it (A).
  await page.getByTestId('batch-compare').click();
  const view = page.getByTestId('batch-compare-view');
  await expect(view).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('batch-compare-a')).toHaveValue(a);
  await expect(page.getByTestId('batch-compare-b')).toHaveValue(b);
  await expect(page.getByTestId('batch-compare-graph-change')).toHaveText([
    'node policy: config.epsilon 0.05 → 0.6',
  ]);
  await expect(page.getByTestId('batch-compare-metric-reward')).toContainText(/\[[−+\d.]+, [−+\d.]+\]/);
  await expect(page.getByTestId('batch-compare-wins')).toContainText(
    `${expected.success.wins} wins · ${expected.success.losses} losses · ${expected.success.ties} ties`,
  );
  const pairs = page.locator('[data-testid^="batch-compare-pair-"]');
  await expect(pairs).toHaveCount(8);
  const outcomes = await pairs.evaluateAll((els) => els.map((e) => e.getAttribute('data-outcome')));
  expect(outcomes).toEqual(expected.pairs.map((p) => p.outcome));
  expect(outcomes[0]).toBe('regression');
  await expect(page.getByTestId('batch-compare-unpaired-b')).toContainText('2 only in B: episode 9');
  // Δ sorts the pairs; a third click goes back to regressions first.
  const sort = page.getByTestId('batch-compare-sort-delta');
  await sort.click();
  await expect(sort).toHaveAttribute('data-order', 'delta-asc');
  await sort.click();
  await sort.click();
  await expect(sort).toHaveAttribute('data-order', 'regressions');
  await shot(page, 'batch-compare');

  // A regression opens both runs in the state Compare view at the first step where they differ.
  const first = expected.pairs[0]!;
  const diff = await api<{ first: { step: number } }>(
    server,
    'GET',
    `/api/batches/compare/first-diff?a=${first.run_a}&b=${first.run_b}`,
  );
  await page.getByTestId(`batch-compare-pair-${first.seed}`).click();
  const state = page.getByTestId('compare-view');
  await expect(state).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('compare-a-run')).toHaveValue(first.run_a);
  await expect(page.getByTestId('compare-b-run')).toHaveValue(first.run_b);
  await expect(page.getByTestId('compare-a-step')).toHaveValue(String(diff.first.step));
  await expect(page.getByTestId('compare-b-step')).toHaveValue(String(diff.first.step));
  await expect(page.locator('[data-testid^="compare-slot-"][data-status="changed"]').first()).toBeVisible();
  await shot(page, 'batch-compare-pair');
  await page.keyboard.press('Escape');
  await expect(state).toHaveCount(0);
  await expect(view).toBeVisible(); // Esc closed the top dialog only
  await page.getByTestId('batch-compare-close').click();

  // The query box: the episode table keeps the episodes hit; a hit opens its run at that step.
  const q = 'graph_state.stats.distance == 0';
  const answer = await api<{
    hits: { episode: number; step: number; run_id: string }[];
    episodes_hit: number;
  }>(server, 'GET', `/api/batches/${b}/query?q=${encodeURIComponent(q)}`);
  expect(answer.episodes_hit).toBeGreaterThan(0);
  expect(answer.episodes_hit).toBeLessThan(10);
  await page.getByTestId('batch-query-input').fill(q);
  await page.getByTestId('batch-query-input').press('Enter');
  await expect(page.getByTestId('batch-query-summary')).toContainText(
    `${answer.hits.length} step${answer.hits.length === 1 ? '' : 's'} in ${answer.episodes_hit} of 10 episodes`,
  );
  await expect(page.getByTestId('batch-episodes')).toHaveAttribute('data-rows', String(answer.episodes_hit));
  await expect(page.getByTestId('batch-query-hits')).toHaveAttribute('data-rows', String(answer.hits.length));
  await shot(page, 'batch-query');
  const hit = answer.hits[0]!;
  await page.getByTestId(`batch-query-hit-${hit.episode}-${hit.step}`).click();
  await expect(page.getByTestId('timeline-panel')).toContainText(hit.run_id);
  await expect(page.getByTestId('timeline-selected')).toHaveText(`inspecting step ${hit.step}`);
  expect(new URL(page.url()).searchParams.get('run')).toBe(hit.run_id);
  await shot(page, 'batch-query-hit');

  // Clearing the query shows every episode again.
  await page.getByTestId('drawer-tab-batches').click();
  await page.getByTestId('batch-query-clear').click();
  await expect(page.getByTestId('batch-episodes')).toHaveAttribute('data-rows', '10');

  // A bad condition says what the grammar is, beside the box.
  await page.getByTestId('batch-query-input').fill('distance == 0');
  await page.getByTestId('batch-query-input').press('Enter');
  await expect(page.getByTestId('batch-query-error')).toContainText("cannot read condition 'distance == 0'");
  expect(problems.filter((p) => !/400/.test(p))).toEqual([]);
});

test('the Runs list shows graph versions; the graph diff compares the open graph with a run', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  server.writeGraph('eval_diff', DEMO);
  const a = await batch(server, ['step_budget=3', 'nodes.policy.config.epsilon=0.3'], 1);
  const runId = `${a}_e1`;
  const editor = new EditorPage(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await editor.open('?graph=eval_diff');
  await expect(editor.node('env')).toBeVisible();
  await page.getByTestId('drawer-tab-timeline').click();
  await page.getByTestId('runs-menu').click();
  // The Timeline shows the batch's episode: its batch opens by itself, its row marked.
  await expect(page.getByTestId('timeline-panel')).toContainText(runId);
  await expect(page.getByTestId(`runs-batch-${a}`)).toHaveAttribute('data-open', 'true');
  const item = page.getByTestId(`runs-item-${runId}`);
  await expect(item).toHaveAttribute('aria-current', 'true');
  await expect(item.getByTestId('runs-item-version')).toHaveText(/^v [0-9a-f]{8}$/);
  // Every episode runs its batch's version.
  await expect(page.getByTestId(`runs-batch-${a}`).getByTestId('runs-batch-version')).toHaveText(
    (await item.getByTestId('runs-item-version').textContent())!,
  );
  await page.getByTestId(`runs-diff-${runId}`).click();
  const view = page.getByTestId('graph-diff-view');
  await expect(view).toHaveAttribute('data-status', 'ready');
  // The run ran the graph with its --set overrides: the open file differs by exactly those.
  await expect(page.getByTestId('graph-diff-text')).toHaveText([
    'graph: step_budget 3 → 200',
    'node policy: config.epsilon 0.3 → 0.1',
  ]);
  await expect(page.getByTestId('graph-diff-version')).toHaveText(/^v [0-9a-f]{8}$/);
  await shot(page, 'graph-diff');
});
