// Canonical text of a graph as the domain formats it, for comparing saved files with fixtures
// independently of how the server indents or orders keys.
import { writeFileSync, mkdirSync } from 'node:fs';
import { formatGraph } from '../src/domain/graph/graph.format.ts';
import { parseGraph } from '../src/domain/graph/graph.parse.ts';

export function canonical(value: unknown): string {
  const r = parseGraph(value);
  if (!r.ok) throw new Error(`not a graph: ${r.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
  return formatGraph(r.graph);
}

/** Writes the actual text next to the test results, so a mismatch can be inspected. */
export function keepActual(name: string, text: string): void {
  mkdirSync('test-results', { recursive: true });
  writeFileSync(`test-results/${name}`, text);
}
