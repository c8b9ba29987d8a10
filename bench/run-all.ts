// `npm run bench`: runs every bench/*.bench.ts in one process, one after another, and prints all
// figures together so ratios are measured side by side on the same (noisy) machine. The
// side-by-side figures (see bench/figures.ts) go to bench/results/latest.json; a partial run
// (`npm run bench -- canvas`) merges its figures into the existing file instead of dropping others.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, release } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import * as prettier from 'prettier';
import type { BenchResult, Figure } from './figures.ts';
import { writePerformanceTables } from './perfTable.ts';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

/** The order of the figures in the results file and the performance table. */
export const FIGURE_ORDER = [
  'canvas.first_render.1000',
  'canvas.first_render.3000',
  'canvas.first_render.10000',
  'canvas.pan_fitted.1000',
  'canvas.pan_fitted.3000',
  'canvas.pan_fitted.10000',
  'canvas.zoom_fitted.1000',
  'canvas.zoom_fitted.3000',
  'canvas.zoom_fitted.10000',
  'canvas.pan.1000',
  'canvas.pan.3000',
  'canvas.pan.10000',
  'canvas.zoom.1000',
  'canvas.zoom.3000',
  'canvas.zoom.10000',
  'canvas.dashed_vs_solid',
  'live.events_per_s',
  'live.latency_p50',
  'live.latency_p99',
  'live.latency_p50_saturated',
  'live.latency_p99_saturated',
  'history.bytes_per_step.demo',
  'history.bytes_per_step.map100k',
  'db.bytes_per_step.demo',
  'restore.p95.10k',
  'services.call_overhead',
  'services.call_overhead_recorded',
  'batch.durable_vs_engine',
  'batch.distributed_vs_embedded',
  'runs.list_100k.first_page',
  'runs.list_100k.by_graph',
  'runs.list_100k.by_status',
  'relay.latency_p50',
  'relay.latency_p99',
];

const started = new Date().toISOString();
const results: Record<string, BenchResult> = {};
const figures: Figure[] = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as {
    run?: () => Promise<BenchResult>;
  };
  if (typeof mod.run !== 'function') {
    console.warn(`${file}: no run() export, skipped`);
    continue;
  }
  process.stdout.write(`running ${file} … `);
  const t0 = performance.now();
  const result = await mod.run();
  console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const { figures: own, ...detail } = result;
  results[file] = detail;
  figures.push(...(own ?? []));
}

const fmt = (v: unknown) => (typeof v === 'number' ? String(+v.toFixed(3)) : JSON.stringify(v));
console.log('\n# Benchmark results (one run, same machine)\n');
for (const [file, detail] of Object.entries(results)) {
  console.log(`## ${file}`);
  for (const [k, v] of Object.entries(detail)) console.log(`  ${k}: ${fmt(v)}`);
}

if (files.length > 0) {
  const out = join(here, 'results', 'latest.json');
  mkdirSync(dirname(out), { recursive: true });
  const before =
    only.length > 0 && existsSync(out)
      ? (JSON.parse(readFileSync(out, 'utf8')) as {
          figures?: Figure[];
          details?: Record<string, BenchResult>;
        })
      : {};
  const byName = new Map((before.figures ?? []).map((f) => [f.name, f]));
  for (const f of figures) byName.set(f.name, f);
  const rank = (n: string) => (FIGURE_ORDER.includes(n) ? FIGURE_ORDER.indexOf(n) : FIGURE_ORDER.length);
  const merged = [...byName.values()].sort((a, b) => rank(a.name) - rank(b.name));
  const cpu = cpus();
  const machine = {
    cpus: cpu.length,
    cpu_model: cpu[0]?.model ?? 'unknown',
    memory_gb: +(totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    os: `${process.platform} ${release()}`,
    load_average_at_end: loadavg().map((x) => +x.toFixed(2)),
    started,
    finished: new Date().toISOString(),
    benches: files,
  };
  // Each bench's own detail figures (e.g. batch episodes/s per worker count), for docs/performance.md.
  const details = { ...before.details, ...results };
  writeFileSync(out, JSON.stringify({ machine, figures: merged, details }, null, 2) + '\n');
  console.log(`\n# Side-by-side figures → ${out}\n`);
  for (const f of merged)
    console.log(
      `  ${f.met ? 'met ' : 'MISS'} ${f.name}: ours ${fmt(f.ours)} ${f.unit}, baseline ${fmt(f.baseline)}, ratio ${fmt(f.ratio)} (goal ${f.goal})`,
    );
}
if (files.length > 0 && writePerformanceTables()) console.log('\ndocs/performance.md tables updated');
// Both files are committed, and CI checks the formatting of the whole tree: write them as prettier would.
if (files.length > 0)
  for (const file of [join(here, 'results', 'latest.json'), join(here, '..', 'docs', 'performance.md')]) {
    if (!existsSync(file)) continue;
    const options = (await prettier.resolveConfig(file)) ?? {};
    writeFileSync(file, await prettier.format(readFileSync(file, 'utf8'), { ...options, filepath: file }));
  }
