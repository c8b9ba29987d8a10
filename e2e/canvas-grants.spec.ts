// Access grants on a large canvas: dashed violet "6 4", half transparent by the stroke, at full
// detail; zoomed out (node boxes) a solid stroke of the dashes' average ink (GrantEdge.tsx), and
// dashed again when zoomed back in.
import type { Locator } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const ROWS = 25;
const COLS = 16;
const MIDDLE_ROW = 12;

function grantedGraph() {
  const nodes = [];
  const access_grants = [];
  for (let i = 0; i < ROWS * COLS; i++) {
    const col = Math.floor(i / ROWS);
    nodes.push({
      id: `n${i}`,
      type: 'textParse',
      label: `n${i}`,
      position: { x: col * 280, y: (i % ROWS) * 160 },
      config: {},
    });
    // Every column's middle node holds a grant to the container in the middle of the graph, so
    // zooming in at the centre keeps grants on screen.
    if (i % ROWS === MIDDLE_ROW) access_grants.push({ id: `g${col}`, node_id: `n${i}`, container_id: 'mem' });
  }
  const containers = [
    {
      id: 'mem',
      label: 'Memory',
      position: { x: (COLS / 2) * 280 - 140, y: MIDDLE_ROW * 160 + 70 },
      states: { notes: { type: 'accumulator', value_type: 'TEXT' } },
    },
  ];
  return { name: 'granted', description: '', nodes, edges: [], containers, access_grants };
}

/** The computed stroke of a grant path. */
async function strokeOf(path: Locator) {
  await expect(path).toHaveCSS('stroke', 'rgb(139, 92, 246)');
  return path.evaluate((el) => {
    const cs = getComputedStyle(el);
    return { dash: cs.strokeDasharray, width: cs.strokeWidth, opacity: cs.strokeOpacity, own: cs.opacity };
  });
}

test('grant edges: solid with the dashes’ ink zoomed out, dashed "6 4" zoomed in', async ({
  page,
  server,
}) => {
  server.writeGraph('granted', grantedGraph());
  const editor = new EditorPage(page);
  await editor.open('?graph=granted');
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(COLS);
  const grant = page.locator('[data-id="g:g0"] path.react-flow__edge-path');
  const solid = { dash: 'none', width: '1.5px', opacity: '0.3', own: '1' };
  expect(await strokeOf(grant)).toEqual(solid);

  for (let i = 0; i < 8; i++) await page.locator('.react-flow__controls-zoomin').click();
  await expect(editor.canvas).toHaveAttribute('data-detail', 'full');
  const shown = page.locator('.react-flow__edge-grant path.react-flow__edge-path').first();
  await expect(shown).toHaveCSS('stroke-dasharray', '6px, 4px');
  expect(await strokeOf(shown)).toEqual({ dash: '6px, 4px', width: '1.5px', opacity: '0.5', own: '1' });
  await expect(shown).not.toHaveAttribute('marker-end', /.+/);

  await page.locator('.react-flow__controls-fitview').click();
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  await expect(grant).toHaveCSS('stroke-dasharray', 'none');
  expect(await strokeOf(grant)).toEqual(solid);
});

test('zoomed out, hiding and showing State puts every grant back on its box’s state anchor', async ({
  page,
  server,
}) => {
  server.writeGraph('granted_toggle', grantedGraph());
  const editor = new EditorPage(page);
  await editor.open('?graph=granted_toggle');
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(COLS);
  // The boxes lose their state anchor with State hidden and get it back when it is shown: the
  // geometry React Flow holds for them must follow, or the grants lose their start.
  // Both ways: from a canvas that first drew its boxes with State shown, and from one that first
  // drew them with State hidden (the tab reopened as it was left: the journal keeps the toggle).
  await page.getByTestId('state-toggle').click();
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(0);
  await page.getByTestId('state-toggle').click();
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(COLS);
  await page.getByTestId('state-toggle').click();
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(0);
  await editor.waitJournal();
  await editor.open();
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  await expect(editor.canvas).toHaveAttribute('data-state-visible', 'false');
  await page.getByTestId('state-toggle').click();
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(COLS);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const off = await page.evaluate(() => {
    const vp = document.querySelector<HTMLElement>('.react-flow__viewport')!;
    const m = /translate\(([-\d.e]+)px, ?([-\d.e]+)px\) scale\(([-\d.e]+)\)/.exec(vp.style.transform)!;
    const [tx, ty, k] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const pane = document.querySelector('.react-flow')!.getBoundingClientRect();
    const far: string[] = [];
    for (const edge of document.querySelectorAll<SVGGElement>('.react-flow__edge-grant')) {
      const path = edge.querySelector<SVGPathElement>('path.react-flow__edge-path')!;
      const start = path.getPointAtLength(0);
      const nodeId = /^n\d+$/.exec(
        edge.getAttribute('data-id')!.replace(/^g:g(\d+)$/, (_, c) => `n${Number(c) * 25 + 12}`),
      )![0];
      const anchor = document
        .querySelector(`.react-flow__node[data-id="${nodeId}"]`)!
        .querySelector('.react-flow__handle-bottom')!
        .getBoundingClientRect();
      const ax = (anchor.left + anchor.width / 2 - pane.left - tx) / k;
      const ay = (anchor.top + anchor.height / 2 - pane.top - ty) / k;
      if (Math.hypot(ax - start.x, ay - start.y) > 2)
        far.push(`${nodeId}: path starts ${start.x},${start.y}, anchor ${ax},${ay}`);
    }
    return far;
  });
  expect(off).toEqual([]);
});
