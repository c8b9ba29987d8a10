// Graph format benchmark: a generated 2,000-node reference-style graph (2,200 edges, 21 containers,
// 600 grants), timing parse (text → GraphDef), validate and format (GraphDef → canonical text).
// Median of several runs after a warm-up, in milliseconds. `npx tsx bench/format.bench.ts`.
import { pathToFileURL } from 'node:url';
import { generateLargeGraph } from '../src/domain/graph/fixtures/largeGraph.ts';
import { formatGraph } from '../src/domain/graph/graph.format.ts';
import { parseGraphText } from '../src/domain/graph/graph.parse.ts';
import { validate } from '../src/domain/validate/graph.validate.ts';

const RUNS = 9;

function median(fn: () => void): number {
  fn(); // warm-up: JIT and caches
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function run(): Promise<Record<string, number | string>> {
  const graph = generateLargeGraph(2000);
  const text = formatGraph(graph);
  const parsed = parseGraphText(text);
  if (!parsed.ok) throw new Error('generated graph does not parse');
  return {
    nodes: graph.nodes.length,
    edges: graph.edges.length,
    containers: graph.containers.length,
    grants: graph.access_grants.length,
    file_kb: Math.round(text.length / 1024),
    parse_ms: median(() => void parseGraphText(text)),
    validate_ms: median(() => void validate(parsed.graph)),
    format_ms: median(() => void formatGraph(parsed.graph)),
    parse_validate_format_ms: median(() => {
      const r = parseGraphText(text);
      if (r.ok) {
        validate(r.graph);
        formatGraph(r.graph);
      }
    }),
    runs: `median of ${RUNS} after 1 warm-up`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await run();
  for (const [k, v] of Object.entries(figures))
    console.log(`${k}: ${typeof v === 'number' ? +v.toFixed(2) : v}`);
}
