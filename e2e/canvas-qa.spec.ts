// Canvas QA as a new user meets it, at 1600×1000 on the demo graph: group → ungroup gives back the
// same graph; Ctrl+S on a graph with errors asks first; a grant dropped on a container's body
// grants; a refused drag says why while dragging; the minimap keeps clear of the containers at the
// default fit, text stays readable there, and adding a slot does not move the view.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test, type ServerHandle } from './fixtures.ts';

test.use({ viewport: { width: 1600, height: 1000 } });

const SHOTS = process.env.CANVAS_QA_SHOTS ?? '';
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
};

const demo = () => JSON.parse(readFileSync('workspace/graphs/grid_navigator.json', 'utf8')) as unknown;

async function openDemo(page: Page, server: ServerHandle, id = 'qa_demo') {
  // Its own name too: the editor shows the latest run of a graph's name, and its live values would
  // resize the boxes under a drag that earlier specs' demo runs have nothing to do with.
  server.writeGraph(id, { ...(demo() as object), name: `QA ${id}` });
  const editor = new EditorPage(page);
  await editor.open(`?graph=${id}`);
  await expect(editor.node('env')).toBeVisible();
  await expect(editor.container('memory')).toBeVisible();
  return editor;
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * Where an element is once the canvas has settled: the first fit runs again when nodes are
 * measured, so on a loaded machine a box read right after "visible" can be a frame or two old.
 */
async function settledBox(page: Page, el: Locator): Promise<Box> {
  let last: Box | null = null;
  for (;;) {
    const box = await el.boundingBox();
    if (box && last && JSON.stringify(box) === JSON.stringify(last)) return box;
    last = box;
    await page.waitForTimeout(100);
  }
}

/** Presses on `from` and moves (mouse still down) to `to`, at `fy` of its height. */
async function dragOver(page: Page, from: Locator, to: Locator, fy = 0.5) {
  const a = await settledBox(page, from);
  const b = await settledBox(page, to);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2 + 20, b.y + b.height * fy + 20, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height * fy, { steps: 5 });
}

const counts = (page: Page) =>
  Promise.all([
    page.locator('.react-flow__node').count(),
    page.locator('.react-flow__edge-data').count(),
    page.locator('.react-flow__edge-grant').count(),
  ]);

test('grouping two viewers and a Graph Out, then ungrouping, loses nothing', async ({ page, server }) => {
  const editor = await openDemo(page, server, 'qa_group');
  await page.getByTestId('drawer-tab-issues').click();
  // The panel loads on first show: count its rows once it is there.
  await expect(page.getByTestId('issues-list').or(page.getByTestId('issues-empty'))).toBeVisible();
  const issues = page.getByTestId('issue-row');
  const issuesBefore = await issues.count();
  const before = await counts(page);
  await editor.node('obs_view').click();
  await editor.node('metrics_view').click({ modifiers: ['Shift'] });
  await editor.node('pose_out').click({ modifiers: ['Shift'] });
  await editor.press('Control+g');
  await expect(editor.node('composite_1')).toBeVisible();
  await expect(editor.node('obs_view')).toHaveCount(0);
  // The graph's own output stays at the top level.
  await expect(editor.node('pose_out')).toBeVisible();

  await editor.node('composite_1').click();
  await editor.press('Control+Shift+g');
  await expect(editor.node('composite_1')).toHaveCount(0);
  for (const id of ['obs_view', 'metrics_view', 'pose_out']) await expect(editor.node(id)).toBeVisible();
  expect(await counts(page)).toEqual(before);
  await expect(issues).toHaveCount(issuesBefore);
});

test('Ctrl+S on a graph with errors asks first; Cancel writes nothing, Save anyway writes', async ({
  page,
  server,
}) => {
  // An eval graph without a graphOut is an error.
  server.writeGraph('qa_errors', {
    name: 'qa_errors',
    eval_graph: true,
    nodes: [{ id: 'v', type: 'textViewer', position: { x: 0, y: 0 }, config: {} }],
    edges: [],
  });
  const editor = new EditorPage(page);
  await editor.open('?graph=qa_errors');
  await expect(editor.node('v')).toBeVisible();
  await page.getByTestId('graph-description').fill('saved with an error');
  await page.getByTestId('graph-name').click();
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'true');

  await editor.press('Control+s');
  const dialog = page.getByTestId('save-errors-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('save-errors-count')).toHaveText('1');
  await expect(dialog).toContainText('graphOut');
  await page.getByTestId('save-errors-cancel').click();
  await expect(dialog).toHaveCount(0);
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'true');
  expect((server.readGraph('qa_errors') as { description?: string }).description ?? '').toBe('');

  await editor.press('Control+s');
  await page.getByTestId('save-errors-confirm').click();
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'false');
  expect((server.readGraph('qa_errors') as { description: string }).description).toBe('saved with an error');
});

test('a grant dropped on a container body grants; a refused drag says why while dragging', async ({
  page,
  server,
}) => {
  const editor = await openDemo(page, server, 'qa_grant');
  const grants = page.locator('.react-flow__edge-grant');
  const n = await grants.count();
  await shot(page, 'grant-before');

  // obs_view holds no grant: drop its state handle in the middle of Nav Memory's box.
  const from = page.getByTestId('state-handle-obs_view');
  const box = editor.container('memory');
  await dragOver(page, from, box, 0.6);
  await expect(page.getByTestId('container-drop-memory')).toBeAttached();
  // Nodes cannot take a grant: they dim while it is dragged.
  await expect(page.locator('.react-flow__node[data-id="env"]')).toHaveCSS('opacity', '0.35');
  await shot(page, 'grant-dragging');
  await page.mouse.up();
  await expect(grants).toHaveCount(n + 1);
  await expect(page.getByTestId('container-drop-memory')).toHaveCount(0);

  // The same again is refused, and the reason shows on the box before the drop.
  await dragOver(page, from, box, 0.6);
  await expect(page.getByTestId('connection-hint')).toContainText('already has access');
  await page.mouse.up();
  await expect(editor.refusal).toContainText('already has access');
  await expect(grants).toHaveCount(n + 1);

  // A data edge from a node to itself: the hint names the reason while dragging.
  await dragOver(
    page,
    page.getByTestId('handle-out-policy-action'),
    page.getByTestId('handle-in-policy-observation'),
  );
  await expect(page.getByTestId('connection-hint')).toContainText('cannot feed itself');
  await shot(page, 'data-refused-dragging');
  await page.mouse.up();
  await expect(page.getByTestId('connection-hint')).toHaveCount(0);
  await expect(editor.refusal).toContainText('cannot feed itself');

  // Output onto another node's output, input onto input: refused with the reason, like the rest.
  const edges = await page.locator('.react-flow__edge').count();
  await dragOver(page, page.getByTestId('handle-out-policy-action'), page.getByTestId('handle-out-env-pose'));
  await expect(page.getByTestId('connection-hint')).toContainText('an output connects to an input');
  await page.mouse.up();
  await expect(editor.refusal).toContainText('an output connects to an input');
  await dragOver(
    page,
    page.getByTestId('handle-in-policy-observation'),
    page.getByTestId('handle-in-env-action'),
  );
  await expect(page.getByTestId('connection-hint')).toContainText('an input takes its value from an output');
  await page.mouse.up();
  await expect(editor.refusal).toContainText('an input takes its value from an output');
  await expect(page.locator('.react-flow__edge')).toHaveCount(edges);
});

const intersects = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('default fit: the minimap keeps clear of Nav Memory, text is readable, adding a slot keeps the view', async ({
  page,
  server,
}) => {
  const editor = await openDemo(page, server, 'qa_view');
  await shot(page, 'fit');
  const minimap = (await page.locator('.react-flow__minimap').boundingBox())!;
  const memory = (await editor.container('memory').boundingBox())!;
  expect(intersects(minimap, memory), JSON.stringify({ minimap, memory })).toBe(false);

  // Node and container titles at the default fit are painted and at least ~9 px on screen.
  await expect(editor.canvas).toHaveAttribute('data-detail', 'full');
  const screenPx = (el: Element) =>
    (el.getBoundingClientRect().height / (el as HTMLElement).offsetHeight) *
    parseFloat(getComputedStyle(el).fontSize);
  for (const title of [
    editor.node('env').locator('span.font-semibold').first(),
    editor.node('write_reason').locator('span.font-semibold').first(),
    editor.container('memory').locator('span.font-semibold').first(),
  ])
    expect(await title.evaluate(screenPx)).toBeGreaterThanOrEqual(9);

  const viewport = page.locator('.react-flow__viewport');
  await editor.container('memory').locator('span.font-semibold').first().click();
  await expect(page.getByTestId('add-slot')).toBeVisible();
  const before = await viewport.getAttribute('style');
  const rows = page.locator('[data-testid^="slot-row-memory-"]');
  const slots = await rows.count();
  await page.getByTestId('add-slot').click();
  await expect(rows).toHaveCount(slots + 1);
  await page.waitForTimeout(400);
  expect(await viewport.getAttribute('style')).toBe(before);
  await shot(page, 'after-add-slot');
});
