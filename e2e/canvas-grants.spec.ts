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
