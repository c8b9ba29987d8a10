// No import circles inside src/engine: a file's imports name what it builds on, so a circle means two
// files each need the other and neither can be read (or moved) alone. Type-only imports count too —
// they tie files together for a reader as much as value imports do. The parser is a regex over
// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`, all this codebase writes.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENGINE = dirname(fileURLToPath(import.meta.url));
const SPECIFIER = /\b(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g;

/** The non-test .ts files under `dir`, as absolute paths. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The relative imports in `text` that resolve to a file in `within`, as absolute paths. */
function importsOf(file: string, text: string, within: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2]!;
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    if (within.has(target) && !out.includes(target)) out.push(target);
  }
  return out;
}

/**
 * The import circles a depth-first walk of `graph` meets — at least one whenever there is any — each
 * as the files from where it starts back to that file.
 */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const at = path.indexOf(file);
    if (at >= 0) {
      cycles.push([...path.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    path.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return cycles;
}

describe('src/engine imports', () => {
  it('form no circle (type-only imports included)', () => {
    const files = sources(ENGINE);
    const within = new Set(files);
    const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(f, 'utf8'), within)]));
    // The walk saw the engine's real import graph, not an empty one (a broken regex would pass).
    expect(graph.get(join(ENGINE, 'createRun.ts'))).toContain(join(ENGINE, 'executor.ts'));
    const named = findCycles(graph).map((c) => c.map((f) => relative(ENGINE, f)).join(' → '));
    expect(named).toEqual([]);
  });

  it('finds a circle through type-only, multi-line and re-export imports', () => {
    const within = new Set(['/e/a.ts', '/e/b.ts', '/e/c.ts', '/e/d.ts']);
    const graph = new Map([
      ['/e/a.ts', importsOf('/e/a.ts', "import type { B } from './b.ts';", within)],
      ['/e/b.ts', importsOf('/e/b.ts', "import {\n  C,\n  type D,\n} from './c.ts';", within)],
      ['/e/c.ts', importsOf('/e/c.ts', "export { A } from './a.ts';\nimport './d.ts';", within)],
      ['/e/d.ts', importsOf('/e/d.ts', "import { readFileSync } from 'node:fs';", within)],
    ]);
    expect(graph.get('/e/c.ts')).toEqual(['/e/a.ts', '/e/d.ts']);
    expect(graph.get('/e/d.ts')).toEqual([]);
    expect(findCycles(graph)).toEqual([['/e/a.ts', '/e/b.ts', '/e/c.ts', '/e/a.ts']]);
    graph.set('/e/c.ts', []);
    expect(findCycles(graph)).toEqual([]);
  });
});
