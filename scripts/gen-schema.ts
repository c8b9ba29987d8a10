// Generates public/schema/graph.schema.json from the zod schemas (zod 4 toJSONSchema).
// `--check` fails when the checked-in file is not what the schemas generate (run by `npm test`).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { z } from 'zod';
import { GraphDefSchema } from '../src/domain/graph.schema.ts';

const OUT = 'public/schema/graph.schema.json';

export function generateSchemaText(): string {
  const schema = z.toJSONSchema(GraphDefSchema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  const doc = {
    ...schema,
    $id: 'https://statewire.dev/schema/graph.schema.json',
    title: 'Statewire graph (reference-compatible GraphDefinition)',
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

const text = generateSchemaText();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUT, 'utf8');
  } catch {
    /* missing counts as stale */
  }
  if (current !== text) {
    console.error(`${OUT} is stale: run \`npm run schema:gen\` and commit the result.`);
    process.exit(1);
  }
  console.log(`${OUT} is current.`);
} else {
  mkdirSync('public/schema', { recursive: true });
  writeFileSync(OUT, text);
  console.log(`wrote ${OUT}`);
}
