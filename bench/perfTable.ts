// Writes the figures of bench/results/latest.json into docs/performance.md, between the markers
// `<!-- figures:start -->` / `<!-- figures:end -->` (the side-by-side table) and
// `<!-- batch:start -->` / `<!-- batch:end -->` (batch episodes/s by worker count), so the page
// always shows the latest run. Called by bench/run-all.ts; standalone: `npx tsx bench/perfTable.ts`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Figure } from './figures.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Results {
  machine: Record<string, unknown>;
  figures: Figure[];
  details?: Record<string, Record<string, unknown>>;
}

const num = (x: number | null): string => {
  if (x === null || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  return a >= 1000
    ? Math.round(x).toLocaleString('en-US')
    : a >= 10
      ? x.toFixed(1)
      : x.toFixed(a >= 1 ? 2 : 3);
};

function figureTable(figures: Figure[]): string {
  const rows = figures.map((f) => {
    const spread = (lo: number | null, hi: number | null) => (lo === null ? '' : ` (${num(lo)}–${num(hi)})`);
    return `| \`${f.name}\` | ${num(f.ours)}${spread(f.ours_min, f.ours_max)} | ${num(f.baseline)}${spread(f.baseline_min, f.baseline_max)} | ${f.unit} | ${num(f.ratio)} | ${f.goal} | ${f.met ? 'met' : '**not met**'} |`;
  });
  return [
    '| Figure | Statewire (min–max) | Baseline (min–max) | Unit | Ratio | Goal | |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function batchTable(d: Record<string, unknown> | undefined): string {
  if (!d) return '_(no batch figures in the latest run: `npm run bench -- batch`)_';
  const n = (k: string) => (typeof d[k] === 'number' ? num(d[k] as number) : '—');
  return [
    `Demo graph, step_budget ${d.batch_step_budget}, ${d.batch_episodes} episodes per batch; episodes/s from the batch start to its last row.`,
    '',
    '| Workers | Embedded (child processes, SQLite) | per worker | Distributed (BullMQ + PostgreSQL) | per worker |',
    '|---|---|---|---|---|',
    `| 1 | ${n('embedded_1_worker_eps')} (runs ${d.embedded_1_worker_eps_runs}) | ${n('embedded_1_worker_eps')} | ${n('distributed_1_worker_eps')} (runs ${d.distributed_1_worker_eps_runs}) | ${n('distributed_per_worker_eps_1')} |`,
    `| 2 | ${n('embedded_2_workers_eps')} | ${n('embedded_per_worker_eps_2')} | ${n('distributed_2_workers_eps')} | ${n('distributed_per_worker_eps_2')} |`,
    `| 4 | ${n('embedded_4_workers_eps')} | ${n('embedded_per_worker_eps_4')} | ${n('distributed_4_workers_eps')} | ${n('distributed_per_worker_eps_4')} |`,
    '',
    `Distributed ÷ embedded at 1 worker: **${n('distributed_vs_embedded_at_1_worker')}×**; with an fsync per commit (synchronous_commit=on): ${n('distributed_1_worker_eps_fsync_per_commit')} episodes/s, ${n('distributed_fsync_per_commit_vs_embedded_at_1_worker')}× embedded.`,
  ].join('\n');
}

function replaceBetween(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) return text;
  return `${text.slice(0, i + start.length)}\n${body}\n${text.slice(j)}`;
}

export function writePerformanceTables(
  resultsFile = join(root, 'bench/results/latest.json'),
  page = join(root, 'docs/performance.md'),
): boolean {
  if (!existsSync(resultsFile) || !existsSync(page)) return false;
  const r = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
  const m = r.machine;
  const machine = `Measured ${String(m.finished ?? '')
    .slice(0, 16)
    .replace(
      'T',
      ' ',
    )} UTC on ${m.cpus} × ${m.cpu_model}, ${m.memory_gb} GB, Node ${m.node}; load average at the end ${JSON.stringify(m.load_average_at_end)}.`;
  let text = readFileSync(page, 'utf8');
  text = replaceBetween(text, 'figures', `${machine}\n\n${figureTable(r.figures)}`);
  text = replaceBetween(text, 'batch', batchTable(r.details?.['batch.bench.ts']));
  writeFileSync(page, text);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  console.log(writePerformanceTables() ? 'docs/performance.md updated' : 'nothing to update');
