// The reference's wire shapes in the editor, with a REAL Python service (the SDK sending them:
// src/server/test/fixtures/reference_shapes_service.py) started by a real `statewire serve`:
// a function whose config_schema is a list of ConfigField objects shows a config form with its
// defaults, and events the service pushes (with null code/step/execution id) show in the Log — with
// the node and the service — and on the node that sent them.
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  REPO,
  startServer,
  tempWorkspace,
  type ServerProcess,
} from '../src/server/test/serverProcess.testutil.ts';
import { shapesEntry, shapesGraph, writeServices } from '../src/server/test/shapesService.testutil.ts';

test('a ConfigField-list config form, and pushed events in the Log and on the node', async ({ page }) => {
  test.setTimeout(240_000);
  const ws = tempWorkspace();
  let srv: ServerProcess | undefined;
  try {
    rmSync(join(ws.dir, 'dist'), { recursive: true, force: true });
    symlinkSync(join(REPO, 'dist'), join(ws.dir, 'dist'));
    writeServices(ws.dir, [shapesEntry()]); // sets up the SDK's venv on first use
    const g = shapesGraph();
    g.name = 'shapes_ui';
    g.nodes.push({
      id: 'fr',
      type: 'shapes__frontier',
      label: 'Frontier',
      config: {},
      position: { x: 440, y: 220 },
    });
    writeFileSync(join(ws.dir, 'graphs', 'shapes_ui.json'), JSON.stringify(g, null, 2));
    srv = await startServer(ws.dir);
    const base = srv.url;

    await page.goto(`${base}/?graph=shapes_ui`);
    await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
    const server = srv;
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get(`${base}/api/services`)).json()) as {
              services: { state: string }[];
            }
          ).services[0]?.state,
        { timeout: 120_000, message: `shapes service never came up:\n${server.output().slice(-4000)}` },
      )
      .toBe('up');
    await expect(page.getByTestId('service-section-shapes')).toHaveAttribute('data-state', 'up', {
      timeout: 15_000,
    });

    // The list-shaped config_schema is a form: an integer, a checkbox, a select, with their defaults.
    await page.getByTestId('node-fr').click();
    const inspector = page.getByTestId('node-inspector');
    await expect(inspector).toBeVisible();
    await expect(inspector.getByTestId('config-field-min_num_prompt_points')).toHaveAttribute(
      'data-kind',
      'integer',
    );
    await expect(inspector.getByTestId('config-min_num_prompt_points')).toHaveAttribute(
      'placeholder',
      'default: 2',
    );
    await expect(inspector.getByTestId('config-use_lsv')).toBeChecked();
    await expect(inspector.getByTestId('config-field-mode')).toContainText('Mode');
    await expect(inspector.getByTestId('config-mode').locator('option')).toHaveText([
      '(default: fast)',
      'fast',
      'exact',
    ]);
    // Editing a field changes the node's config (a refused value would say why).
    const n = inspector.getByTestId('config-min_num_prompt_points');
    await n.fill('3');
    await n.press('Enter');
    await expect(page.locator('[data-testid="tab"][data-active="true"]')).toHaveAttribute(
      'data-dirty',
      'true',
    );

    // The ui_config ConfigField of a source is its form too, with the default it declares.
    await page.getByTestId('node-src').click();
    await expect(inspector.getByTestId('config-field-text')).toContainText('Input Text');

    // Run: the announce node's events (pushed after its call, nulls and all) reach the Log and the node.
    await page.getByTestId('run-play').click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    await page.getByTestId('drawer-tab-log').click();
    await page.getByTestId('log-view-run').click();
    const onNode = page.locator('[data-testid="run-log-line"][data-kind="event"][data-node="ann"]');
    await expect(onNode).toContainText('announce: for this run');
    await expect(onNode).toContainText('service shapes');
    const fromService = page
      .locator('[data-testid="run-log-line"][data-kind="event"][data-service="shapes"]')
      .filter({ hasText: 'announce: all fields null' });
    await expect(fromService).toHaveCount(1);
    const mark = page.getByTestId('node-report-ann');
    await expect(mark).toHaveText('announce: for this run');
    await expect(mark).toHaveAttribute('data-severity', 'warning');
    await page.screenshot({ path: test.info().outputPath('services-reference.png') });
  } finally {
    await srv?.stop();
    ws.cleanup();
  }
});
