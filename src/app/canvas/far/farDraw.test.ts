// The far view's drawing, recorded from a fake 2D context: what it fills and strokes, in which style,
// and the text it writes. The real canvas is checked in Chromium by e2e/canvas-far.spec.ts.
import { describe, expect, it } from 'vitest';
import { MIN_LABEL_PX } from '../LabelScale.tsx';
import { drawFar, drawFarHover } from './farDraw.ts';
import type { Ctx2D, FarFrame } from './farTypes.ts';
import { farLooks } from './farLooks.ts';
import { GRANT_COLOR } from './farStyle.ts';
import { editorStore } from '../../store/editor.store.ts';
import { openFarTestGraph } from './farTestGraph.ts';

type Seg = { from: [number, number]; to: [number, number]; curve: boolean };
interface Op {
  kind: 'fill' | 'stroke' | 'text';
  style: string;
  width: number;
  alpha: number;
  rects: [number, number, number, number][];
  segs: Seg[];
  text?: string;
  font?: string;
}

/** A 2D context that records each fill, stroke and text with the path and style it used. */
function recorder(): { ctx: Ctx2D; ops: Op[] } {
  const ops: Op[] = [];
  let rects: Op['rects'] = [];
  let segs: Seg[] = [];
  let at: [number, number] = [0, 0];
  const ctx = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    globalAlpha: 1,
    font: '10px sans-serif',
    textBaseline: 'alphabetic',
    beginPath: () => ((rects = []), (segs = [])),
    rect: (x: number, y: number, w: number, h: number) => void rects.push([x, y, w, h]),
    moveTo: (x: number, y: number) => void (at = [x, y]),
    lineTo: (x: number, y: number) => void (segs.push({ from: at, to: [x, y], curve: false }), (at = [x, y])),
    bezierCurveTo: (_a: number, _b: number, _c: number, _d: number, x: number, y: number) =>
      void (segs.push({ from: at, to: [x, y], curve: true }), (at = [x, y])),
    fill: () =>
      void ops.push({
        kind: 'fill',
        style: String(ctx.fillStyle),
        width: 0,
        alpha: ctx.globalAlpha,
        rects,
        segs,
      }),
    stroke: () =>
      void ops.push({
        kind: 'stroke',
        style: String(ctx.strokeStyle),
        width: ctx.lineWidth,
        alpha: ctx.globalAlpha,
        rects,
        segs,
      }),
    fillText: (text: string) =>
      void ops.push({
        kind: 'text',
        style: String(ctx.fillStyle),
        width: 0,
        alpha: 1,
        rects: [],
        segs: [],
        text,
        font: ctx.font,
      }),
    measureText: (text: string) => ({ width: text.length * 6 }) as TextMetrics,
    save() {},
    restore() {},
    clearRect() {},
    setTransform() {},
  };
  return { ctx: ctx as unknown as Ctx2D, ops };
}

const frame = (over: Partial<FarFrame> = {}): FarFrame => ({
  selected: new Set(),
  hovered: -1,
  related: new Set(),
  status: () => undefined,
  breakpoint: null,
  drag: null,
  ...over,
});
const view = (k: number) => ({ tx: 10, ty: 10, k, width: 1400, height: 900 });
const pxOf = (font: string) => Number(/([\d.]+)px/.exec(font)![1]);

describe('far view drawing', () => {
  it('writes no label far out, and labels of at least 9 screen px once they fit', () => {
    const { scene } = openFarTestGraph();
    const looks = farLooks(scene.items, editorStore.getState());
    const far = recorder();
    const farStats = drawFar(far.ctx, scene, looks, view(0.07), frame());
    expect(far.ops.filter((o) => o.kind === 'text')).toEqual([]);
    expect(farStats.labelPx).toEqual([]);
    expect(farStats.nodes).toBe(3);
    for (const k of [0.21, 0.25, 0.3]) {
      const near = recorder();
      const stats = drawFar(near.ctx, scene, looks, view(k), frame());
      const texts = near.ops.filter((o) => o.kind === 'text');
      expect(texts.length).toBe(4);
      for (const t of texts) expect(pxOf(t.font!)).toBeGreaterThanOrEqual(MIN_LABEL_PX);
      expect(Math.min(...stats.labelPx)).toBeGreaterThanOrEqual(MIN_LABEL_PX);
      // A label longer than its box is cut with an ellipsis, never drawn past the box.
      expect(texts.some((t) => t.text!.endsWith('…'))).toBe(true);
    }
  });

  it('draws grants straight, dashed 6 4 on screen, violet, half transparent, without an arrowhead', () => {
    const { scene } = openFarTestGraph();
    const looks = farLooks(scene.items, editorStore.getState());
    const { ctx, ops } = recorder();
    drawFar(ctx, scene, looks, view(0.5), frame());
    const violet = ops.filter((o) => o.style === GRANT_COLOR);
    expect(violet).toHaveLength(1); // one stroke, no filled arrowhead
    const [grant] = violet;
    expect(grant!.kind).toBe('stroke');
    expect(grant!.alpha).toBe(0.5);
    const e = scene.edges.find((x) => x.grant)!;
    const [s, t] = [scene.items[e.source]!, scene.items[e.target]!];
    const [x0, y0, x1, y1] = [
      (s.x + e.sx) * 0.5 + 10,
      (s.y + e.sy) * 0.5 + 10,
      (t.x + e.tx) * 0.5 + 10,
      (t.y + e.ty) * 0.5 + 10,
    ];
    const len = Math.hypot(x1 - x0, y1 - y0);
    expect(grant!.segs.length).toBe(Math.ceil(len / 10));
    grant!.segs.forEach((seg, i) => {
      expect(seg.curve).toBe(false);
      // Each dash starts 10 px after the last, on the line from the state anchor to the container.
      const d = Math.hypot(seg.from[0] - x0, seg.from[1] - y0);
      expect(d).toBeCloseTo(i * 10, 6);
      expect(Math.hypot(seg.to[0] - seg.from[0], seg.to[1] - seg.from[1])).toBeCloseTo(
        Math.min(6, len - i * 10),
        6,
      );
      const cross = (seg.to[0] - x0) * (y1 - y0) - (seg.to[1] - y0) * (x1 - x0);
      expect(Math.abs(cross) / len).toBeLessThan(1e-6);
    });
    // Data edges are beziers between their ports.
    const data = ops.find((o) => o.kind === 'stroke' && o.segs.some((x) => x.curve))!;
    expect(data.segs).toHaveLength(2);
  });

  it('shows run status, selection and the hovered item’s grant relations', () => {
    const { scene } = openFarTestGraph();
    const looks = farLooks(scene.items, editorStore.getState());
    const { ctx, ops } = recorder();
    const llm = scene.byFlowId.get('llm')!;
    const mem = scene.byFlowId.get('c:mem')!;
    drawFar(
      ctx,
      scene,
      looks,
      view(0.2),
      frame({
        status: (id) => (id === 'parse' ? 'error' : id === 'src' ? 'done' : undefined),
        selected: new Set(['llm']),
        hovered: mem,
        related: new Set([llm]),
      }),
    );
    const rectsOf = (kind: Op['kind'], style: string) =>
      ops.filter((o) => o.kind === kind && o.style === style).flatMap((o) => o.rects);
    const at = (i: number) => [scene.items[i]!.x * 0.2 + 10, scene.items[i]!.y * 0.2 + 10];
    const starts = (rs: Op['rects'], i: number) =>
      rs.some((r) => Math.abs(r[0] - at(i)[0]!) < 2 && Math.abs(r[1] - at(i)[1]!) < 2);
    // Failed node: red-tinted body and red border; done: green-tinted body.
    expect(starts(rectsOf('fill', '#5b2021'), scene.byFlowId.get('parse')!)).toBe(true);
    expect(starts(rectsOf('stroke', '#ef4444'), scene.byFlowId.get('parse')!)).toBe(true);
    expect(starts(rectsOf('fill', '#134a39'), scene.byFlowId.get('src')!)).toBe(true);
    // Selected beats related: sky border on llm; the hovered container gets the hover border.
    expect(starts(rectsOf('stroke', '#38bdf8'), llm)).toBe(true);
    expect(ops.some((o) => o.kind === 'stroke' && o.style === '#d4d4d8' && o.segs.length > 0)).toBe(true);
  });

  it('draws what is in view (and what is dragged) only, dragged items at their offset', () => {
    const { scene } = openFarTestGraph();
    const looks = farLooks(scene.items, editorStore.getState());
    const narrow = { tx: 0, ty: 0, k: 1, width: 250, height: 200 }; // only `src` is in view
    const { ctx, ops } = recorder();
    const stats = drawFar(ctx, scene, looks, narrow, frame());
    expect(stats.nodes).toBe(1);
    const dragged = recorder();
    const parse = scene.byFlowId.get('parse')!;
    const moved = drawFar(
      dragged.ctx,
      scene,
      looks,
      narrow,
      frame({ drag: { items: [parse], offset: (i) => (i === parse ? [-500, 50] : undefined) } }),
    );
    expect(moved.nodes).toBe(2);
    const bodies = dragged.ops.filter((o) => o.kind === 'fill').flatMap((o) => o.rects);
    expect(bodies.some((r) => r[0] === 100 && r[1] === 50)).toBe(true);
    expect(ops.length).toBeGreaterThan(0);
  });

  it('draws the hover on its own layer: the hovered item and its relations, unless their border says more', () => {
    const { scene } = openFarTestGraph();
    const looks = farLooks(scene.items, editorStore.getState());
    const llm = scene.byFlowId.get('llm')!;
    const mem = scene.byFlowId.get('c:mem')!;
    const hover = (selected: Set<string>) => {
      const { ctx, ops } = recorder();
      drawFarHover(ctx, scene, looks, view(0.2), frame({ hovered: mem, related: new Set([llm]), selected }));
      return ops.filter((o) => o.kind === 'stroke');
    };
    const both = hover(new Set());
    // The hovered container's (dashed) border, the related node's violet one, nothing else.
    expect(both.map((o) => o.style)).toEqual(['#d4d4d8', '#a78bfa']);
    expect(both[0]!.segs.length).toBeGreaterThan(4);
    expect(both[1]!.rects).toHaveLength(1);
    // A selected node keeps its selection border: the hover layer leaves it alone.
    expect(hover(new Set(['llm'])).map((o) => o.style)).toEqual(['#d4d4d8']);
  });
});
