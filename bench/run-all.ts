// `npm run bench`: runs every bench/*.bench.ts in one process, one after another, and prints all
// figures together so ratios are measured side by side on the same (noisy) machine.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const results: Record<string, Record<string, number | string>> = {};
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as {
    run?: () => Promise<Record<string, number | string>>;
  };
  if (typeof mod.run !== 'function') {
    console.warn(`${file}: no run() export, skipped`);
    continue;
  }
  process.stdout.write(`running ${file} … `);
  const started = performance.now();
  results[file] = await mod.run();
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
}

console.log('\n# Benchmark results (one run, same machine)\n');
for (const [file, figures] of Object.entries(results)) {
  console.log(`## ${file}`);
  for (const [k, v] of Object.entries(figures))
    console.log(`  ${k}: ${typeof v === 'number' ? +v.toFixed(3) : v}`);
}
