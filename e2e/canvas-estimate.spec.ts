// A zoomed-out big graph starts with each node's box geometry given to React Flow up front
// (src/app/canvas/nodeEstimate.ts). The estimate must be the real geometry: every box is visible from
// its first render (never mounted hidden for measuring), its laid-out size is the size it was given
// (nodeEstimate.test.tsx ties the given size to the box's inline size), every edge is drawn between
// the points where the browser laid the two handles out, and never redrawn elsewhere. Zoomed in past
// the boxes, edges meet the full nodes' handles, also for nodes first drawn then (culled while they
// were boxes). Also: the minimap comes after the first render and then shows every node.
import { expect, test } from './fixtures.ts';
import { layeredGraph } from './layeredGraph.ts';
import { EditorPage } from './pages/EditorPage.ts';

type EdgeCheck = (
  rows: number,
  sinceFirst: boolean,
) => { mismatched: string[]; checked: number; ids: string[] };

const ROWS = 25;
const COLS = 24;

function bigGraph(rows = ROWS, cols = COLS) {
  const { nodes, edges } = layeredGraph(rows, cols);
  // A container and grants, so the boxes' bottom state anchors are drawn too.
  const containers = [{ id: 'mem', label: 'Mem', position: { x: 0, y: rows * 160 + 200 }, states: {} }];
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

/** Installed in the page as `__edgeCheck(rows, sinceFirst)`. */
function installEdgeCheck() {
  type Est = { firstD: Record<string, string> };
  const est = () => (window as unknown as { __est: Est }).__est;
  const numbers = (d: string | undefined) => d?.match(/-?[\d.]+(e-?\d+)?/g)?.map(Number) ?? [];
  // Every data edge whose two ends are mounted must run between the points where the browser laid
  // the two handles out (React Flow attaches a source edge at its handle's right edge and a target
  // edge at its left edge, vertically in the middle), up to float noise; with `sinceFirst`, it must
  // also be the path drawn when the edge first appeared.
  const edgeCheck: EdgeCheck = (rows, sinceFirst) => {
    const viewport = document.querySelector<HTMLElement>('.react-flow__viewport')!;
    const zoom = Number(/scale\(([\d.e-]+)\)/.exec(viewport.style.transform)![1]);
    const nodeEl = (id: string) => document.querySelector<HTMLElement>(`.react-flow__node[data-id="${id}"]`);
    const attach = (wrapper: HTMLElement, side: 'source' | 'target', handleId: string) => {
      const [x, y] = /translate\(([-\d.e]+)px, ?([-\d.e]+)px\)/
        .exec(wrapper.style.transform)!
        .slice(1)
        .map(Number);
      const w = wrapper.getBoundingClientRect();
      const handle = wrapper.querySelector(`.react-flow__handle.${side}[data-handleid="${handleId}"]`);
      if (!handle) return [NaN, NaN]; // reported as a mismatch
      const h = handle.getBoundingClientRect();
      const left = x! + (h.left - w.left) / zoom;
      const mid = y! + (h.top - w.top + h.height / 2) / zoom;
      return side === 'source' ? [left + h.width / zoom, mid] : [left, mid];
    };
    const near = (a: number[], b: number[]) =>
      a.length === b.length && a.every((v, i) => Math.abs(v - b[i]!) < 0.02);
    const mismatched: string[] = [];
    let checked = 0;
    for (const el of document.querySelectorAll('.react-flow__edge')) {
      const id = el.getAttribute('data-id')!;
      if (!id.startsWith('e:')) continue;
      const n = Number(id.slice(3));
      const source = nodeEl(`n${n - rows}`);
      const target = nodeEl(`n${n}`);
      if (!source || !target) continue;
      checked++;
      const d = el.querySelector('.react-flow__edge-path')!.getAttribute('d')!;
      const nums = numbers(d);
      // As bigGraph wires them: even columns are llmCall (prompt → response), odd ones textParse.
      const col = Math.floor(n / rows);
      const ends = [
        ...attach(source, 'source', (col - 1) % 2 === 0 ? 'response' : 'value'),
        ...attach(target, 'target', col % 2 === 0 ? 'prompt' : 'text'),
      ];
      if (!near([...nums.slice(0, 2), ...nums.slice(-2)], ends))
        mismatched.push(`${id}: ${d} vs ${ends.join(' ')}`);
      if (sinceFirst && !near(numbers(est().firstD[id]), nums))
        mismatched.push(`${id} was first ${est().firstD[id]}`);
    }
    return {
      mismatched,
      checked,
      ids: [...document.querySelectorAll('.react-flow__node')].map((e) => e.getAttribute('data-id')!),
    };
  };
  (window as unknown as { __edgeCheck: EdgeCheck }).__edgeCheck = edgeCheck;
}

test('zoomed-out boxes start with their real size and handles; the minimap follows the first render', async ({
  page,
  server,
}) => {
  server.writeGraph('estimate', bigGraph());
  await page.addInitScript({ content: RECORDER });
  await page.addInitScript(installEdgeCheck);
  const editor = new EditorPage(page);
  await editor.open('?graph=estimate');
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  // Every graph node is a box (and the graph's one container is a container box).
  await expect(page.locator('.react-flow__node-graphNode [data-lod="box"]')).toHaveCount(ROWS * COLS);
  await expect(page.locator('.react-flow__node-container [data-lod="box"]')).toHaveCount(1);
  // Let React Flow measure everything and settle (two frames after the last change is plenty).
  await page.waitForTimeout(500);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  const result = await page.evaluate(() => {
    type Est = {
      firstD: Record<string, string>;
      hidden: Set<string>;
      firstNodeAt: number;
      minimapAt: number;
    };
    const est = (window as unknown as { __est: Est }).__est;
    const check = (window as unknown as { __edgeCheck: EdgeCheck }).__edgeCheck;
    const { mismatched, checked: dataEdges } = check(25, true);
    const badSize: string[] = [];
    for (const box of document.querySelectorAll<HTMLElement>('[data-lod="box"]')) {
      const wrapper = box.closest<HTMLElement>('.react-flow__node')!;
      const width = wrapper.classList.contains('react-flow__node-container') ? 180 : 170;
      const want = `${width}x${parseFloat(box.style.height)}`;
      const got = `${wrapper.offsetWidth}x${wrapper.offsetHeight}`;
      if (want !== got) badSize.push(`${wrapper.getAttribute('data-id')}: ${want} given, ${got} laid out`);
    }
    // Graph nodes and state containers alike.
    const hiddenNodes = [...est.hidden];
    return {
      mismatched,
      dataEdges,
      badSize,
      hiddenNodes,
      firstNodeAt: est.firstNodeAt,
      minimapAt: est.minimapAt,
    };
  });
  expect(result.dataEdges).toBe(ROWS * (COLS - 1));
  expect(result.mismatched).toEqual([]);
  expect(result.badSize).toEqual([]);
  expect(result.hiddenNodes).toEqual([]);

  // The minimap is mounted after the canvas's first render, and then draws every node.
  expect(result.firstNodeAt).toBeGreaterThan(0);
  expect(result.minimapAt).toBeGreaterThan(result.firstNodeAt);
  await expect(page.locator('.react-flow__minimap-node')).toHaveCount(ROWS * COLS + 1);

  // Zoomed in past the boxes, every node drawn is whole and its edges meet its measured port handles
  // (a full node can have the box's exact size: its box handles must not linger).
  for (let i = 0; i < 8; i++) await page.locator('.react-flow__controls-zoomin').click();
  await expect(editor.canvas).toHaveAttribute('data-detail', 'full');
  await page.waitForTimeout(500);
  const full = await page.evaluate(() =>
    (window as unknown as { __edgeCheck: EdgeCheck }).__edgeCheck(25, false),
  );
  expect(full.checked).toBeGreaterThan(0);
  expect(full.mismatched).toEqual([]);
  // Selecting nodes gives React Flow new node objects: their edges stay on the measured handles.
  const onScreen = await page.evaluate(() => {
    const pane = document.querySelector('.react-flow__pane')!.getBoundingClientRect();
    return [...document.querySelectorAll('[data-lod="full"][data-node-type="textParse"] .sw-node-title')]
      .map((t) => t.getBoundingClientRect())
      .filter((r) => r.left > pane.left && r.right < pane.right && r.top > pane.top && r.bottom < pane.bottom)
      .slice(0, 3)
      .map((r) => [r.left + r.width / 2, r.top + r.height / 2] as const);
  });
  expect(onScreen.length).toBeGreaterThan(0);
  await page.keyboard.down('Shift');
  for (const [x, y] of onScreen) await page.mouse.click(x, y);
  await page.keyboard.up('Shift');
  await page.waitForTimeout(300);
  const selected = await page.evaluate(() =>
    (window as unknown as { __edgeCheck: EdgeCheck }).__edgeCheck(25, false),
  );
  expect(await page.locator('.react-flow__node.selected').count()).toBeGreaterThan(0);
  expect(selected.mismatched).toEqual([]);
});

test('nodes culled while they were boxes are drawn whole, edges on their handles, when first reached zoomed in', async ({
  page,
  server,
}) => {
  // One row of 400: at the fitted zoom (the 0.05 minimum) only the middle of the row is on screen.
  server.writeGraph('row', bigGraph(1, 400));
  await page.addInitScript({ content: RECORDER });
  await page.addInitScript(installEdgeCheck);
  const editor = new EditorPage(page);
  await editor.open('?graph=row');
  await expect(editor.canvas).toHaveAttribute('data-detail', 'low');
  await expect(editor.node('n200')).toHaveAttribute('data-lod', 'box');
  const atFit = await page.evaluate(() =>
    [...document.querySelectorAll('.react-flow__node')].map((e) => e.getAttribute('data-id')!),
  );
  expect(atFit).not.toContain('n399');
  expect(
    (await page.evaluate(() => (window as unknown as { __edgeCheck: EdgeCheck }).__edgeCheck(1, true)))
      .mismatched,
  ).toEqual([]);

  for (let i = 0; i < 14 && (await editor.canvas.getAttribute('data-detail')) !== 'full'; i++)
    await page.locator('.react-flow__controls-zoomin').click();
  await expect(editor.canvas).toHaveAttribute('data-detail', 'full');
  // Drag the canvas left until nodes that were never mounted come into view.
  for (let i = 0; i < 12; i++) {
    const ids = await page.evaluate(() =>
      [...document.querySelectorAll('.react-flow__node')].map((e) => e.getAttribute('data-id')!),
    );
    if (ids.some((id) => !atFit.includes(id))) break;
    const r = (await page.locator('.react-flow__pane').boundingBox())!;
    const y = r.y + r.height - 40;
    await page.mouse.move(r.x + r.width - 40, y);
    await page.mouse.down();
    await page.mouse.move(r.x + 40, y, { steps: 6 });
    await page.mouse.up();
  }
  await page.waitForTimeout(300);
  const late = await page.evaluate(() =>
    (window as unknown as { __edgeCheck: EdgeCheck }).__edgeCheck(1, false),
  );
  expect(late.ids.some((id) => !atFit.includes(id))).toBe(true);
  expect(late.checked).toBeGreaterThan(0);
  expect(late.mismatched).toEqual([]);
});
