// A zoomed-out big graph starts with each node's box geometry given to React Flow up front
// (src/app/canvas/nodeEstimate.ts). The estimate must be the real geometry: every box is visible from
// its first render (never mounted hidden for measuring), its laid-out size is the size it was given
// (nodeEstimate.test.tsx ties the given size to the box's inline size), and every edge drawn before
// React Flow measured anything is exactly the edge it draws after measuring its handles. Also: the
// minimap comes after the first render and then shows every node.
import { expect, test } from './fixtures.ts';
import { EditorPage } from './pages/EditorPage.ts';

const ROWS = 25;
const COLS = 24;

function bigGraph() {
  const nodes = [];
  const edges = [];
  for (let i = 0; i < ROWS * COLS; i++) {
    const col = Math.floor(i / ROWS);
    const type = col % 2 === 0 ? 'llmCall' : 'textParse';
    nodes.push({
      id: `n${i}`,
      type,
      label: `n${i}`,
      position: { x: col * 280, y: (i % ROWS) * 160 },
      config: {},
    });
    if (col > 0)
      edges.push({
        id: `e${i}`,
        source: `n${i - ROWS}`,
        target: `n${i}`,
        sourceHandle: (col - 1) % 2 === 0 ? 'response' : 'value',
        targetHandle: type === 'llmCall' ? 'prompt' : 'text',
      });
  }
  // A container and grants, so the boxes' bottom state anchors are drawn too.
  const containers = [{ id: 'mem', label: 'Mem', position: { x: 0, y: ROWS * 160 + 200 }, states: {} }];
  const access_grants = [0, 100, 200, 300].map((i) => ({
    id: `g${i}`,
    node_id: `n${i}`,
    container_id: 'mem',
  }));
  return { name: 'estimate', description: '', nodes, edges, containers, access_grants };
}

// Runs in the page before the app: records the first `d` of every edge path, every node wrapper that
// was ever hidden (React Flow hides a node until it has a size), and when the first node and the
// minimap appeared.
const RECORDER = `
window.__est = { firstD: {}, hidden: new Set(), firstNodeAt: 0, minimapAt: 0 };
new MutationObserver((records) => {
  const est = window.__est;
  for (const r of records) {
    const els = r.type === 'childList' ? [...r.addedNodes].filter((n) => n.nodeType === 1) : [r.target];
    for (const el of els) {
      const all = [el, ...el.querySelectorAll('.react-flow__node, .react-flow__edge-path, .react-flow__minimap')];
      for (const e of all) {
        if (e.classList.contains('react-flow__node')) {
          if (!est.firstNodeAt) est.firstNodeAt = performance.now();
          if (e.style.visibility === 'hidden') est.hidden.add(e.getAttribute('data-id'));
        } else if (e.classList.contains('react-flow__edge-path')) {
          const id = e.closest('.react-flow__edge')?.getAttribute('data-id');
          if (id && !(id in est.firstD) && e.getAttribute('d')) est.firstD[id] = e.getAttribute('d');
        } else if (e.classList.contains('react-flow__minimap') && !est.minimapAt) est.minimapAt = performance.now();
      }
    }
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'd'] });
`;

test('zoomed-out boxes start with their real size and handles; the minimap follows the first render', async ({
  page,
  server,
}) => {
  server.writeGraph('estimate', bigGraph());
  await page.addInitScript({ content: RECORDER });
  const editor = new EditorPage(page);
  await editor.open('?graph=estimate');
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  await expect(page.locator('[data-lod="box"]')).toHaveCount(ROWS * COLS);
  // Let React Flow measure everything and settle (two frames after the last change is plenty).
  await page.waitForTimeout(500);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  const result = await page.evaluate(() => {
    const est = (
      window as unknown as {
        __est: {
          firstD: Record<string, string>;
          hidden: Set<string>;
          firstNodeAt: number;
          minimapAt: number;
        };
      }
    ).__est;
    // React Flow measures handles through getBoundingClientRect / zoom: equal up to float noise.
    const nums = (d: string | null | undefined) => (d ?? '').match(/-?[\d.]+(e-?\d+)?/g)?.map(Number) ?? [];
    const same = (a: string | null | undefined, b: string | null | undefined) => {
      const x = nums(a);
      const y = nums(b);
      return x.length > 0 && x.length === y.length && x.every((v, i) => Math.abs(v - y[i]!) < 0.01);
    };
    const mismatched: string[] = [];
    let dataEdges = 0;
    for (const path of document.querySelectorAll('.react-flow__edge-path')) {
      const id = path.closest('.react-flow__edge')!.getAttribute('data-id')!;
      if (!id.startsWith('e:')) continue;
      dataEdges++;
      if (!same(est.firstD[id], path.getAttribute('d')))
        mismatched.push(`${id}: ${est.firstD[id]} → ${path.getAttribute('d')}`);
    }
    const badSize: string[] = [];
    for (const box of document.querySelectorAll<HTMLElement>('[data-lod="box"]')) {
      const wrapper = box.closest<HTMLElement>('.react-flow__node')!;
      const want = `${170}x${parseFloat(box.style.height)}`;
      const got = `${wrapper.offsetWidth}x${wrapper.offsetHeight}`;
      if (want !== got) badSize.push(`${wrapper.getAttribute('data-id')}: ${want} given, ${got} laid out`);
    }
    const hiddenGraphNodes = [...est.hidden].filter((id) => !id.startsWith('c:'));
    return {
      mismatched,
      dataEdges,
      badSize,
      hiddenGraphNodes,
      firstNodeAt: est.firstNodeAt,
      minimapAt: est.minimapAt,
    };
  });
  expect(result.dataEdges).toBe(ROWS * (COLS - 1));
  expect(result.mismatched).toEqual([]);
  expect(result.badSize).toEqual([]);
  expect(result.hiddenGraphNodes).toEqual([]);

  // The minimap is mounted after the canvas's first render, and then draws every node.
  expect(result.firstNodeAt).toBeGreaterThan(0);
  expect(result.minimapAt).toBeGreaterThan(result.firstNodeAt);
  await expect(page.locator('.react-flow__minimap-node')).toHaveCount(ROWS * COLS + 1);
});
