// `statewire compare BATCH_A BATCH_B [--metric NAME] [--json] [--csv FILE] [--summary-csv FILE]
// [--seed S] [--resamples R] [--all] [--workspace DIR]`: batch A (the baseline) against batch B,
// episode by episode (evaluation.ts, domain/batch/compare.ts). The text report lists the first pairs
// (regressions first) with the first step where the two runs' states differ; --json prints the
// whole comparison as the REST route answers it. Exit 0 compared, 2 bad arguments or unknown batch.
import { writeFile } from 'node:fs/promises';
import { MAX_RESAMPLES } from '../../domain/batch/bootstrap.ts';
import { comparisonSummaryCsv, comparisonToCsv } from '../../domain/batch/evaluationCsv.ts';
import type { PairRow } from '../../domain/batch/compare.ts';
import type { FirstDifference } from '../../domain/debug/firstDiff.ts';
import { compareStoredBatches, firstStoredDifference } from '../batch/evaluation.ts';
import { argsOrExit, intFlag, parseFlags } from './cliArgs.ts';
import { comparisonLines } from './evaluationReport.ts';
import { WORKSPACE_HELP, withEvaluationLog } from './evaluationLog.ts';

export const COMPARE_USAGE = `usage: statewire compare BATCH_A BATCH_B [--metric NAME] [--json] [--csv FILE] [--summary-csv FILE]
                        [--seed S] [--resamples R] [--all] [--workspace DIR]
  Compares batch B (the candidate) with batch A (the baseline), episode by episode: episodes are
  paired by seed; per metric the mean of each side and the mean difference B − A with a paired
  bootstrap interval (95%); the success rate with wins / losses / ties; the pairs, regressions
  (success → failure) first, then by the metric's difference ascending, each with the first step
  where the two runs' states differ; unpaired episodes; the graph changes between the versions.
  --metric NAME       order pairs by this metric (default: score, else reward, else the first by name)
  --json              print the whole comparison as JSON (as GET /api/batches/compare answers)
  --csv FILE          write the pair table as CSV (one row per pair, then unpaired episodes)
  --summary-csv FILE  write the per-metric summary (+ success) as CSV
  --seed S            bootstrap seed (default 1): the same seed gives the same intervals
  --resamples R       bootstrap resamples (100..${MAX_RESAMPLES}, default 2000)
  --all               list every pair (default: the first 20)
  ${WORKSPACE_HELP}
  exit 0 = compared, 2 = bad arguments or unknown batch`;

const SHOWN = 20;
const out = (l: string) => void process.stdout.write(`${l}\n`);

interface Args {
  a: string;
  b: string;
  metric?: string;
  json: boolean;
  csv?: string;
  summaryCsv?: string;
  seed?: number;
  resamples?: number;
  all: boolean;
  workspace?: string;
}

/** An optional integer flag in [min, max]. */
const intArg = (name: string, text: string | undefined, min: number, max: number) =>
  text === undefined ? undefined : intFlag(name, text, min, max);

function parse(argv: string[]): Args | string | 'help' {
  const parsed = parseFlags(argv, {
    metric: { type: 'string' },
    json: { type: 'boolean' },
    csv: { type: 'string' },
    'summary-csv': { type: 'string' },
    seed: { type: 'string' },
    resamples: { type: 'string' },
    all: { type: 'boolean' },
    workspace: { type: 'string', short: 'w' },
    help: { type: 'boolean', short: 'h' },
  });
  if (typeof parsed === 'string') return parsed;
  const { values: v, positionals: p } = parsed;
  if (v.help) return 'help';
  if (p.length !== 2)
    return p.length < 2 ? 'expected two batch ids: BATCH_A BATCH_B' : `unexpected argument ${p[2]}`;
  const seed = intArg('seed', v.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const resamples = intArg('resamples', v.resamples, 100, MAX_RESAMPLES);
  for (const x of [seed, resamples]) if (typeof x === 'string') return x;
  if (v.csv === '') return '--csv needs a file';
  if (v['summary-csv'] === '') return '--summary-csv needs a file';
  return {
    a: p[0]!,
    b: p[1]!,
    metric: v.metric,
    json: v.json ?? false,
    csv: v.csv,
    summaryCsv: v['summary-csv'],
    seed: seed as number | undefined,
    resamples: resamples as number | undefined,
    all: v.all ?? false,
    workspace: v.workspace,
  };
}

export async function compareCommand(argv: string[]): Promise<number> {
  const args = argsOrExit('compare', COMPARE_USAGE, parse(argv));
  if (typeof args === 'number') return args;
  return withEvaluationLog('compare', args.workspace, async (log) => {
    const c = await compareStoredBatches(log, args.a, args.b, {
      metric: args.metric,
      seed: args.seed,
      resamples: args.resamples,
    });
    if (args.csv) await writeFile(args.csv, comparisonToCsv(c));
    if (args.summaryCsv) await writeFile(args.summaryCsv, comparisonSummaryCsv(c));
    if (args.json) {
      out(JSON.stringify(c));
      return 0;
    }
    const shown = args.all ? c.pairs : c.pairs.slice(0, SHOWN);
    const firstDiffs = new Map<PairRow, FirstDifference | null>();
    for (const p of shown) firstDiffs.set(p, (await firstStoredDifference(log, p.run_a, p.run_b)).first);
    for (const l of comparisonLines(c, shown, firstDiffs)) out(l);
    return 0;
  });
}
