// Where a canvas gesture's main-thread time goes: loads the app (a built dist, STATEWIRE_DIST, best
// built with `--minify false` so functions keep their names) or the bare React Flow page with the
// canvas bench's generated graph, waits for the fitted view as the bench does, then records a
// Chromium trace and a V8 CPU profile (both through Playwright's CDP session) around the gesture and
// prints the renderer main thread's self time per trace event and per JavaScript function.
//   PROFILE_N=1000 PROFILE_PAGE=app|bare PROFILE_GESTURE=pan|zoom|hover|load [PROFILE_VARIANT=dashed] npx tsx bench/canvas.profile.ts
// `load` profiles the first render itself (navigation to the fitted view); `hover` moves the pointer
// (no button) across the graph in 15 px steps.
import type { CDPSession } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../e2e/server.ts';
import { startBarePage } from './bare-reactflow/serve.ts';
import { PROBES } from './bare-reactflow/probes.ts';
import { generateGraph, launchChromium, positionsOf, writeGraph } from './canvas.bench.ts';

const N = Number(process.env.PROFILE_N ?? 1000);
const PAGE = process.env.PROFILE_PAGE ?? 'app';
const GESTURE = process.env.PROFILE_GESTURE ?? 'pan';
const INPUTS = Number(process.env.PROFILE_INPUTS ?? 24);
const TOP = Number(process.env.PROFILE_TOP ?? 25);
/** The bench's graph variant: plain, or solid / dashed (canvas.dashed_vs_solid's two pages). */
const VARIANT = (process.env.PROFILE_VARIANT ?? 'plain') as 'plain' | 'solid' | 'dashed';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

async function readStream(cdp: CDPSession, handle: string): Promise<string> {
  let out = '';
  for (;;) {
    const r = (await cdp.send('IO.read', { handle })) as {
      data: string;
      eof: boolean;
      base64Encoded?: boolean;
    };
    out += r.base64Encoded ? Buffer.from(r.data, 'base64').toString() : r.data;
    if (r.eof) break;
  }
  await cdp.send('IO.close', { handle });
  return out;
}

/** Self time (ms) per event name on the busiest CrRendererMain thread. */
function traceSelfTimes(events: TraceEvent[]): [string, number][] {
  const mains = events.filter((e) => e.ph === 'M' && e.args?.name === 'CrRendererMain');
  let best: [number, number] | null = null;
  let bestTotal = -1;
  for (const m of mains) {
    const total = events
      .filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X' && e.name === 'RunTask')
      .reduce((s, e) => s + (e.dur ?? 0), 0);
    if (total > bestTotal) [best, bestTotal] = [[m.pid, m.tid], total];
  }
  if (!best) return [];
  const xs = events
    .filter((e) => e.pid === best[0] && e.tid === best[1] && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: { end: number; name: string; child: number; dur: number }[] = [];
  const close = (until: number) => {
    while (stack.length && stack[stack.length - 1]!.end <= until) {
      const f = stack.pop()!;
      self.set(f.name, (self.get(f.name) ?? 0) + (f.dur - f.child) / 1000);
      if (stack.length) stack[stack.length - 1]!.child += f.dur;
    }
  };
  for (const e of xs) {
    close(e.ts);
    stack.push({ end: e.ts + e.dur!, name: e.name, child: 0, dur: e.dur! });
  }
  close(Infinity);
  return [...self].sort((a, b) => b[1] - a[1]);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** Self time (ms) per function (name · file:line) from a V8 CPU profile. */
function profileSelfTimes(p: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} · ${basename(f.url) || '-'}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self].sort((a, b) => b[1] - a[1]);
}

const dist = process.env.STATEWIRE_DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
process.env.STATEWIRE_DIST = dist;
const server = await startServer();
const bare = PAGE === 'bare' ? await startBarePage(server.url) : null;
const id = `bench_${VARIANT}_${N}`;
const graph = generateGraph(N, VARIANT);
writeGraph(server.workspace, id, graph);
const positions = positionsOf(graph);
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript({ content: PROBES });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const url = `${bare ? bare.url : server.url}/?graph=${id}`;
  const categories = [
    'devtools.timeline',
    'disabled-by-default-devtools.timeline',
    'v8.execute',
    'blink',
    'cc',
    'toplevel',
  ].join(',');
  const start = async () => {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Tracing.start', { categories, transferMode: 'ReturnAsStream' });
    await cdp.send('Profiler.start');
  };
  const t0 = Date.now();
  if (GESTURE === 'load') await start();
  await page.goto(url);
  const firstRenderMs = await page.evaluate(`window.__swb.fitted(${JSON.stringify(positions)})`);
  console.log(`first render ${Math.round(firstRenderMs as number)} ms (${Date.now() - t0} ms wall)`);
  const zoom = ((await page.evaluate('window.__swb.transform()')) as number[])[2];
  console.log(`fitted zoom ${zoom}`);
  if (GESTURE !== 'load') {
    await page.waitForTimeout(500);
    const [cx, cy] = (await page.evaluate(
      GESTURE === 'pan' ? 'window.__swb.panePoint()' : 'window.__swb.paneCentre()',
    )) as [number, number];
    if (GESTURE === 'hover') await page.mouse.move(cx - 200, cy);
    await page.mouse.move(cx, cy);
    if (GESTURE === 'pan') {
      await page.mouse.down();
      await page.mouse.move(cx - 2, cy);
    }
    await page.evaluate('window.__swb.frames(2)');
    await start();
    for (let i = 0; i < INPUTS; i++) {
      if (GESTURE === 'pan') await page.mouse.move(cx - 2 - (i + 1) * 15, cy);
      else if (GESTURE === 'hover') await page.mouse.move(cx - 200 + (i + 1) * 15, cy);
      else await page.mouse.wheel(0, i % 2 === 0 ? -100 : 100);
      await page.evaluate('window.__swb.frames(2)');
    }
  }
  const { profile } = (await cdp.send('Profiler.stop')) as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  const done = new Promise<string>((resolve) =>
    cdp.once('Tracing.tracingComplete', (e: { stream?: string }) => resolve(e.stream!)),
  );
  await cdp.send('Tracing.end');
  const text = await readStream(cdp, await done);
  const events = (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents;
  const per = GESTURE === 'load' ? 1 : INPUTS;
  const unit = GESTURE === 'load' ? 'ms' : 'ms per input';
  const trace = traceSelfTimes(events);
  const total = trace.reduce((s, [, ms]) => s + ms, 0);
  console.log(
    `\n${PAGE} ${GESTURE} N=${N}: main thread ${(total / per).toFixed(2)} ${unit} (trace self time by event)`,
  );
  for (const [name, ms] of trace.slice(0, TOP)) console.log(`${(ms / per).toFixed(2).padStart(8)}  ${name}`);
  console.log(`\nJavaScript self time by function (${unit})`);
  for (const [name, ms] of profileSelfTimes(profile).slice(0, TOP))
    console.log(`${(ms / per).toFixed(2).padStart(8)}  ${name}`);
  if (process.env.PROFILE_SAVE) writeFileSync(process.env.PROFILE_SAVE, text);
  await context.close();
} finally {
  await browser.close();
  await bare?.stop();
  await server.stop();
}
