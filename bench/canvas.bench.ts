// Canvas benchmark: the real app (a built dist served by a real `statewire serve`) against bare React
// Flow (bench/bare-reactflow/: default nodes, same graph JSON over HTTP, same fitView options and
// zoom limits), side by side in headless Debian chromium at 1440×900, alternating A/B (measureAB).
// Per page load it measures: first render (navigation start → fitted view rendered: every node
// whose position is inside the view in the DOM and measured, or drawn by the app's far view, then
// two animation frames), then main-thread busy time per input (CDP Performance.getMetrics
// TaskDuration delta / inputs, each input followed by two animation frames) for drag-pans and
// wheel-zooms at the fitted zoom (every node on screen, right after the first render, no zoom
// before), wheel-zooms to ~1, then drag-pans and wheel-zooms at zoom ~1. Build the app first:
// `npx vite build` (the repo's dist/), or point STATEWIRE_DIST at another build. Standalone:
// `npx tsx bench/canvas.bench.ts`.
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer } from '../e2e/server.ts';
import playwrightConfig from '../playwright.config.ts';
import { figure, measureAB, type BenchResult, type Figure } from './figures.ts';
import { startBarePage } from './bare-reactflow/serve.ts';
import { PROBES } from './bare-reactflow/probes.ts';

// CANVAS_BENCH_SIZES / CANVAS_BENCH_REPS shorten a run while iterating; the figures use the defaults.
// CANVAS_BENCH_ONLY=first_render measures only the first-render figures (no gestures, no dashed
// pass), CANVAS_BENCH_ONLY=dashed only canvas.dashed_vs_solid.
const SIZES = (process.env.CANVAS_BENCH_SIZES ?? '1000,3000,10000').split(',').map(Number);
const REPS = Number(process.env.CANVAS_BENCH_REPS ?? 3);
/**
 * Page loads per side for the first-render figures: the REPS loads that also measure gestures, then
 * loads that measure only the first render (9 in all). A first render is one sample per load and varies
 * ±8% between loads of the same page, so its median takes more loads than the gesture figures
 * (each of those already averages many inputs per load).
 */
const FIRST_RENDER_REPS = Math.max(REPS, Number(process.env.CANVAS_BENCH_FIRST_RENDER_REPS ?? 9));
/**
 * The 10,000-node first render takes 5 loads a side: a bare page load there takes many seconds, and
 * the two sides are far enough apart that the ±8% of a single load does not decide the figure.
 */
const firstRenderReps = (n: number) => (n > 3000 ? Math.max(REPS, 5) : FIRST_RENDER_REPS);
const ONLY = process.env.CANVAS_BENCH_ONLY ?? '';
/** Inputs per measured gesture; each is followed by two animation frames. */
const INPUTS = 8;
/**
 * The dashed-vs-solid figure is a small difference between two busy pages, so it takes more
 * repetitions and three times the inputs per page load (single 8-input runs varied 0.8–1.5).
 */
const DASHED_REPS = Number(process.env.CANVAS_BENCH_DASHED_REPS ?? 7);
const DASHED_INPUTS = 24;
const PAN_STEP_PX = 15;
/**
 * Rows of the generated graph: 25 (40 columns at 1,000 nodes, 120 at 3,000), and 100 for the 10,000
 * node graph, so it fits the view whole at the canvas's minimum zoom (initialViewport.ts MIN_ZOOM).
 */
export const rowsFor = (n: number) => (n > 3000 ? 100 : 25);
const VIEWPORT = { width: 1440, height: 900 };
// The e2e suite's chromium flags (no sandbox, no GPU, no background networking…), kept in one place.
const CHROMIUM_ARGS = playwrightConfig.use?.launchOptions?.args ?? [];

type Variant = 'plain' | 'solid' | 'dashed';

const nodeAt = (i: number, rows: number) => {
  const col = Math.floor(i / rows);
  return { col, row: i % rows, type: col % 2 === 0 ? 'llmCall' : 'textParse' };
};
const inputOf = (type: string) => (type === 'llmCall' ? 'prompt' : 'text');

/**
 * A layered DAG: columns of rowsFor(n) llmCall/textParse nodes, each fed by the previous column ('plain').
 * 'solid' and 'dashed' draw n edges of the same endpoints two ways for the dashed-vs-solid figure:
 * one element per column under it (a constant node / a state container) wired to every node of the
 * column by a data edge / an access grant; both keep one extra container so State is shown.
 */
export function generateGraph(n = 1000, variant: Variant = 'plain'): Record<string, unknown> {
  const nodes: Record<string, unknown>[] = [];
  const edges: Record<string, unknown>[] = [];
  const containers: Record<string, unknown>[] = [];
  const access_grants: Record<string, unknown>[] = [];
  const rows = rowsFor(n);
  const cols = Math.ceil(n / rows);
  for (let i = 0; i < n; i++) {
    const { col, row, type: plainType } = nodeAt(i, rows);
    // The two pages of the dashed-vs-solid figure must differ in their edges only: a textParse
    // node's `text` input is required, so without its data edge (the dashed page) it is an error,
    // and 500 error outlines plus the Issues list the page then opens on cost more per pan frame
    // than the edges themselves. llmCall's `prompt` is optional: both pages are valid graphs.
    const type = variant === 'plain' ? plainType : 'llmCall';
    nodes.push({ id: `n${i}`, type, label: `n${i}`, position: { x: col * 280, y: row * 160 }, config: {} });
    if (variant === 'plain' && col > 0) {
      const srcType = nodeAt(i - rows, rows).type;
      edges.push({
        id: `e${i}`,
        source: `n${i - rows}`,
        target: `n${i}`,
        sourceHandle: srcType === 'llmCall' ? 'response' : 'value',
        targetHandle: inputOf(type),
      });
    }
    if (variant === 'solid')
      edges.push({
        id: `e${i}`,
        source: `k${col}`,
        target: `n${i}`,
        sourceHandle: 'value',
        targetHandle: inputOf(type),
      });
    if (variant === 'dashed') access_grants.push({ id: `ag${i}`, node_id: `n${i}`, container_id: `k${col}` });
  }
  const below = rows * 160 + 100;
  for (let col = 0; variant !== 'plain' && col < cols; col++) {
    const position = { x: col * 280, y: below };
    if (variant === 'solid')
      nodes.push({ id: `k${col}`, type: 'constant', label: `k${col}`, position, config: {} });
    else containers.push({ id: `k${col}`, label: `k${col}`, position, states: {} });
  }
  containers.push({
    id: 'memory',
    label: 'Memory',
    position: { x: 0, y: below + 400 },
    states: { notes: { type: 'accumulator', value_type: 'TEXT' } },
  });
  if (variant === 'plain')
    for (let i = 0; i < 20; i++)
      access_grants.push({ id: `ag${i}`, node_id: `n${i * 50}`, container_id: 'memory' });
  return {
    name: `bench_${variant}_${n}`,
    description: '',
    nodes,
    edges,
    containers,
    access_grants,
    step_budget: 500,
    eval_graph: false,
  };
}

interface Sample {
  firstRenderMs: number;
  /** The zoom the view was fitted at. */
  fittedZoom: number;
  panFittedMs: number;
  zoomFittedMs: number;
  panMs: number;
  zoomMs: number;
  zoom: number;
}

const taskSeconds = async (cdp: CDPSession): Promise<number> => {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN;
};
const frames = (page: Page, n = 2) => page.evaluate(`window.__swb.frames(${n})`);
const zoomOf = async (page: Page) => ((await page.evaluate('window.__swb.transform()')) as number[])[2]!;

/** Main-thread busy ms per input over INPUTS inputs, each followed by two animation frames. */
async function busyPerInput(
  page: Page,
  cdp: CDPSession,
  input: (i: number) => Promise<void>,
  inputs = INPUTS,
): Promise<number> {
  const t0 = await taskSeconds(cdp);
  for (let i = 0; i < inputs; i++) {
    await input(i);
    await frames(page);
  }
  return (((await taskSeconds(cdp)) - t0) * 1000) / inputs;
}

async function pan(page: Page, cdp: CDPSession, inputs = INPUTS): Promise<number> {
  const at = (await page.evaluate('window.__swb.panePoint()')) as [number, number] | null;
  if (!at) throw new Error('no empty pane point to drag from');
  const [x, y] = at;
  await page.mouse.move(x, y);
  await page.mouse.down();
  // A first move starts the drag (d3-zoom's click distance), outside the measured inputs.
  await page.mouse.move(x - 2, y);
  await frames(page);
  const ms = await busyPerInput(page, cdp, (i) => page.mouse.move(x - 2 - (i + 1) * PAN_STEP_PX, y), inputs);
  await page.mouse.up();
  await frames(page);
  return ms;
}

async function zoom(page: Page, cdp: CDPSession): Promise<number> {
  const [x, y] = (await page.evaluate('window.__swb.paneCentre()')) as [number, number];
  await page.mouse.move(x, y);
  // In, out, in, out…: the zoom stays between two levels, so both pages do the same work throughout.
  return busyPerInput(page, cdp, (i) => page.mouse.wheel(0, i % 2 === 0 ? -100 : 100));
}

async function zoomToOne(page: Page): Promise<number> {
  const [x, y] = (await page.evaluate('window.__swb.paneCentre()')) as [number, number];
  await page.mouse.move(x, y);
  // Small wheel steps (×1.15 each in React Flow) so both pages stop at nearly the same zoom: a
  // page that overshoots to 1.4 would show fewer nodes and look cheaper than it is.
  for (let i = 0; i < 120 && (await zoomOf(page)) < 0.93; i++) {
    await page.mouse.wheel(0, -100);
    await frames(page);
  }
  for (let i = 0; i < 20 && (await zoomOf(page)) > 1.08; i++) {
    await page.mouse.wheel(0, 30);
    await frames(page);
  }
  await page.waitForTimeout(300);
  await frames(page, 4);
  return zoomOf(page);
}

/** What a page load measures after its first render. */
type Gestures = 'none' | 'fitted_pan' | 'all';

async function loadAndMeasure(
  browser: Browser,
  url: string,
  positions: unknown,
  gestures: Gestures,
  panInputs = INPUTS,
): Promise<Sample> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript({ content: PROBES });
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url);
    const firstRenderMs = (await page.evaluate(
      `window.__swb.fitted(${JSON.stringify(positions)})`,
    )) as number;
    const none = { panFittedMs: NaN, zoomFittedMs: NaN, panMs: NaN, zoomMs: NaN, zoom: NaN };
    const fittedZoom = await zoomOf(page);
    if (gestures === 'none') return { firstRenderMs, fittedZoom, ...none };
    await page.waitForTimeout(300);
    const panFittedMs = await pan(page, cdp, panInputs);
    if (gestures === 'fitted_pan') return { firstRenderMs, fittedZoom, ...none, panFittedMs };
    // In and out around the fitted zoom: the view stays at it (no zoom before the pan above).
    const zoomFittedMs = await zoom(page, cdp);
    const z = await zoomToOne(page);
    const panMs = await pan(page, cdp);
    const zoomMs = await zoom(page, cdp);
    return { firstRenderMs, fittedZoom, panFittedMs, zoomFittedMs, panMs, zoomMs, zoom: z };
  } finally {
    await context.close();
  }
}

/** [id, x, y] of every node of a graph, for the page probe (PROBES `fitted`). */
export const positionsOf = (g: Record<string, unknown>) =>
  (g.nodes as { id: string; position: { x: number; y: number } }[]).map((n) => [
    n.id,
    n.position.x,
    n.position.y,
  ]);

/** canvas.dashed_vs_solid: our app with 1,000 edges as access grants against the same as data edges. */
async function dashedVsSolid(
  browser: Browser,
  appUrl: string,
  graphs: Map<string, Record<string, unknown>>,
  figures: Figure[],
): Promise<void> {
  const dashed: number[] = [];
  const solid: number[] = [];
  const panOf = async (id: string) =>
    (
      await loadAndMeasure(
        browser,
        `${appUrl}/?graph=${id}`,
        positionsOf(graphs.get(id)!),
        'fitted_pan',
        DASHED_INPUTS,
      )
    ).panFittedMs;
  await measureAB(
    DASHED_REPS,
    async () => (dashed.push(await panOf('bench_dashed_1000')), 0),
    async () => (solid.push(await panOf('bench_solid_1000')), 0),
  );
  figures.push(
    figure(
      'canvas.dashed_vs_solid',
      'ms',
      { on: 'ratio', op: '<=', value: 1.1 },
      dashed,
      solid,
      `our app, 1,000 nodes + 40 column elements, 1,000 edges as grants (dashed) vs as data edges (solid): main-thread ms per drag-pan input at the fitted zoom (every edge on screen), ${DASHED_INPUTS} inputs per page load`,
    ),
  );
}

/** Debian's chromium with the e2e suite's flags. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });

/** Writes a graph where the server's workspace keeps graphs (`/?graph=<id>` opens it). */
export function writeGraph(workspace: string, id: string, graph: Record<string, unknown>): void {
  mkdirSync(join(workspace, 'graphs'), { recursive: true });
  writeFileSync(join(workspace, `graphs/${id}.json`), JSON.stringify(graph));
}

export async function run(): Promise<BenchResult> {
  const dist = process.env.STATEWIRE_DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
  if (!existsSync(join(dist, 'index.html')))
    throw new Error(`${dist} has no built app: run \`npx vite build\` first`);
  process.env.STATEWIRE_DIST = dist;
  const server = await startServer();
  const bare = await startBarePage(server.url);

  const graphs = new Map<string, Record<string, unknown>>();
  for (const n of SIZES) graphs.set(`bench_plain_${n}`, generateGraph(n, 'plain'));
  graphs.set('bench_solid_1000', generateGraph(1000, 'solid'));
  graphs.set('bench_dashed_1000', generateGraph(1000, 'dashed'));
  for (const [id, g] of graphs) writeGraph(server.workspace, id, g);
  const browser = await launchChromium();
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  const started = Date.now();
  try {
    const gestures: Gestures = ONLY === 'first_render' ? 'none' : 'all';
    for (const n of ONLY === 'dashed' ? [] : SIZES) {
      const id = `bench_plain_${n}`;
      const pos = positionsOf(graphs.get(id)!);
      const ours: Sample[] = [];
      const base: Sample[] = [];
      await measureAB(
        REPS,
        async () => (
          ours.push(await loadAndMeasure(browser, `${server.url}/?graph=${id}`, pos, gestures)),
          0
        ),
        async () => (base.push(await loadAndMeasure(browser, `${bare.url}/?graph=${id}`, pos, gestures)), 0),
      );
      // More loads that measure the first render only (no gestures), alternating as well.
      const firstRender = (url: string, into: Sample[]) => async () => (
        into.push(await loadAndMeasure(browser, url, pos, 'none')),
        0
      );
      const oursFirst = [...ours];
      const baseFirst = [...base];
      await measureAB(
        firstRenderReps(n) - REPS,
        firstRender(`${server.url}/?graph=${id}`, oursFirst),
        firstRender(`${bare.url}/?graph=${id}`, baseFirst),
      );
      const f = (k: keyof Sample) => [ours.map((s) => s[k]), base.map((s) => s[k])] as const;
      const goal = { on: 'ratio' as const, op: '<=' as const, value: n === 1000 ? 1.25 : 1.0 };
      const ratio = (value: number) => ({ on: 'ratio' as const, op: '<=' as const, value });
      figures.push(
        figure(
          `canvas.first_render.${n}`,
          'ms',
          ratio(n > 3000 ? 0.75 : 1.0),
          oursFirst.map((s) => s.firstRenderMs),
          baseFirst.map((s) => s.firstRenderMs),
          `navigation start → fitted view rendered (nodes in view in the DOM and measured, + 2 frames), ${n} nodes, ${n - rowsFor(n)} edges`,
        ),
      );
      details[`fitted_zoom.${n}`] = { ours: ours[0]?.fittedZoom, baseline: base[0]?.fittedZoom };
      if (gestures === 'none') continue;
      const fittedGoal = ratio(n > 1000 ? 0.5 : 1.0);
      figures.push(
        figure(
          `canvas.pan_fitted.${n}`,
          'ms',
          fittedGoal,
          ...f('panFittedMs'),
          `main-thread busy ms per drag-pan input (${PAN_STEP_PX} px mouse move + 2 frames, CDP TaskDuration) at the fitted zoom (every node on screen, right after the first render)`,
        ),
        figure(
          `canvas.zoom_fitted.${n}`,
          'ms',
          fittedGoal,
          ...f('zoomFittedMs'),
          'main-thread busy ms per wheel-zoom input (±100, alternating in/out, + 2 frames, CDP TaskDuration) at the fitted zoom',
        ),
        figure(
          `canvas.pan.${n}`,
          'ms',
          goal,
          ...f('panMs'),
          `main-thread busy ms per drag-pan input (${PAN_STEP_PX} px mouse move + 2 frames, CDP TaskDuration) at zoom ~1 (full node detail)`,
        ),
        figure(
          `canvas.zoom.${n}`,
          'ms',
          goal,
          ...f('zoomMs'),
          'main-thread busy ms per wheel-zoom input (±100, alternating in/out, + 2 frames, CDP TaskDuration) at zoom ~1',
        ),
      );
      details[`zoom_reached.${n}`] = { ours: ours.map((s) => s.zoom), baseline: base.map((s) => s.zoom) };
    }
    if (ONLY !== 'first_render') await dashedVsSolid(browser, server.url, graphs, figures);
    details.bench_seconds = Math.round((Date.now() - started) / 1000);
    return { ...details, figures };
  } finally {
    await browser.close();
    await bare.stop();
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await run(), null, 1));
}
