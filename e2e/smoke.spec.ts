// Smoke: the app opens a fixture graph by deep link in Debian chromium and draws its nodes,
// containers (graph_state too), grants and the unknown plugin node on the canvas.
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

test('opens a saved graph and shows its nodes, containers and grants', async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  for (const id of ['seed', 'loop_in', 'think', 'plugin', 'loop_out'])
    await expect(editor.node(id)).toBeVisible();
  await expect(editor.container('memory')).toBeVisible();
  await expect(editor.container('graph_state')).toBeVisible();
  await expect(editor.activeTab()).toContainText('smoke_demo');

  // Loop handles are synthesized like the reference: init_goal and iterout_note on the iterIn.
  await expect(page.getByTestId('handle-out-loop_in-init_goal')).toHaveAttribute('title', 'init_goal: TEXT');
  await expect(page.getByTestId('handle-out-loop_in-iterout_note')).toBeAttached();
  // Counter outputs come from the catalog: `step` (root count) and `iteration` (this loop's count).
  await expect(page.getByTestId('handle-out-loop_in-step')).toBeAttached();
  await expect(page.getByTestId('handle-out-loop_in-iteration')).toBeAttached();
  await expect(page.getByTestId('handle-in-loop_out-stop')).toHaveAttribute('title', 'stop: BOOL');

  // Unknown plugin type: generic node, handles from its edges, marked.
  await expect(editor.node('plugin').getByTestId('unknown-type')).toBeVisible();
  await expect(page.getByTestId('handle-in-plugin-text_in')).toBeAttached();

  // Slot rows: reducer badges, lifetime badge hidden for forever, hint tooltip.
  const notes = page.getByTestId('slot-row-memory-notes');
  await expect(notes.getByTestId('reducer-badge')).toHaveText('accumulator');
  await expect(notes.getByTestId('lifetime-badge')).toHaveAttribute('title', 'clears on episode change');
  await expect(page.getByTestId('slot-row-memory-turns').getByTestId('lifetime-badge')).toHaveCount(0);
  await expect(page.getByTestId('slot-live-memory-notes')).toBeAttached();

  // Data edges solid, grants dashed violet, half transparent (by the stroke's opacity: GrantEdge.tsx).
  await expect(page.locator('.react-flow__edge-data')).toHaveCount(4);
  const grant = page.locator('.react-flow__edge-grant path.react-flow__edge-path').first();
  await expect(grant).toHaveAttribute(
    'style',
    /stroke: rgb\(139, 92, 246\); stroke-dasharray: 6,? 4; stroke-width: 1\.5; stroke-opacity: 0\.5;/,
  );
  await expect(grant).not.toHaveAttribute('marker-end', /.+/);
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(3);
});
