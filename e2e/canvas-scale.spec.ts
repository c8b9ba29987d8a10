// A large graph on the canvas (600 nodes): zoomed out each node is ONE box (its label and the
// anchors its edges use), zooming in brings the full node back, off-screen nodes are culled and
// panning mounts them again, complete.
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';
import { layeredGraph } from './layeredGraph.ts';

const ROWS = 25;
const COLS = 24;

function bigGraph() {
  const { nodes, edges } = layeredGraph(ROWS, COLS);
  return { name: 'scale', description: '', nodes, edges, containers: [], access_grants: [] };
}

/** A point of empty pane near the middle of the canvas, where a drag pans. */
const panePoint = (page: Page) =>
  page.evaluate(() => {
    const r = document.querySelector('.react-flow__pane')!.getBoundingClientRect();
    for (let d = 0; d < r.width / 2; d += 4)
      for (const [x, y] of [
        [r.left + r.width / 2 + d, r.top + r.height / 2],
        [r.left + r.width / 2 - d, r.top + r.height / 2],
      ] as const)
        if (document.elementFromPoint(x, y)?.classList.contains('react-flow__pane')) return { x, y };
    throw new Error('no empty pane point');
  });

test('zoomed out a node is one box; zoomed in it is whole; panning mounts culled nodes', async ({
  page,
  server,
}) => {
  server.writeGraph('scale', bigGraph());
  const editor = new EditorPage(page);
  await editor.open('?graph=scale');
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');

  // One box per node: its label, and as children only the anchors of its wired handles.
  const box = editor.node('n30');
  await expect(box).toHaveAttribute('data-lod', 'box');
  await expect(box).toHaveText('n30');
  const children = box.locator(':scope > *');
  await expect(children).toHaveCount(2); // textParse n30: input 'text' and output 'value' are wired
  expect(await box.locator(':scope > .react-flow__handle').count()).toBe(2);
  // At the fitted zoom every node is on screen, so every node is mounted.
  await expect(page.locator('.react-flow__node')).toHaveCount(ROWS * COLS);

  // Zoom in around the centre until nodes are whole again.
  for (let i = 0; i < 8; i++) await page.locator('.react-flow__controls-zoomin').click();
  await expect(editor.canvas).toHaveAttribute('data-detail', 'full');
  const mounted = page.locator('.react-flow__node');
  await expect.poll(() => mounted.count()).toBeLessThan((ROWS * COLS) / 2);
  await expect(page.locator('[data-lod="box"]')).toHaveCount(0);
  const some = page.locator('[data-lod="full"]').first();
  await expect(some.locator('.react-flow__handle')).not.toHaveCount(0);

  // n0 (top left) is off screen and culled; dragging the canvas towards it mounts it, whole.
  await expect(editor.node('n0')).toHaveCount(0);
  for (let i = 0; i < 12 && (await editor.node('n0').count()) === 0; i++) {
    const p = await panePoint(page);
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move(p.x + 300, p.y + 200, { steps: 6 });
    await page.mouse.up();
  }
  const n0 = editor.node('n0');
  await expect(n0).toHaveAttribute('data-lod', 'full');
  await expect(n0).toBeInViewport();
  await expect(n0.getByTestId('handle-out-n0-response')).toHaveAttribute('title', 'response: TEXT');
  await expect(n0).toContainText('prompt');
  // The far side went the other way: still far fewer nodes mounted than the graph has.
  expect(await mounted.count()).toBeLessThan((ROWS * COLS) / 2);

  // Zooming back out turns the nodes into boxes again.
  await page.locator('.react-flow__controls-fitview').click();
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  await expect(editor.node('n0')).toHaveAttribute('data-lod', 'box');
});

/**
 * Each node of the page with the flow-px offset of its left/right handles below the node's top and
 * its height: what decides where edges attach.
 */
const handleRows = (page: Page) =>
  page.evaluate(() => {
    const vp = document.querySelector<HTMLElement>('.react-flow__viewport')!.style.transform;
    const zoom = Number(/scale\(([\d.e-]+)\)/.exec(vp)![1]);
    const out: Record<string, { height: number; extraLines: number; handles: Record<string, number> }> = {};
    for (const n of document.querySelectorAll<HTMLElement>('.react-flow__node-graphNode')) {
      const r = n.getBoundingClientRect();
      const handles: Record<string, number> = {};
      for (const h of n.querySelectorAll<HTMLElement>(
        '.react-flow__handle-left, .react-flow__handle-right',
      )) {
        const hr = h.getBoundingClientRect();
        handles[`${h.dataset.handlepos}:${h.dataset.handleid}`] = (hr.top + hr.height / 2 - r.top) / zoom;
      }
      // Lines a full node adds to its header and port rows (an unknown type, a service problem, a
      // viewer line): the box leaves them out.
      const body = n.querySelector('[data-lod]');
      const extraLines = body
        ? [...body.children].filter((el) => !el.matches('.sw-node-head, .sw-ports, .react-flow__handle'))
            .length
        : 0;
      out[n.dataset.id!] = { height: r.height / zoom, extraLines, handles };
    }
    return { zoom, nodes: out };
  });

test('a zoomed-out box is as tall as its full node and its anchors sit on the port rows', async ({
  page,
}) => {
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  await expect(editor.canvas).toHaveAttribute('data-detail', 'full');
  const full = await handleRows(page);
  const c = (await editor.canvas.boundingBox())!;
  await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
  for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 200);
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  await expect(page.locator('[data-lod="box"]').first()).toBeVisible();
  const boxes = await handleRows(page);
  expect(boxes.zoom).toBeLessThan(full.zoom);
  const ids = Object.keys(boxes.nodes);
  expect(ids.length).toBeGreaterThan(2);
  let compared = 0;
  let heights = 0;
  for (const id of ids) {
    const box = boxes.nodes[id]!;
    const node = full.nodes[id]!;
    // A line above the rows (an unknown type, a service problem) moves a full node's rows down; the
    // box, which has no such line, does not follow it (such nodes are rare: they have issues).
    if (node.extraLines > 0) continue;
    expect(box.height, `height of ${id}`).toBeCloseTo(node.height, 0);
    heights++;
    // A box draws only its wired handles; each sits where the full node has that port's row.
    for (const [handle, y] of Object.entries(box.handles)) {
      expect(y, `${id} ${handle}`).toBeCloseTo(node.handles[handle]!, 0);
      compared++;
    }
  }
  expect(compared).toBeGreaterThan(2);
  expect(heights).toBeGreaterThan(1);
});

/** Each container's height and the screen point where each of its grants ends, in flow px. */
const containerGeometry = (page: Page) =>
  page.evaluate(() => {
    const vp = document.querySelector<HTMLElement>('.react-flow__viewport')!.style.transform;
    const zoom = Number(/scale\(([\d.e-]+)\)/.exec(vp)![1]);
    const out: Record<string, { lod: string; height: number; top: number[]; grantEnds: number[][] }> = {};
    for (const n of document.querySelectorAll<HTMLElement>('.react-flow__node-container')) {
      const r = n.getBoundingClientRect();
      const body = n.querySelector<HTMLElement>('[data-lod]')!;
      const top = n.querySelector<HTMLElement>('.react-flow__handle-top.target')!.getBoundingClientRect();
      // The grants drawn to this container: their paths end on its top anchor.
      const grantEnds = [
        ...document.querySelectorAll<SVGPathElement>('.react-flow__edge-grant path.grant-edge'),
      ]
        .filter((p) => p.closest('[aria-label]')?.getAttribute('aria-label')?.endsWith(`to ${n.dataset.id}`))
        .map((p) => {
          const end = p.getPointAtLength(p.getTotalLength());
          const m = p.getScreenCTM()!;
          return [end.x * m.a + m.e, end.y * m.d + m.f];
        });
      out[body.dataset.testid!] = {
        lod: body.dataset.lod!,
        height: r.height / zoom,
        top: [top.left + top.width / 2, top.top + top.height / 2],
        grantEnds,
      };
    }
    return out;
  });

test('a zoomed-out state container is one box as tall as the full one, its grants end on its anchor', async ({
  page,
}) => {
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  await expect(editor.canvas).toHaveAttribute('data-detail', 'full');
  const full = await containerGeometry(page);
  expect(full['container-memory']!.lod).toBe('full');
  const c = (await editor.canvas.boundingBox())!;
  await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
  for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 200);
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  const memory = page.getByTestId('container-memory');
  await expect(memory).toHaveAttribute('data-lod', 'box');
  // One element with the label: no slot rows, badges or live values at this zoom.
  await expect(memory).toHaveText('Memory');
  await expect(page.locator('[data-testid^="slot-row-memory-"]')).toHaveCount(0);
  // Edges are drawn to the anchors React Flow measured once the box replaced the full body.
  await expect
    .poll(async () => {
      const g = (await containerGeometry(page))['container-memory']!;
      return g.grantEnds.every(([x, y]) => Math.hypot(x! - g.top[0]!, y! - g.top[1]!) < 1.5);
    })
    .toBe(true);
  const boxes = await containerGeometry(page);
  for (const id of ['container-memory', 'container-graph_state']) {
    expect(boxes[id]!.lod).toBe('box');
    expect(boxes[id]!.height, `height of ${id}`).toBeCloseTo(full[id]!.height, 0);
  }
  expect(boxes['container-memory']!.grantEnds.length).toBe(2);
  // Zooming back in brings the whole container back.
  for (let i = 0; i < 20; i++) await page.mouse.wheel(0, -200);
  await expect(editor.canvas).toHaveAttribute('data-detail', 'full');
  await expect(page.locator('[data-testid^="slot-row-memory-"]')).toHaveCount(3);
});
