// The far view (src/app/canvas/far/): a big graph zoomed out is drawn into one canvas layer, with no
// node or edge in the DOM, and still answers the pointer as DOM nodes do: hover shows the label and
// the grant relations, a click selects, Shift-click adds, a click on empty pane clears, Shift-drag
// box-selects, a drag moves nodes (one undo step). Zooming in brings DOM nodes back, with hysteresis.
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test, type ServerHandle } from './fixtures.ts';
import { layeredGraph } from './layeredGraph.ts';
import { farPixel, rgba, settled, toPage, viewOf, zoomTo } from './canvasView.ts';

const ROWS = 25;
const COLS = 40;
const MEM_Y = ROWS * 160 + 200;
/** Nodes granted to the container: the top node of the first 10 columns. */
const GRANTED = Array.from({ length: 10 }, (_, c) => `n${c * ROWS}`);

function bigGraph(name: string) {
  const { nodes, edges } = layeredGraph(ROWS, COLS);
  const containers = [{ id: 'mem', label: 'Memory', position: { x: 0, y: MEM_Y }, states: {} }];
  const access_grants = GRANTED.map((node_id, i) => ({ id: `g${i}`, node_id, container_id: 'mem' }));
  return { name, description: '', nodes, edges, containers, access_grants };
}

/** A node's flow position as layeredGraph places it. */
const posOf = (i: number) => ({ x: Math.floor(i / ROWS) * 280, y: (i % ROWS) * 160 });
/** A page point inside node `i`'s box (its boxes are 170 wide, at least 78 tall). */
const inside = (page: Page, i: number, dx = 85, dy = 39) => toPage(page, posOf(i).x + dx, posOf(i).y + dy);
/** A page point on node `i`'s left border (1 screen px inside the box). */
async function onBorder(page: Page, i: number) {
  const p = await inside(page, i, 0);
  return { x: p.x + 1, y: p.y };
}

/** The id field of the node inspector: there while exactly one node is selected. */
const selectedId = (page: Page) => page.getByTestId('node-inspector').getByRole('textbox', { name: 'id' });
const SKY = rgba('#38bdf8');
const VIOLET = rgba('#a78bfa');
const layer = (page: Page) => page.getByTestId('far-layer');

type Saved = { nodes: { id: string; position: { x: number; y: number } }[] };

/** Saves the tab (confirming a save with validation errors) and reads the file back. */
async function saveAndRead(editor: EditorPage, server: ServerHandle, id: string): Promise<Saved> {
  await editor.press('Control+s');
  const confirm = editor.page.getByTestId('save-errors-confirm');
  await expect
    .poll(
      async () =>
        (await confirm.isVisible()) || (await editor.activeTab().getAttribute('data-dirty')) === 'false',
    )
    .toBe(true);
  if (await confirm.isVisible()) await confirm.click();
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'false');
  return server.readGraph(id) as Saved;
}

async function openFar(page: Page, server: ServerHandle, id: string) {
  server.writeGraph(id, bigGraph(id));
  const editor = new EditorPage(page);
  await editor.open(`?graph=${id}`);
  await expect(editor.canvas).toHaveAttribute('data-far', 'true');
  await expect(layer(page)).toHaveAttribute('data-drawn-nodes', String(ROWS * COLS));
  await settled(page);
  return editor;
}

test('far out a big graph is one canvas layer; zooming in brings its DOM nodes back, with hysteresis', async ({
  page,
  server,
}) => {
  const editor = await openFar(page, server, 'far_levels');
  // Nothing of the graph in the DOM: every node drawn into the layer, no label at this size.
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await expect(layer(page)).toHaveAttribute('data-labels', '0');
  await expect(page.getByTestId('far-minimap')).toBeVisible();
  await expect(page.locator('.react-flow__minimap')).toHaveCount(0);

  // Between the two thresholds, coming from far out: still far out, now with readable labels.
  const between = await zoomTo(page, 0.27);
  expect(between).toBeGreaterThan(0.25);
  expect(between).toBeLessThan(0.3);
  await expect(editor.canvas).toHaveAttribute('data-far', 'true');
  await expect.poll(async () => Number(await layer(page).getAttribute('data-labels'))).toBeGreaterThan(10);
  expect(Number(await layer(page).getAttribute('data-label-px-min'))).toBeGreaterThanOrEqual(9);

  // Past the upper threshold: DOM nodes, whole, only those in view.
  await zoomTo(page, 0.34);
  await expect(editor.canvas).toHaveAttribute('data-far', 'false');
  await expect(layer(page)).toHaveCount(0);
  await expect(page.locator('[data-lod="full"]').first()).toBeVisible();
  expect(await page.locator('.react-flow__node').count()).toBeLessThan((ROWS * COLS) / 2);
  await expect(page.locator('.react-flow__minimap')).toBeVisible();

  // Back between the thresholds from the DOM side: still DOM nodes (no flicker at one zoom).
  await zoomTo(page, 0.27);
  await expect(editor.canvas).toHaveAttribute('data-far', 'false');
  await expect(editor.canvas).toHaveAttribute('data-detail', 'full');
  // Below the lower one: far out again.
  await zoomTo(page, 0.2);
  await expect(editor.canvas).toHaveAttribute('data-far', 'true');
  await expect(page.locator('.react-flow__node')).toHaveCount(0);

  // Fit (the Controls button) fits every node, though React Flow holds none far out.
  await page.mouse.move(0, 0);
  await page.locator('.react-flow__controls-fitview').click();
  await expect(layer(page)).toHaveAttribute('data-drawn-nodes', String(ROWS * COLS));
  expect((await viewOf(page)).k).toBeLessThan(0.1);
});

test('far out, hover shows the label and grant relations; click, Shift-click and a pane click select', async ({
  page,
  server,
}) => {
  const editor = await openFar(page, server, 'far_select');
  const tip = page.getByTestId('far-tooltip');

  // Hover: the label at a readable size.
  const n30 = await inside(page, 30);
  await page.mouse.move(n30.x, n30.y);
  await expect(tip).toBeVisible();
  await expect(tip).toHaveText('n30 · textParse');
  expect(parseFloat(await tip.evaluate((el) => getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(9);

  // Click: selected alone (the inspector shows it; the box gets the selection border).
  await page.mouse.click(n30.x, n30.y);
  await expect(selectedId(page)).toHaveValue('n30');
  await settled(page);
  const border30 = await onBorder(page, 30);
  expect(await farPixel(page, border30.x, border30.y)).toEqual(SKY);

  // Shift-click adds another node: two selected (the graph inspector shows), both bordered.
  const n31 = await inside(page, 31);
  await page.keyboard.down('Shift');
  await page.mouse.click(n31.x, n31.y);
  await page.keyboard.up('Shift');
  await expect(page.getByTestId('node-inspector')).toHaveCount(0);
  await settled(page);
  const border31 = await onBorder(page, 31);
  expect(await farPixel(page, border31.x, border31.y)).toEqual(SKY);
  expect(await farPixel(page, border30.x, border30.y)).toEqual(SKY);
  // Shift-click on a selected node takes it out again.
  await page.keyboard.down('Shift');
  await page.mouse.click(n31.x, n31.y);
  await page.keyboard.up('Shift');
  await expect(selectedId(page)).toHaveValue('n30');

  // A click on empty pane (above the graph) clears the selection.
  const empty = await toPage(page, 3000, -300);
  await page.mouse.click(empty.x, empty.y);
  await expect(page.getByTestId('node-inspector')).toHaveCount(0);
  await settled(page);
  expect(await farPixel(page, border30.x, border30.y)).not.toEqual(SKY);

  // Hovering the container highlights the nodes granted to it, and only those. (Checked on the
  // textParse columns: an llmCall box is taller than a row and overlaps the one below it.)
  const mem = await toPage(page, 90, MEM_Y + 20);
  await page.mouse.move(mem.x, mem.y);
  await expect(tip).toHaveText('Memory');
  await settled(page);
  for (const id of [ROWS, 3 * ROWS]) {
    const b = await onBorder(page, id);
    expect(await farPixel(page, b.x, b.y), `n${id}`).toEqual(VIOLET);
  }
  const other = await onBorder(page, ROWS + 1);
  expect(await farPixel(page, other.x, other.y)).not.toEqual(VIOLET);
  await expect(editor.canvas).toHaveAttribute('data-far', 'true');
});

test('far out, Shift-drag box-selects, Delete removes what it held, and a drag moves a node as one undo step', async ({
  page,
  server,
}) => {
  const editor = await openFar(page, server, 'far_edit');
  // A box from the empty pane above column 10 to the middle of column 11, row 2: n250-n252 and
  // n275-n277. It starts well inside the pane: near its edges React Flow pans while selecting.
  const from = await toPage(page, 10 * 280 - 60, -300);
  const to = await toPage(page, 11 * 280 + 60, 2 * 160 + 40);
  await page.keyboard.down('Shift');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await editor.press('Delete');
  await expect(layer(page)).toHaveAttribute('data-drawn-nodes', String(ROWS * COLS - 6));
  const all = Array.from({ length: ROWS * COLS }, (_, i) => `n${i}`);
  const left = (await saveAndRead(editor, server, 'far_edit')).nodes.map((n) => n.id);
  expect(all.filter((id) => !left.includes(id))).toEqual(['n250', 'n251', 'n252', 'n275', 'n276', 'n277']);
  await editor.press('Control+z');
  await expect(layer(page)).toHaveAttribute('data-drawn-nodes', String(ROWS * COLS));

  // Drag n100 (column 4, row 0) by 60 × 45 screen px: it moves by that much in flow px, rounded.
  const { k } = await viewOf(page);
  const start = await inside(page, 100);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 30, start.y + 20, { steps: 4 });
  await page.mouse.move(start.x + 60, start.y + 45, { steps: 4 });
  await page.mouse.up();
  await expect(selectedId(page)).toHaveValue('n100');
  const moved = (await saveAndRead(editor, server, 'far_edit')).nodes.find((n) => n.id === 'n100')!.position;
  expect(Math.abs(moved.x - (posOf(100).x + 60 / k))).toBeLessThanOrEqual(1);
  expect(Math.abs(moved.y - (posOf(100).y + 45 / k))).toBeLessThanOrEqual(1);
  // The box is drawn where it went, and nothing is left where it was.
  await settled(page);
  const now = await inside(page, 100, 85 + 60 / k, 39 + 45 / k);
  expect((await farPixel(page, now.x, now.y))![3]).toBe(255);
  // One undo step puts it back (and the deleted nodes came back with the undo before).
  await editor.press('Control+z');
  const back = await saveAndRead(editor, server, 'far_edit');
  expect(back.nodes.find((n) => n.id === 'n100')!.position).toEqual(posOf(100));
  expect(back.nodes).toHaveLength(ROWS * COLS);
});

test('far out, a run colours each box with its node’s live status', async ({ page, server }) => {
  server.writeGraph('far_run', { ...bigGraph('far_run'), step_budget: 3, eval_graph: false });
  const editor = new EditorPage(page);
  await editor.open('?graph=far_run');
  await expect(editor.canvas).toHaveAttribute('data-far', 'true');
  await settled(page);
  const probes = [0, 1, ROWS + 1, ROWS * COLS - 1];
  const colours = async () =>
    Promise.all(probes.map(async (i) => inside(page, i).then((p) => farPixel(page, p.x, p.y))));
  expect(new Set((await colours()).map(String))).toEqual(new Set([String(rgba('#18181b'))]));
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('run-step-counter')).toHaveText('Step 1');
  // Every node ran in that step: each box takes the "done" colour, with no DOM node involved.
  await expect
    .poll(async () => new Set((await colours()).map(String)))
    .toEqual(new Set([String(rgba('#134a39'))]));
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
});
