// No text on the canvas renders below 9 screen pixels, at any zoom and level of detail: it is
// readable or hidden (src/app/canvas/LabelScale.tsx). Every text node and generated text (::before,
// ::after) inside the canvas that the browser draws (visible, not transparent, on screen) is measured
// at its computed font size times every scale above it (the viewport's zoom, a title's scale-up),
// and the far view's canvas reports the size of each label it wrote.
import type { Page } from '@playwright/test';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test, type ServerHandle } from './fixtures.ts';
import { layeredGraph } from './layeredGraph.ts';
import { settled, zoomTo } from './canvasView.ts';

interface TextReport {
  zoom: number;
  /** Texts drawn on screen. */
  shown: number;
  /** Of those, the ones under 9 px: "text @ px". */
  small: string[];
  /** Port names drawn (the 11 px text of a full node). */
  ports: number;
}

/** Measures every text the browser draws inside the canvas. */
const texts = (page: Page): Promise<TextReport> =>
  page.evaluate(() => {
    const canvas = document.querySelector('[data-testid="canvas"]')!;
    const pane = document.querySelector('.react-flow')!.getBoundingClientRect();
    const vp = document.querySelector<HTMLElement>('.react-flow__viewport')!.style.transform;
    const zoom = Number(/scale\(([\d.e-]+)\)/.exec(vp)![1]);
    const scaleOf = (el: Element) => {
      let s = 1;
      for (let e: Element | null = el; e; e = e.parentElement) {
        const t = getComputedStyle(e).transform;
        if (t && t !== 'none') {
          const m = new DOMMatrixReadOnly(t);
          s *= Math.hypot(m.a, m.b);
        }
      }
      return s;
    };
    const drawn = (el: Element, cs: CSSStyleDeclaration) => {
      if (cs.visibility !== 'visible' || parseFloat(cs.fontSize) === 0) return false;
      if (/rgba\(.*,\s*0\)$/.test(cs.color)) return false;
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = getComputedStyle(e);
        if (c.display === 'none' || Number(c.opacity) === 0) return false;
      }
      return true;
    };
    const onScreen = (r: DOMRect) =>
      r.width > 0 &&
      r.height > 0 &&
      r.right > pane.left &&
      r.left < pane.right &&
      r.bottom > pane.top &&
      r.top < pane.bottom;
    const report = { zoom, shown: 0, small: [] as string[], ports: 0 };
    const check = (text: string, el: Element, cs: CSSStyleDeclaration) => {
      report.shown++;
      if (el.closest('.sw-port')) report.ports++;
      const px = parseFloat(cs.fontSize) * scaleOf(el);
      if (px < 9 - 1e-6) report.small.push(`${text.slice(0, 30)} @ ${px.toFixed(2)}`);
    };
    const walker = document.createTreeWalker(canvas, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      const el = n.parentElement;
      if (!text || !el) continue;
      const cs = getComputedStyle(el);
      if (!drawn(el, cs)) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      if (![...range.getClientRects()].some(onScreen)) continue;
      check(text, el, cs);
    }
    for (const el of canvas.querySelectorAll('*')) {
      for (const pseudo of ['::before', '::after']) {
        const cs = getComputedStyle(el, pseudo);
        const content = cs.content;
        if (!content || content === 'none' || content === 'normal' || content === '""') continue;
        const text = content.startsWith('attr(')
          ? (el.getAttribute(content.slice(5, -1)) ?? '')
          : content.replace(/^"|"$/g, '');
        if (!text.trim() || !drawn(el, cs) || !onScreen(el.getBoundingClientRect())) continue;
        check(text, el, cs);
      }
    }
    return report;
  });

/** Opens a generated graph of 25 rows and `cols` columns (e2e/layeredGraph.ts). */
async function openLayered(page: Page, server: ServerHandle, id: string, cols: number) {
  const { nodes, edges } = layeredGraph(25, cols);
  server.writeGraph(id, { name: id, description: '', nodes, edges, containers: [], access_grants: [] });
  const editor = new EditorPage(page);
  await editor.open(`?graph=${id}`);
  return editor;
}

const farLabels = async (page: Page) => {
  const layer = page.getByTestId('far-layer');
  return {
    count: Number(await layer.getAttribute('data-labels')),
    minPx: Number((await layer.getAttribute('data-label-px-min')) || 'NaN'),
  };
};

test('1,000 nodes: no text under 9 px at the fitted zoom, far out with labels, and in the DOM levels', async ({
  page,
  server,
}) => {
  const editor = await openLayered(page, server, 'legible_1k', 40);
  await expect(editor.canvas).toHaveAttribute('data-far', 'true');
  await settled(page);
  // The fitted view: every node drawn into the far layer, no label small enough to be unreadable.
  const fitted = await texts(page);
  expect(fitted.small).toEqual([]);
  expect(await farLabels(page)).toEqual({ count: 0, minPx: NaN });

  // Closer, still far out: labels, each at least 9 px.
  expect(await zoomTo(page, 0.27)).toBeLessThan(0.3);
  await expect.poll(async () => (await farLabels(page)).count).toBeGreaterThan(10);
  expect((await farLabels(page)).minPx).toBeGreaterThanOrEqual(9);

  // DOM nodes at zooms across the size steps (titles scaled up, smaller texts hidden in turn).
  for (const target of [0.34, 0.5, 0.86, 0.95, 1.05]) {
    const zoom = await zoomTo(page, target);
    await settled(page);
    const r = await texts(page);
    expect(r.small, `at zoom ${zoom}`).toEqual([]);
    // Not everything was hidden: the titles, and from 9/11 zoom on the port names, are drawn.
    expect(r.shown, `at zoom ${zoom}`).toBeGreaterThan(5);
    if (zoom * 11 >= 9) expect(r.ports, `at zoom ${zoom}`).toBeGreaterThan(5);
    else expect(r.ports, `at zoom ${zoom}`).toBe(0);
  }
});

test('no text under 9 px on DOM boxes and on full nodes with containers, slot badges and notes', async ({
  page,
  server,
}) => {
  // 600 nodes: below the far view's size, so zoomed out they are DOM boxes.
  const editor = await openLayered(page, server, 'legible_600', 24);
  await expect(editor.canvas).toHaveAttribute('data-far', 'false');
  await expect(page.locator('[data-lod="box"]').first()).toBeVisible();
  expect((await texts(page)).small).toEqual([]);
  // Zoomed in until a box label is 9 px: drawn.
  const boxes = await zoomTo(page, 0.23);
  const near = await texts(page);
  expect(near.small, `at zoom ${boxes}`).toEqual([]);
  expect(near.shown).toBeGreaterThan(5);

  // The demo: containers with slot rows, reducer and lifetime badges (9 px), value types (10 px).
  const demo = JSON.parse(JSON.stringify(server.readGraph('smoke_demo'))) as { nodes: unknown[] };
  demo.nodes.push({
    id: 'note1',
    type: 'note',
    position: { x: 0, y: -120 },
    config: { markdown: 'a note on the canvas' },
  });
  server.writeGraph('legible_demo', demo);
  await editor.open('?graph=legible_demo');
  for (const target of [0.3, 0.6, 0.88, 0.96, 1.05, 1.6]) {
    const zoom = await zoomTo(page, target);
    await settled(page);
    const r = await texts(page);
    expect(r.small, `at zoom ${zoom}`).toEqual([]);
    expect(r.shown, `at zoom ${zoom}`).toBeGreaterThan(3);
  }
});
