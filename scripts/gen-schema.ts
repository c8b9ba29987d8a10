// Generates the JSON Schemas from the zod schemas (zod 4 toJSONSchema):
// - public/schema/graph.schema.json — the graph format (GraphDef);
// - public/schema/protocol.schema.json — every live event envelope `{type, runId, seq, ts, data}`
//   (socket.io, the run log, `statewire run --json`), one branch per event type, `run_result` included.
// `--check` fails when a checked-in file is not what the schemas generate (run by `npm test`).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { z } from 'zod';
import { GraphDefSchema } from '../src/domain/graph/graph.schema.ts';
import { EVENT_DATA_SCHEMAS, EVENT_TYPES, EventEnvelopeSchema } from '../src/domain/protocol/protocol.ts';

const OPTIONS = { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' } as const;

export function generateSchemaText(): string {
  const doc = {
    ...z.toJSONSchema(GraphDefSchema, OPTIONS),
    $id: 'https://statewire.dev/schema/graph.schema.json',
    title: 'Statewire graph (reference-compatible GraphDefinition)',
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

export function generateProtocolSchemaText(): string {
  const envelopes = EVENT_TYPES.map((type) =>
    EventEnvelopeSchema.extend({ type: z.literal(type), data: EVENT_DATA_SCHEMAS[type] }),
  );
  const doc = {
    ...z.toJSONSchema(z.union(envelopes), OPTIONS),
    $id: 'https://statewire.dev/schema/protocol.schema.json',
    title: 'Statewire live event (socket.io, run log, statewire run --json)',
    description:
      'One event envelope {type, runId, seq, ts, data}; data depends on type (src/domain/protocol/protocol.ts). ' +
      'A run stream ends with one run_result event.',
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

const FILES: Array<[string, string]> = [
  ['public/schema/graph.schema.json', generateSchemaText()],
  ['public/schema/protocol.schema.json', generateProtocolSchemaText()],
];
if (process.argv.includes('--check')) {
  let stale = false;
  for (const [out, text] of FILES) {
    let current = '';
    try {
      current = readFileSync(out, 'utf8');
    } catch {
      /* missing counts as stale */
    }
    if (current !== text) {
      console.error(`${out} is stale: run \`npm run schema:gen\` and commit the result.`);
      stale = true;
    } else console.log(`${out} is current.`);
  }
  if (stale) process.exit(1);
} else {
  mkdirSync('public/schema', { recursive: true });
  for (const [out, text] of FILES) {
    writeFileSync(out, text);
    console.log(`wrote ${out}`);
  }
}
