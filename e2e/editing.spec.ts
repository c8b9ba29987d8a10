// Editing by keyboard and mouse: command palette, cheatsheet, loop pairs (added and deleted
// together), container shortcut, duplicate, multi-select + group into a composite, drill-in with
// breadcrumb, ungroup, the State toggle, and issues that select what they name.
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

test('palette, cheatsheet, loop pairs, container shortcut, duplicate and State toggle', async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();

  await editor.press('Control+k');
  await page.getByTestId('palette-input').fill('add llm call');
  await page.getByTestId('palette-input').press('Enter');
  await expect(editor.node('llmCall_1')).toBeVisible();

  await editor.press('?');
  await expect(page.getByTestId('cheatsheet')).toContainText('Ctrl+Z');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('cheatsheet')).toHaveCount(0);

  // Adding an iterIn adds its paired iterOut; deleting either deletes both.
  await page.getByTestId('library-item-iterIn').dblclick();
  await expect(editor.node('iterOut_1')).toBeVisible();
  // The pair is 500 px wide and placed at the view centre: its iterOut may lie under the inspector
  // panel, where a click cannot reach it. Fit the view first (F), as a user would.
  await page.getByTestId('canvas').click({ position: { x: 5, y: 5 } });
  await editor.press('f');
  // The new pair is placed and the view settles in the next frames; on a loaded machine the first
  // click can land while the node still moves (CI saw the Graph inspector stay). Click until the
  // inspector shows the pair — selecting it is still what is asserted.
  await expect(async () => {
    await editor.node('iterOut_1').click();
    await expect(page.getByTestId('node-inspector')).toContainText('iterIn_1', { timeout: 1500 });
  }).toPass({ timeout: 15_000 });
  await editor.press('Delete');
  await expect(editor.node('iterIn_1')).toHaveCount(0);
  await expect(editor.node('iterOut_1')).toHaveCount(0);

  // "c" adds a container; the State toggle hides containers and grants.
  await page.getByTestId('canvas').click({ position: { x: 5, y: 5 } });
  await editor.press('c');
  await expect(editor.container('container_1')).toBeVisible();
  await page.getByTestId('state-toggle').click();
  await expect(editor.container('container_1')).toHaveCount(0);
  await page.getByTestId('state-toggle').click();
  await expect(editor.container('container_1')).toBeVisible();

  // Duplicate the selected node.
  await editor.node('llmCall_1').click();
  await editor.press('Control+d');
  await expect(editor.node('llmCall_2')).toBeVisible();

  // Copy in one tab, paste in a new tab.
  await editor.node('llmCall_1').click({ position: { x: 12, y: 8 } });
  await editor.press('Control+c');
  await editor.press('Alt+n');
  await expect(page.getByTestId('tab')).toHaveCount(2);
  await page.getByTestId('canvas').click({ position: { x: 5, y: 5 } });
  await editor.press('Control+v');
  await expect(editor.node('llmCall_1')).toBeVisible();

  // Closing a dirty tab asks first.
  await editor.press('Alt+w');
  await expect(page.getByTestId('confirm-close-dialog')).toBeVisible();
  await page.getByTestId('confirm-discard').click();
  await expect(page.getByTestId('tab')).toHaveCount(1);
});

test('group a selection into a composite, drill in, come back, ungroup', async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  // Each drop is checked where it happens: a lost drop then fails here, naming the node, instead of
  // a minute later as a handle that never appears (CI saw that once, 1 run in ~50).
  await editor.dragFromLibrary('llmCall', 150, 100);
  await expect(editor.node('llmCall_1')).toBeVisible();
  await editor.dragFromLibrary('textParse', 450, 100);
  await expect(editor.node('textParse_1')).toBeVisible();
  await editor.dragFromLibrary('textViewer', 750, 100);
  await expect(editor.node('textViewer_1')).toBeVisible();
  await editor.connect('llmCall_1', 'response', 'textParse_1', 'text');
  await editor.connect('textParse_1', 'value', 'textViewer_1', 'text');

  await editor.node('textParse_1').click();
  await editor.press('Control+g');
  await expect(editor.node('composite_1')).toBeVisible();
  await expect(editor.node('textParse_1')).toHaveCount(0);
  await expect(page.locator('.react-flow__edge-data')).toHaveCount(2);

  await editor.node('composite_1').dblclick();
  await expect(page.getByTestId('breadcrumb')).toBeVisible();
  await expect(editor.node('textParse_1')).toBeVisible();
  await expect(page.locator('[data-node-type="graphIn"]')).toHaveCount(1);
  await page.getByTestId('crumb-0').click();
  await expect(page.getByTestId('breadcrumb')).toHaveCount(0);

  await editor.node('composite_1').click();
  await editor.press('Control+Shift+g');
  await expect(editor.node('textParse_1')).toBeVisible();
  await expect(page.locator('.react-flow__edge-data')).toHaveCount(2);

  // Shift-click multi-select, then delete both at once.
  await editor.node('llmCall_1').click();
  await editor.node('textViewer_1').click({ modifiers: ['Shift'] });
  await editor.press('Delete');
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
});

test('a saved graph node drops in as a composite with its containers and grants', async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.dropOnCanvas(page.getByTestId('explorer-node-memory_block'), 300, 200);
  await expect(editor.node('memory_block_1')).toBeVisible();
  await expect(page.getByTestId('handle-in-memory_block_1-question')).toBeAttached();
  await expect(page.getByTestId('handle-out-memory_block_1-answer')).toBeAttached();
  await editor.node('memory_block_1').dblclick();
  await expect(editor.container('block_mem')).toBeVisible();
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(1);
});

test('clicking an issue selects the element it names', async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  await page.getByTestId('drawer-tab-issues').click();
  const row = page.getByTestId('issue-row').filter({ hasText: 'plugin' }).first();
  await row.click();
  await expect(page.getByTestId('node-inspector')).toBeVisible();
  await expect(page.getByTestId('node-id')).toHaveValue('plugin');
  await expect(editor.node('plugin')).toHaveAttribute('data-issue', 'warning');
});

test('auto-layout through the server is one undoable step', async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  const seed = page.locator('.react-flow__node[data-id="seed"]');
  const before = await seed.getAttribute('style');
  await editor.press('l');
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'true');
  await expect(seed).not.toHaveAttribute('style', before ?? '');
  await editor.press('Control+z');
  await expect(seed).toHaveAttribute('style', before ?? '');
});
