// `statewire diff A.json B.json [--json]`: what changed structurally from graph file A to graph file
// B (domain/graph/graph.diff.ts) — nodes, edges, containers and slots, config values, routing —
// and both files' versions (the content hash of their canonical save form, as runs and batches
// record it). Exit 0 same structure, 1 different (as diff(1)), 2 a file does not load.
import { parseFlags } from './cliArgs.ts';
import { diffGraphs, graphDiffLines } from '../../domain/graph/graph.diff.ts';
import { shortVersion } from '../../domain/graph/graphVersion.ts';
import { graphVersion } from '../runs/graphVersion.ts';
import { readGraphFile } from './readGraphFile.ts';

export const DIFF_USAGE = `usage: statewire diff A.json B.json [--json]
  What changed from graph A to graph B: nodes added / removed / changed (type, label, config values),
  edges, containers and slots (reducer, value type, lifetime, config), access grants, hooks, routing
  (edge conditions and effects, features), the graph's own fields; moved positions are counted.
  --json   print {a: {file, version}, b: {file, version}, same, changes: [...], moved}
  exit 0 = same structure, 1 = different, 2 = a file does not load`;

const out = (l: string) => void process.stdout.write(`${l}\n`);
const err = (l: string) => void process.stderr.write(`${l}\n`);

export async function diffCommand(argv: string[]): Promise<number> {
  const parsed = parseFlags(argv, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (typeof parsed === 'string') {
    err(`statewire diff: ${parsed}\n${DIFF_USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    out(DIFF_USAGE);
    return 0;
  }
  const files = parsed.positionals;
  if (files.length !== 2) {
    err(`statewire diff: expected two graph files, got ${files.length}\n${DIFF_USAGE}`);
    return 2;
  }
  const [a, b] = await Promise.all(files.map((f) => readGraphFile(f)));
  for (const g of [a!, b!])
    if (!g.ok) {
      err(g.line);
      return 2;
    }
  if (!a!.ok || !b!.ok) return 2;
  const diff = diffGraphs(a!.graph, b!.graph);
  const va = graphVersion(a!.graph);
  const vb = graphVersion(b!.graph);
  if (parsed.values.json)
    out(JSON.stringify({ a: { file: a!.file, version: va }, b: { file: b!.file, version: vb }, ...diff }));
  else {
    out(`A ${a!.file} version ${shortVersion(va)}`);
    out(`B ${b!.file} version ${shortVersion(vb)}`);
    for (const l of graphDiffLines(diff)) out(l);
  }
  return diff.same ? 0 : 1;
}
