// Conditional routing through the UI (issue 13): open the router demo without its feature and two of
// its conditions, see the Issues they cause (a click selects the edge), declare the feature in the
// graph inspector, put conditions on two edges with the edge inspector's form, save, step and run:
// the taken edge is bright (and flashes), the port's other conditional edges dim, the timeline says
// which edge each routing node took and why, the State panel shows the feature. An ambiguous route
// stops the run with a notice naming the node, the edges and the values, and commits no step.
// The last test steps the full demo to its exploit phase and screenshots it (ROUTING_SCREENSHOT=<png
// path> writes the docs screenshot there instead of into the test's output folder).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
type Json = Record<string, unknown>;
const demo = (): Json & { 'x-statewire': { features?: unknown; edges: Record<string, Json> } } =>
  JSON.parse(readFileSync(join(here, '../workspace/graphs/router_demo.json'), 'utf8')) as never;

/** The demo with its effects and the stop condition, but no feature and no policy conditions. */
function unrouted(): Json {
  const g = demo();
  const block = g['x-statewire'];
  delete block.features;
  delete block.edges.e_explore;
  delete block.edges.e_exploit;
  return { ...g, name: 'Routing Demo (e2e)' };
}

/** Clicks a data edge on its curve, at the first point (from a quarter along) where it is on top. */
async function clickEdge(page: Page, edgeId: string): Promise<void> {
  const pt = await page.evaluate((id) => {
    const path = document.querySelector<SVGPathElement>(`[data-id="e:${id}"] path.react-flow__edge-path`);
    if (!path) throw new Error(`edge ${id} is not drawn`);
    const m = path.getScreenCTM()!;
    const len = path.getTotalLength();
    for (let f = 0.25; f < 0.95; f += 0.05) {
      const p = path.getPointAtLength(len * f);
      const x = p.x * m.a + p.y * m.c + m.e;
      const y = p.x * m.b + p.y * m.d + m.f;
      if (document.elementFromPoint(x, y)?.closest('[data-id]')?.getAttribute('data-id') === `e:${id}`)
        return { x, y };
    }
    throw new Error(`edge ${id} is covered everywhere`);
  }, edgeId);
  await page.mouse.click(pt.x, pt.y);
}

const chip = (page: Page, edgeId: string) => page.getByTestId(`edge-chip-${edgeId}`);

test.describe.configure({ mode: 'serial' });

test('declare a feature, condition two edges, save, run: taken edge, dimmed ones, timeline reasons', async ({
  page,
  server,
}) => {
  server.writeGraph('routing_demo_e2e', unrouted());
  const editor = new EditorPage(page);
  await editor.open('?graph=routing_demo_e2e');
  await expect(editor.node('env')).toBeVisible();

  // Without the feature, its uses are errors; clicking one selects the edge it is about.
  await page.getByTestId('drawer-tab-issues').click();
  const unknown = page.locator('[data-testid="issue-row"][data-code="unknown-feature"]');
  await expect(unknown.first()).toBeVisible();
  await expect(page.locator('[data-testid="issue-row"][data-code="two-unconditional-routes"]')).toBeVisible();
  await unknown.filter({ hasText: "edge 'e_stop'" }).click();
  await expect(page.getByTestId('edge-inspector')).toContainText('env.observation → stop.value');
  await expect(page.getByTestId('edge-route-summary')).toHaveText('phase = done');

  // Graph inspector (fit the view, click the empty canvas): declare phase; a bad one is refused first.
  await page.getByRole('button', { name: 'Fit view (F)' }).click();
  await editor.canvas.click({ position: { x: 30, y: 30 } });
  await page.getByTestId('feature-add').click();
  await page.getByTestId('feature-name').fill('phase');
  await page.getByTestId('feature-save').click();
  await expect(page.getByTestId('feature-error')).toHaveText('list the values, separated by commas');
  await page.getByTestId('feature-values').fill('explore, exploit, done');
  await page.getByTestId('feature-description').fill('what the agent does this step');
  await page.getByTestId('feature-save').click();
  await expect(page.getByTestId('feature-row-phase')).toContainText('{explore, exploit, done}');
  await expect(unknown).toHaveCount(0);

  // Conditions on the two policy edges, with the form.
  await clickEdge(page, 'e_explore');
  await expect(page.getByTestId('edge-inspector')).toContainText('env.observation → explore.observation');
  await expect(page.getByTestId('edge-port-siblings')).toContainText('exactly one of these 3 edges');
  await page.getByTestId('condition-add').click();
  await expect(page.getByTestId('cond-value-explore')).toBeChecked();
  await expect(chip(page, 'e_explore')).toHaveText('phase = explore');

  await clickEdge(page, 'e_exploit');
  await page.getByTestId('condition-add').click();
  await page.getByTestId('cond-value-exploit').check();
  await page.getByTestId('cond-value-explore').uncheck();
  await expect(page.getByTestId('edge-route-summary')).toHaveText('phase = exploit');
  await expect(chip(page, 'e_exploit')).toHaveAttribute('title', /phase = exploit/);

  // The raw JSON view shows the same object; invalid JSON leaves the edge as it is.
  await page.getByTestId('route-json-toggle').click();
  await expect(page.getByTestId('route-json-text')).toHaveValue(/"in": \[\s*"exploit"\s*\]/);
  await page.getByTestId('route-json-text').fill('{"condition": {');
  await page.getByTestId('route-json-apply').click();
  await expect(page.getByTestId('route-json-error')).toContainText('not valid JSON');
  await page.getByTestId('route-json-toggle').click();
  await expect(page.getByTestId('edge-route-summary')).toHaveText('phase = exploit');
  await expect(page.locator('[data-testid="issue-row"][data-severity="error"]')).toHaveCount(0);

  // Save: the file carries the feature and both conditions in its x-statewire block.
  await editor.press('Control+s');
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'false');
  await expect
    .poll(() => (server.readGraph('routing_demo_e2e') as { 'x-statewire'?: unknown })['x-statewire'])
    .toMatchObject({
      features: [{ name: 'phase', domain: { enum: ['explore', 'exploit', 'done'] } }],
      edges: {
        e_explore: { condition: { feature: 'phase', in: ['explore'] } },
        e_exploit: { condition: { feature: 'phase', in: ['exploit'] } },
        e_stop: { condition: { feature: 'phase', eq: 'done' } },
      },
    });

  // One step: env routes to the explore policy; the other conditional edges of that port dim.
  await page.getByTestId('drawer-tab-state').click();
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('run-step-counter')).toHaveText('Step 1');
  await expect(chip(page, 'e_explore')).toHaveAttribute('data-route', 'taken');
  await expect(chip(page, 'e_exploit')).toHaveAttribute('data-route', 'untaken');
  await expect(chip(page, 'e_stop')).toHaveAttribute('data-route', 'untaken');
  await expect(page.locator('[data-id="e:e_explore"] path.sw-route-flash')).toHaveCount(1);
  await expect(page.locator('[data-id="e:e_exploit"] path.sw-route-dim')).toHaveCount(1);
  await expect(page.getByTestId('state-feature-value-phase')).toHaveText('explore');

  // Run to the end: phase=done takes the stop branch.
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(chip(page, 'e_stop')).toHaveAttribute('data-route', 'taken');
  await expect(chip(page, 'e_explore')).toHaveAttribute('data-route', 'untaken');
  await expect(chip(page, 'e_stop')).toHaveAttribute('title', /taken: phase == done with phase=done/);
  await expect(page.getByTestId('state-feature-value-phase')).toHaveText('done');

  // Timeline: the step view names the edge each routing node took and why.
  await page.getByTestId('drawer-tab-timeline').click();
  const last = page.getByTestId('timeline-route-env');
  await expect(last).toContainText('→ stop');
  await expect(last).toContainText('because phase == done with phase=done');
  await page.getByTestId('timeline-tick-6').click();
  await expect(page.getByTestId('timeline-selected')).toHaveText('inspecting step 6');
  await expect(page.getByTestId('timeline-route-env')).toContainText('→ exploit');
  await expect(page.getByTestId('timeline-route-env')).toContainText(
    'because phase in [exploit] with phase=exploit',
  );
  await expect(page.getByTestId('timeline-feature-phase')).toContainText('exploit');
  // Inspecting a step shows that step's routes on the canvas the same way.
  await expect(chip(page, 'e_exploit')).toHaveAttribute('data-route', 'taken');
  await expect(chip(page, 'e_explore')).toHaveAttribute('data-route', 'untaken');
});

test('an ambiguous route stops the run naming node, edges and values; nothing of the step is committed', async ({
  page,
  server,
}) => {
  const g = demo();
  g['x-statewire'].edges.e_exploit = { condition: { feature: 'phase', in: ['explore', 'exploit'] } };
  server.writeGraph('routing_ambiguous_e2e', { ...g, name: 'Routing Ambiguous (e2e)' });
  const editor = new EditorPage(page);
  await editor.open('?graph=routing_ambiguous_e2e');
  await expect(editor.node('env')).toBeVisible();

  // The checker sees the overlap before running; the issue selects the routing node.
  await page.getByTestId('drawer-tab-issues').click();
  const overlap = page.locator('[data-testid="issue-row"][data-code="routes-overlap"]');
  await expect(overlap).toContainText('explore');
  await overlap.click();
  await expect(page.getByTestId('node-inspector')).toBeVisible();
  await expect(page.getByTestId('node-id')).toHaveValue('env');

  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'error', { timeout: 30_000 });
  const notice = page.getByTestId('route-failure');
  await expect(notice).toBeVisible();
  await expect(notice).toHaveAttribute('data-node', 'env');
  await expect(notice).toContainText('Run stopped at step 1');
  const message = page.getByTestId('route-failure-message');
  await expect(message).toContainText("'env'");
  await expect(message).toContainText('ambiguous');
  await expect(message).toContainText("'e_explore'");
  await expect(message).toContainText("'e_exploit'");
  await expect(message).toContainText('phase=explore');
  await expect(notice).toContainText('Nothing of step 1 was committed');
  await expect(chip(page, 'e_explore')).toHaveAttribute('data-route', 'failed');
  await expect(chip(page, 'e_exploit')).toHaveAttribute('data-route', 'failed');
  await expect(chip(page, 'e_stop')).toHaveAttribute('data-route', 'none');

  // No step was committed: the timeline has none and the run's state at step 1 does not exist.
  await page.getByTestId('drawer-tab-timeline').click();
  await expect(page.getByTestId('timeline-count')).toHaveText('0 steps');
  const status = (await (await page.request.get('/api/navigate/run/status')).json()) as {
    execution_id: string;
  };
  const state = await page.request.get(`/api/runs/${status.execution_id}/state?step=1`);
  expect(state.ok()).toBe(false);
  await page.getByTestId('route-failure-dismiss').click();
  await expect(notice).toHaveCount(0);
});

test('the router demo stepped to its exploit phase: one branch taken; screenshot', async ({
  page,
  server,
}) => {
  // The docs screenshot when ROUTING_SCREENSHOT names a file; otherwise the test's own output folder.
  const out = process.env.ROUTING_SCREENSHOT ?? test.info().outputPath('routing.png');
  server.writeGraph('routing_demo_shot', { ...demo(), name: 'Router Demo' });
  const editor = new EditorPage(page);
  await editor.open('?graph=routing_demo_shot');
  // Step by step to step 7 (the exploit phase): a live run, paused, deterministic.
  for (let step = 1; step <= 7; step++) {
    await page.getByTestId('run-step').click();
    await expect(page.getByTestId('run-step-counter')).toHaveText(`Step ${step}`);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused');
  }
  await page.getByTestId('drawer-tab-timeline').click();
  // Closer on the routing node and its three branches, so the chips read at screenshot size.
  await editor.canvas.hover({ position: { x: 470, y: 250 } });
  await page.mouse.wheel(0, -200);
  await page.waitForTimeout(500);
  // The routing node's port took exactly one of its three conditional edges at step 7.
  const routes = await Promise.all(
    ['e_explore', 'e_exploit', 'e_stop'].map((id) => chip(page, id).getAttribute('data-route')),
  );
  expect(routes.filter((r) => r === 'taken')).toHaveLength(1);
  expect(routes.filter((r) => r === 'untaken')).toHaveLength(2);
  await page.screenshot({ path: out });
  // A real PNG was written (signature bytes), not an empty file.
  expect([...readFileSync(out).subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
});
