#!/usr/bin/env node
// The folder graph of src/server: which folder imports which, and any loops.
//
// Reads the relative imports (static `import`/`export … from`, dynamic `import('…')`) of every
// non-test .ts file under src/server, maps both ends to their top folder (`app.ts` and the other
// files directly in src/server are the folder `.`), prints one `from -> to` line per edge with the
// number of imports behind it, then every cycle among the folders. Exit 1 when there is a cycle.
// Tests (`*.test.ts`, `*.testutil.ts`, `*.suite.ts`, `test/`) are left out: they assemble whole servers
// by design. Usage: `node scripts/server-folder-graph.mjs [--json]`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'server');

const isTest = (rel) =>
  /\.(test|testutil|suite)\.ts$/.test(rel) || rel.startsWith(`test${sep}`) || rel === 'test';

function listTs(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTs(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The top folder of a path inside src/server ('.' for files directly in it), or null outside. */
function folderOf(file) {
  const rel = relative(root, file);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  return parts.length === 1 ? '.' : parts[0];
}

const importRe =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** edges: Map<from, Map<to, string[] (file → import)>> */
export function folderGraph() {
  const edges = new Map();
  for (const file of listTs(root)) {
    if (isTest(relative(root, file))) continue;
    const from = folderOf(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith('.')) continue;
      const to = folderOf(resolve(dirname(file), spec));
      if (to === null || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const targets = edges.get(from);
      if (!targets.has(to)) targets.set(to, []);
      targets.get(to).push(`${relative(root, file)} → ${spec}`);
    }
  }
  return edges;
}

/** Every elementary cycle, found once each (Johnson-style search from each node, smallest first). */
export function cycles(edges) {
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((t) => [...t.keys()])])];
  nodes.sort();
  const found = [];
  for (let i = 0; i < nodes.length; i++) {
    const start = nodes[i];
    const allowed = new Set(nodes.slice(i));
    const path = [start];
    const onPath = new Set([start]);
    const walk = (node) => {
      for (const next of [...(edges.get(node)?.keys() ?? [])].sort()) {
        if (!allowed.has(next)) continue;
        if (next === start) found.push([...path, start]);
        else if (!onPath.has(next)) {
          path.push(next);
          onPath.add(next);
          walk(next);
          onPath.delete(next);
          path.pop();
        }
      }
    };
    walk(start);
  }
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const edges = folderGraph();
  const loops = cycles(edges);
  if (process.argv.includes('--json')) {
    const json = {};
    for (const [from, targets] of edges) json[from] = Object.fromEntries(targets);
    console.log(JSON.stringify({ edges: json, cycles: loops }, null, 2));
  } else {
    console.log('src/server folder graph (non-test files; count = imports)');
    for (const from of [...edges.keys()].sort()) {
      const targets = edges.get(from);
      for (const to of [...targets.keys()].sort()) {
        console.log(`  ${from} -> ${to}  (${targets.get(to).length})`);
      }
    }
    if (loops.length === 0) console.log('no cycles');
    else {
      console.log(`${loops.length} cycle(s):`);
      for (const loop of loops) {
        console.log(`  ${loop.join(' -> ')}`);
        for (let k = 0; k + 1 < loop.length; k++) {
          for (const via of edges.get(loop[k]).get(loop[k + 1])) console.log(`      ${via}`);
        }
      }
    }
  }
  process.exit(loops.length === 0 ? 0 : 1);
}
