// The Graphs panel as a new user meets it: its header names the folder as `statewire serve` prints
// it; a click selects (it does not open), Enter or a double-click opens, and a hint says so; files
// that another program adds to or removes from workspace/graphs show up without ↻ (the server's
// graphs_changed push); a file that does not read as a graph is marked. And a new graph starts
// without errors.
import { mkdirSync, readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, fixturePath, test } from './fixtures.ts';

test('click selects, Enter or double-click opens; the header shows the served graphs folder', async ({
  page,
  server,
}) => {
  const demo = readFileSync(fixturePath('workspace/graphs/smoke_demo.json'), 'utf8');
  // The worker's workspace is shared by every spec file before this one (batches.spec.ts leaves
  // batch_demo, between "alpha" and "beta"): ids no other spec's file sorts between, so ↓ from the
  // first is the second, and a row follows the second.
  writeFileSync(join(server.workspace, 'graphs', 'keys_alpha.json'), demo.replace('"smoke_demo"', '"Alpha"'));
  writeFileSync(join(server.workspace, 'graphs', 'keys_beta.json'), demo.replace('"smoke_demo"', '"Beta"'));
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  await expect(editor.node('think')).toBeVisible();
  const explorer = page.getByTestId('graphs-explorer');
  // `statewire serve` prints `graphs <workspace>/graphs`; the header shows the same path.
  await expect(page.getByTestId('graphs-root')).toHaveText(realpathSync(join(server.workspace, 'graphs')));
  await expect(page.getByTestId('explorer-hint')).toHaveText(/click selects.*enter\/double-click opens/i);

  const alpha = page.getByTestId('explorer-graph-keys_alpha');
  const beta = page.getByTestId('explorer-graph-keys_beta');
  // ↑/↓ follow the rows as shown: beta right after alpha, and another row after beta.
  const shown = await explorer
    .getByRole('option')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')));
  expect(shown.indexOf('explorer-graph-keys_beta') - shown.indexOf('explorer-graph-keys_alpha')).toBe(1);
  expect(shown.indexOf('explorer-graph-keys_beta')).toBeLessThan(shown.length - 1);
  const smoke = page.getByTestId('explorer-graph-smoke_demo');
  await alpha.click();
  await expect(alpha).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tab')).toHaveCount(1); // selected, not opened
  await page.keyboard.press('ArrowDown');
  await expect(beta).toHaveAttribute('aria-selected', 'true');
  await expect(alpha).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await expect(beta).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tab')).toHaveCount(2);
  await expect(editor.activeTab()).toContainText('Beta');
  await page.screenshot({
    path: test.info().outputPath('explorer.png'),
    clip: { x: 0, y: 0, width: 320, height: 260 },
  });

  await smoke.dblclick();
  await expect(page.getByTestId('tab')).toHaveCount(2); // already open: its tab is focused
  await expect(editor.activeTab()).toContainText('smoke_demo');
  await expect(explorer).toBeVisible();
  unlinkSync(join(server.workspace, 'graphs', 'keys_alpha.json'));
  unlinkSync(join(server.workspace, 'graphs', 'keys_beta.json'));
});

test('files added to or removed from workspace/graphs by another program appear and go without ↻', async ({
  page,
  server,
}) => {
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  await expect(editor.node('think')).toBeVisible();
  const demo = readFileSync(fixturePath('workspace/graphs/smoke_demo.json'), 'utf8');
  const graphs = join(server.workspace, 'graphs');

  writeFileSync(join(graphs, 'dropped_in.json'), demo.replace('"smoke_demo"', '"Dropped in"'));
  mkdirSync(join(graphs, 'later'), { recursive: true });
  writeFileSync(join(graphs, 'later', 'nested.json'), demo);
  await expect(page.getByTestId('explorer-graph-dropped_in')).toHaveText('Dropped in');
  await expect(page.getByTestId('explorer-graph-later/nested')).toBeVisible();

  // A broken file is listed with a mark (it opens as an error view, e2e/unreadable-files.spec.ts).
  writeFileSync(join(graphs, 'broken_one.json'), demo.slice(0, 40));
  await expect(page.getByTestId('explorer-unreadable-broken_one')).toBeVisible();

  unlinkSync(join(graphs, 'dropped_in.json'));
  await expect(page.getByTestId('explorer-graph-dropped_in')).toHaveCount(0);
  unlinkSync(join(graphs, 'broken_one.json'));
  unlinkSync(join(graphs, 'later', 'nested.json'));
});

test('a new graph starts without errors; eval_graph is off until the user turns it on', async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  await expect(editor.node('think')).toBeVisible();
  await page.getByTitle('New graph (Alt+N)').click();
  await expect(editor.activeTab()).toContainText('Untitled');
  await page.getByTestId('drawer-tab-issues').click();
  await expect(page.getByTestId('drawer-tab-issues')).toHaveText('Issues');
  await expect(page.getByTestId('issue-row')).toHaveCount(0);
  await expect(page.getByTestId('graph-eval')).not.toBeChecked();
  // Asked for, the rule applies.
  await page.getByTestId('graph-eval').check();
  await expect(page.getByTestId('issue-row')).toContainText(
    'eval graph must declare at least one graphOut node',
  );
});
