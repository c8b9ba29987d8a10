// Engine benchmarks (one process, same machine, side by side):
// - history.bytes_per_step.demo: retained heap per step of the engine's in-memory history (every
//   checkpoint kept) over a 10,000-step demo run, next to a deep copy of the state per step (what a
//   history that copies the state, like the reference's checkpoint(), retains);
// - history.bytes_per_step.map100k: the same for a ~100 KB map slot that changes one cell per step
//   (testkit paintedMap); the deep-copy side runs fewer steps (10,000 copies would need ~4 GB) and
//   is reported per step;
// - details: demo throughput (root steps/s, no-op and JSON-serializing sinks).
// Heap figures use process.memoryUsage().heapUsed after a forced GC (exposed at runtime when node
// was not started with --expose-gc). Standalone: `npx tsx bench/engine.bench.ts`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { parseGraph } from '../src/domain/graph/graph.parse.ts';
import type { GraphDef } from '../src/domain/graph/graph.schema.ts';
import { createRun } from '../src/engine/createRun.ts';
import type { NodeRegistry } from '../src/engine/registry.ts';
import { paintedMap } from '../src/engine/testkit.ts';
import { figure, measureAB, median, type BenchResult } from './figures.ts';

const REPS = 3;
const DEMO_STEPS = 10_000;
const MAP_STEPS = 10_000;
const MAP_BASELINE_STEPS = 300;

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

function demo(steps?: number): GraphDef {
  const text = readFileSync(new URL('../workspace/graphs/grid_navigator.json', import.meta.url), 'utf8');
  const r = parseGraph(JSON.parse(text));
  if (!r.ok) throw new Error('demo graph does not parse');
  return steps === undefined ? r.graph : { ...r.graph, step_budget: steps };
}

async function drive(run: { stepOnce(): Promise<{ done: boolean }> }): Promise<void> {
  while (!(await run.stepOnce()).done);
}

interface Subject {
  graph: GraphDef;
  registry?: NodeRegistry;
}

/** Retained heap per step of the engine's own history: every checkpoint kept (structural sharing). */
async function sharedHistory(s: Subject): Promise<number> {
  const h0 = heap();
  const run = createRun(s.graph, { runId: 'h', registry: s.registry }, () => undefined);
  await drive(run);
  const h1 = heap();
  const steps = run.checkpointSteps().length;
  if (steps < 2) throw new Error('the run kept no history');
  return (h1 - h0) / steps;
}

/** Baseline: the engine keeps one checkpoint; the history is a deep copy of the state per step. */
async function deepCopyHistory(s: Subject): Promise<number> {
  const h0 = heap();
  const run = createRun(s.graph, { runId: 'b', registry: s.registry, retention: 1 }, () => undefined);
  const copies: unknown[] = [];
  for (;;) {
    const { done } = await run.stepOnce();
    const cp = run.checkpoint(run.step);
    if (cp) copies.push(structuredClone(cp.state));
    if (done) break;
  }
  const h1 = heap();
  return (h1 - h0) / copies.length;
}

async function throughput(serialize: boolean): Promise<number> {
  const g = demo();
  const sink = serialize ? (e: unknown) => void JSON.stringify(e) : () => undefined;
  for (let i = 0; i < 3; i++) await drive(createRun(g, { runId: 'warm' }, sink)); // JIT warm-up
  // The machine is shared and noisy: time 5 batches of 5 runs (200 steps each), report the median.
  const rates: number[] = [];
  for (let b = 0; b < 5; b++) {
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) await drive(createRun(g, { runId: `t${b}.${i}` }, sink));
    rates.push((5 * 200) / ((performance.now() - t0) / 1000));
  }
  return median(rates);
}

type Side = 'shared' | 'deep';
type SubjectName = 'demo' | 'map100k';

function subject(name: SubjectName, side: Side): Subject {
  if (name === 'demo') return { graph: demo(DEMO_STEPS) };
  const m = paintedMap(side === 'shared' ? MAP_STEPS : MAP_BASELINE_STEPS);
  return { graph: m.graph, registry: m.registry };
}

/**
 * One sample in a fresh process: heap figures taken in one process drift with whatever the
 * previous sample left (code, caches, a GC that has not returned pages), so each side starts clean.
 */
function sample(name: SubjectName, side: Side): Promise<number> {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), 'sample', name, side],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  const v = Number(out.trim().split('\n').at(-1));
  if (!Number.isFinite(v)) throw new Error(`sample ${name}/${side} printed ${out}`);
  return Promise.resolve(v);
}

async function sampleHere(name: SubjectName, side: Side): Promise<number> {
  const s = subject(name, side);
  return side === 'shared' ? sharedHistory(s) : deepCopyHistory(s);
}

export async function run(): Promise<BenchResult> {
  const d = await measureAB(
    REPS,
    () => sample('demo', 'shared'),
    () => sample('demo', 'deep'),
  );
  const m = await measureAB(
    REPS,
    () => sample('map100k', 'shared'),
    () => sample('map100k', 'deep'),
  );
  const map = paintedMap(1);
  return {
    gc: gc ? 'forced' : 'unavailable (figures noisy)',
    'demo: root steps/s (no-op sink, median of 5 batches)': await throughput(false),
    'demo: root steps/s (JSON-serializing sink, median of 5 batches)': await throughput(true),
    'map100k: map slot JSON bytes': JSON.stringify(map.initial).length,
    figures: [
      figure(
        'history.bytes_per_step.demo',
        'bytes',
        { on: 'ratio', op: '<=', value: 0.2 },
        d.ours,
        d.baseline,
        `retained heap per step, demo graph, ${DEMO_STEPS} steps: every checkpoint kept vs a deep copy of the state per step`,
      ),
      figure(
        'history.bytes_per_step.map100k',
        'bytes',
        { on: 'ratio', op: '<=', value: 0.02 },
        m.ours,
        m.baseline,
        `retained heap per step, ~100 KB map changing one cell per step: ${MAP_STEPS} shared checkpoints vs ${MAP_BASELINE_STEPS} deep copies`,
      ),
    ],
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === 'sample') {
    console.log(await sampleHere(process.argv[3] as SubjectName, process.argv[4] as Side));
    process.exit(0);
  }
  const result = await run();
  console.log(JSON.stringify(result, null, 2));
}
