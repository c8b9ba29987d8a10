// `statewire query BATCH 'CONDITION' [--json] [--csv FILE] [--limit N] [--workspace DIR]`: every
// (episode, step) of a stored batch where a condition of the breakpoint grammar holds
// (`graph_state.step_count >= 25`, `memory.trail length> 5`, `write memory.scratch by policy`,
// `clear graph_state.last_obs`), read from the stored logs — nothing is run again (evaluation.ts,
// domain/batch/query.ts). Exit 0 answered (hits or none), 2 bad condition, arguments or batch.
import { writeFile } from 'node:fs/promises';
import { queryToCsv } from '../../domain/batch/evaluationCsv.ts';
import { queryStoredBatch } from '../batch/evaluation.ts';
import { argsOrExit, intFlag, parseFlags } from './cliArgs.ts';
import { WORKSPACE_HELP, withEvaluationLog } from './evaluationLog.ts';
import { queryLines } from './evaluationReport.ts';

export const QUERY_USAGE = `usage: statewire query BATCH 'CONDITION' [--json] [--csv FILE] [--limit N] [--workspace DIR]
  Every (episode, step) of BATCH where CONDITION holds, from the stored logs (no episode runs again).
  CONDITION is the breakpoint grammar:
    container.slot[.path] OP value   OP: == != < <= > >= contains length>   (the step's state;
                                     a keyed slot: any partition)
    [write] container.slot [by NODE] the step wrote the slot (by that node)
    clear container.slot             the step cleared the slot (or a partition)
  --json              print {batch_id, query, episodes, episodes_hit, hits: [...]}
  --csv FILE          write the hits as CSV (batch_id, episode, seed, run_id, step, keys, nodes, value)
  --limit N           hits listed in the text report (default 50)
  ${WORKSPACE_HELP}
  exit 0 = answered, 2 = bad condition, arguments or unknown batch`;

const out = (l: string) => void process.stdout.write(`${l}\n`);

interface Args {
  batch: string;
  condition: string;
  json: boolean;
  csv?: string;
  limit: number;
  workspace?: string;
}

function parse(argv: string[]): Args | string | 'help' {
  const parsed = parseFlags(argv, {
    json: { type: 'boolean' },
    csv: { type: 'string' },
    limit: { type: 'string' },
    workspace: { type: 'string', short: 'w' },
    help: { type: 'boolean', short: 'h' },
  });
  if (typeof parsed === 'string') return parsed;
  const { values: v, positionals: p } = parsed;
  if (v.help) return 'help';
  if (p.length !== 2) return p.length < 2 ? "expected BATCH 'CONDITION'" : `unexpected argument ${p[2]}`;
  const limit = intFlag('limit', v.limit, 0, 1_000_000, 50);
  if (typeof limit === 'string') return limit;
  if (v.csv === '') return '--csv needs a file';
  return { batch: p[0]!, condition: p[1]!, json: v.json ?? false, csv: v.csv, limit, workspace: v.workspace };
}

export async function queryCommand(argv: string[]): Promise<number> {
  const args = argsOrExit('query', QUERY_USAGE, parse(argv));
  if (typeof args === 'number') return args;
  return withEvaluationLog('query', args.workspace, async (log) => {
    const started = performance.now();
    const r = await queryStoredBatch(log, args.batch, args.condition);
    const elapsed = performance.now() - started;
    if (args.csv) await writeFile(args.csv, queryToCsv(r.hits));
    if (args.json) out(JSON.stringify(r));
    else for (const l of queryLines(r, args.limit, elapsed)) out(l);
    return 0;
  });
}
