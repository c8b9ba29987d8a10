// Access grants on a large canvas: dashed violet "6 4", half transparent by the stroke, at full
// detail; zoomed out (node boxes) a solid stroke of the dashes' average ink (GrantEdge.tsx), and
// dashed again when zoomed back in.
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const ROWS = 25;
const COLS = 16;

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
    if (i % ROWS === ROWS - 1) access_grants.push({ id: `g${col}`, node_id: `n${i}`, container_id: 'mem' });
  }
  const containers = [
    {
      id: 'mem',
      label: 'Memory',
      position: { x: 0, y: ROWS * 160 + 100 },
      states: { notes: { type: 'accumulator', value_type: 'TEXT' } },
    },
  ];
  return { name: 'granted', description: '', nodes, edges: [], containers, access_grants };
}

test('grant edges: solid with the dashes’ ink zoomed out, dashed "6 4" zoomed in', async ({
  page,
  server,
}) => {
  server.writeGraph('granted', grantedGraph());
  const editor = new EditorPage(page);
  await editor.open('?graph=granted');
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  const grant = page.locator('[data-id="g:g0"] path.react-flow__edge-path');
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(COLS);
  await expect(grant).toHaveAttribute(
    'style',
    /stroke: rgb\(139, 92, 246\); stroke-width: 1\.5; stroke-opacity: 0\.3;/,
  );
  await expect(grant).not.toHaveAttribute('style', /dasharray/);

  for (let i = 0; i < 8; i++) await page.locator('.react-flow__controls-zoomin').click();
  await expect(editor.canvas).toHaveAttribute('data-detail', 'full');
  const shown = page.locator('.react-flow__edge-grant path.react-flow__edge-path').first();
  await expect(shown).toHaveAttribute(
    'style',
    /stroke: rgb\(139, 92, 246\); stroke-dasharray: 6,? 4; stroke-width: 1\.5; stroke-opacity: 0\.5;/,
  );
  await expect(shown).not.toHaveAttribute('marker-end', /.+/);

  await page.locator('.react-flow__controls-fitview').click();
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  await expect(grant).not.toHaveAttribute('style', /dasharray/);
});
