// Screenshots of the canvas bench's generated graph in the app (STATEWIRE_DIST) at the fitted view and
// at given zooms around the view centre, to look at what each level of detail draws:
//   SHOT_N=1000 SHOT_ZOOMS=0.1,0.3 SHOT_OUT=/tmp/shots npx tsx bench/canvas.shot.ts
// SHOT_GRAPH=<a graph of workspace/graphs> shoots that graph instead.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../e2e/server.ts';
import { PROBES } from './bare-reactflow/probes.ts';
import { generateGraph, launchChromium, positionsOf, writeGraph } from './canvas.bench.ts';

const N = Number(process.env.SHOT_N ?? 1000);
const OUT = process.env.SHOT_OUT ?? '/tmp/shots';
const ZOOMS = (process.env.SHOT_ZOOMS ?? '').split(',').filter(Boolean).map(Number);
/** `x,y,width,height`: also a close-up of that page region, at twice the pixels. */
const CLIP = process.env.SHOT_CLIP?.split(',').map(Number);
process.env.STATEWIRE_DIST ??= fileURLToPath(new URL('../dist', import.meta.url));
mkdirSync(OUT, { recursive: true });
const GRAPH = process.env.SHOT_GRAPH;
const server = await startServer(GRAPH ? fileURLToPath(new URL('../workspace', import.meta.url)) : undefined);
const id = GRAPH ?? `bench_plain_${N}`;
const graph = GRAPH
  ? (JSON.parse(readFileSync(join(server.workspace, `graphs/${GRAPH}.json`), 'utf8')) as Record<
      string,
      unknown
    >)
  : generateGraph(N, 'plain');
writeGraph(server.workspace, id, graph);
const positions = positionsOf(graph);
const browser = await launchChromium();
try {
  const page = await browser.newPage({
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: CLIP ? 2 : 1,
  });
  const shoot = async (name: string) => {
    await page.screenshot({ path: join(OUT, `${name}.png`), scale: 'css' });
    if (CLIP) {
      const [x, y, width, height] = CLIP as [number, number, number, number];
      await page.screenshot({ path: join(OUT, `${name}-clip.png`), clip: { x, y, width, height } });
    }
  };
  await page.addInitScript({ content: PROBES });
  await page.goto(`${server.url}/?graph=${id}`);
  // A small graph fits at a zoom the probe does not wait for (it waits for a zoomed-out fit).
  await Promise.race([
    page.evaluate(`window.__swb.fitted(${JSON.stringify(positions)})`),
    page.waitForTimeout(4000),
  ]);
  await page.waitForTimeout(500);
  await shoot(`${GRAPH ?? `n${N}`}-fitted`);
  for (const z of ZOOMS) {
    const [x, y] = (await page.evaluate('window.__swb.paneCentre()')) as [number, number];
    await page.mouse.move(x, y);
    for (let i = 0; i < 80; i++) {
      const now = ((await page.evaluate('window.__swb.transform()')) as number[])[2]!;
      if (Math.abs(Math.log(now / z)) < 0.08) break;
      await page.mouse.wheel(0, now < z ? -50 : 50);
      await page.evaluate('window.__swb.frames(2)');
    }
    await page.waitForTimeout(400);
    await shoot(`${GRAPH ?? `n${N}`}-z${z}`);
  }
} finally {
  await browser.close();
  await server.stop();
}
