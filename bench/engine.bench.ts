// Engine benchmarks (one run, same machine):
// - throughput: root steps per second on the demo graph (200 steps, offline provider), with a no-op
//   sink and with JSON-serializing every event as a host would;
// - history memory per step on the demo graph (checkpoints kept for every step);
// - structural sharing: a 10,000-step run whose ~100 KB map slot changes one cell per step, retained
//   heap per step, next to a deep-copy baseline (what the reference's checkpoint() copy costs).
// Heap figures use process.memoryUsage().heapUsed after a forced GC (exposed at runtime when node
// was not started with --expose-gc).
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { parseGraph } from '../src/domain/graph/graph.parse.ts';
import type { GraphDef } from '../src/domain/graph/graph.schema.ts';
import { createRun } from '../src/engine/createRun.ts';
import { paintedMap } from '../src/engine/testkit.ts';

function getGc(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    setFlagsFromString('--expose_gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

const gc = getGc();
function heap(): number {
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed;
}

function demo(): GraphDef {
  const text = readFileSync(new URL('../workspace/graphs/grid_navigator.json', import.meta.url), 'utf8');
  const r = parseGraph(JSON.parse(text));
  if (!r.ok) throw new Error('demo graph does not parse');
  return r.graph;
}

async function drive(run: { stepOnce(): Promise<{ done: boolean }> }): Promise<void> {
  while (!(await run.stepOnce()).done);
}

async function throughput(
  serialize: boolean,
): Promise<{ stepsPerSec: number; eventsPerStep: number; jsonBytesPerStep: number }> {
  const g = demo();
  let events = 0;
  let bytes = 0;
  const sink = serialize
    ? (e: unknown) => void ((bytes += JSON.stringify(e).length), events++)
    : () => void events++;
  for (let i = 0; i < 3; i++) await drive(createRun(g, { runId: 'warm' }, sink)); // JIT warm-up
  events = 0;
  bytes = 0;
  // The machine is shared and noisy: time 5 batches of 5 runs and report the median batch.
  const rates: number[] = [];
  const batches = 5;
  const reps = 5;
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) await drive(createRun(g, { runId: `t${b}.${i}` }, sink));
    rates.push((reps * 200) / ((performance.now() - t0) / 1000));
  }
  const total = batches * reps * 200;
  return {
    stepsPerSec: rates.sort((a, b) => a - b)[Math.floor(batches / 2)]!,
    eventsPerStep: events / total,
    jsonBytesPerStep: bytes / total,
  };
}

async function demoHistory(): Promise<number> {
  const h0 = heap();
  const run = createRun(demo(), { runId: 'h' }, () => undefined);
  await drive(run);
  const h1 = heap();
  const per = (h1 - h0) / run.checkpointSteps().length;
  if (run.step !== 200) throw new Error('demo did not run 200 steps');
  return per;
}

function mapGraph(steps: number) {
  const { graph: g, registry: reg, initial } = paintedMap(steps);
  return { g, reg, mapJsonBytes: JSON.stringify(initial).length };
}

async function sharing(): Promise<Record<string, number>> {
  const STEPS = 10_000;
  const BASELINE_STEPS = 300; // a deep copy per step of 10,000 steps would need ~4 GB of heap
  const { g, reg, mapJsonBytes } = mapGraph(STEPS);
  const h0 = heap();
  const t0 = performance.now();
  const run = createRun(g, { runId: 's', registry: reg }, () => undefined);
  await drive(run);
  const secs = (performance.now() - t0) / 1000;
  const h1 = heap();
  const shared = (h1 - h0) / run.checkpointSteps().length;

  const b = mapGraph(BASELINE_STEPS);
  const base = createRun(b.g, { runId: 'b', registry: b.reg }, () => undefined);
  await drive(base);
  const h2 = heap();
  const copies = base.checkpointSteps().map((s) => structuredClone(base.checkpoint(s)!.state));
  const h3 = heap();
  const deep = (h3 - h2) / copies.length;
  return {
    'sharing: steps': STEPS,
    'sharing: map slot JSON bytes': mapJsonBytes,
    'sharing: root steps/s': STEPS / secs,
    'sharing: retained heap/step (bytes, shared checkpoints)': Math.round(shared),
    'sharing: retained heap/step (bytes, deep-copy baseline)': Math.round(deep),
    'sharing: baseline/shared ratio': deep / shared,
  };
}

export async function run(): Promise<Record<string, number | string>> {
  const raw = await throughput(false);
  const ser = await throughput(true);
  const hist = await demoHistory();
  const sh = await sharing();
  return {
    gc: gc ? 'forced' : 'unavailable (figures noisy)',
    'demo: root steps/s (no-op sink, median of 5 batches)': raw.stepsPerSec,
    'demo: root steps/s (JSON-serializing sink, median of 5 batches)': ser.stepsPerSec,
    'demo: events per root step': raw.eventsPerStep,
    'demo: JSON event bytes per root step': Math.round(ser.jsonBytesPerStep),
    'demo: history heap/step (bytes, all checkpoints kept)': Math.round(hist),
    ...sh,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await run();
  for (const [k, v] of Object.entries(figures))
    console.log(`${k}: ${typeof v === 'number' ? +v.toFixed(2) : v}`);
}
