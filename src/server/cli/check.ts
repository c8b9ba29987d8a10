// `statewire check FILE…`: prints every parse warning and validation issue of each file as
// `FILE: severity code path message` (or a JSON array with --json). Exit 0 when no file has an
// error, 1 when some issue is an error, 2 when a file cannot be read or parsed at all.
// A graph with node-service types is checked against the services' manifests (the workspace's
// services.json, `--services FILE`, `--service NAME=URL`; cliServices.ts), so e.g. an unwired
// required input of a service node is an error before any run.
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { validate } from '../../domain/validate/graph.validate.ts';
import { hasErrors, type Issue } from '../../domain/validate/issues.ts';
import { GRAPH_TEST_SUFFIX, parseGraphTestText } from '../../domain/graphtest/graphTest.schema.ts';
import { createRegistry, type NodeRegistry } from '../../engine/registry.ts';
import { allNodes } from '../services/serviceEvents.ts';
import { CliServicesPool } from './cliServices.ts';
import { issueLine, readGraphFile, readRegularFile } from './readGraphFile.ts';
import { parseCliArgs } from './cliArgs.ts';

/** A `*.test.json` file: its own schema's errors (with JSON paths), not the graph rules. */
async function checkGraphTestFile(file: string): Promise<{ issues: Issue[]; unreadable: boolean }> {
  let text: string;
  try {
    text = await readRegularFile(file);
  } catch (e) {
    const message = (e as Error).message;
    return { issues: [{ code: 'unreadable-file', severity: 'error', path: '$', message }], unreadable: true };
  }
  const r = parseGraphTestText(text);
  return { issues: r.ok ? [] : r.errors, unreadable: false };
}

export const CHECK_USAGE = `usage: statewire check [--json] [--service NAME=URL]… [--services FILE] FILE…
  Checks graph files: parse warnings (legacy traits), schema errors and validation issues.
  Graph tests (*.test.json, run by \`statewire test\`) are checked against the test file schema.
  Node-service types are checked against their services' manifests: the services of the file's
  workspace (services.json next to its graphs/ folder), or --services FILE, plus --service flags.
  --json              print the issues as a JSON array of {file, code, severity, path, message, …}
  --service NAME=URL  a running node service (repeatable)
  --services FILE     a services file instead of the workspace's services.json
  exit 0 = no errors, 1 = some issue is an error, 2 = a file could not be read or parsed`;

/**
 * The graph's issues against the built-ins plus the node services it needs (started once for all
 * files): a service that is not up is a warning saying why (its types are then not checked).
 */
async function graphIssues(
  graph: GraphDef,
  file: string,
  pool: CliServicesPool,
  registry: NodeRegistry,
): Promise<Issue[]> {
  const started = await pool.for(graph, file, registry);
  if (!started) return validate(graph);
  const nodes = allNodes(graph);
  await started.services.waitForStarting(nodes, (names) =>
    process.stderr.write(`waiting for service ${names.join(', ')} (starting)\n`),
  );
  const down = started.services.unavailable(nodes);
  return [
    ...validate(graph, registry.catalog()),
    ...(down
      ? [{ code: 'service-unavailable', severity: 'warning' as const, path: '$', message: down }]
      : []),
  ];
}

export async function checkCommand(argv: string[]): Promise<number> {
  let values: { json?: boolean; help?: boolean; service?: string[]; services?: string };
  let files: string[];
  try {
    ({ values, positionals: files } = parseCliArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        service: { type: 'string', multiple: true },
        services: { type: 'string' },
      },
    }));
  } catch (e) {
    process.stderr.write(`statewire check: ${(e as Error).message}\n${CHECK_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${CHECK_USAGE}\n`);
    return 0;
  }
  if (files.length === 0) {
    process.stderr.write(`statewire check: no FILE given\n${CHECK_USAGE}\n`);
    return 2;
  }
  const pool = new CliServicesPool({ flags: values.service ?? [], file: values.services }, (l) =>
    process.stderr.write(`${l}\n`),
  );
  try {
    return await checkFiles(files, values.json === true, pool);
  } finally {
    await pool.close();
  }
}

async function checkFiles(files: string[], json: boolean, pool: CliServicesPool): Promise<number> {
  // Built-ins, plus the node types of the services a graph needs (registered once, on first need).
  const registry = createRegistry();
  let failedToLoad = false;
  let anyError = false;
  const all: (Issue & { file: string })[] = [];
  for (const file of files) {
    // A graph test (`*.test.json`, see `statewire test`) beside the graphs is checked as a test file.
    if (file.endsWith(GRAPH_TEST_SUFFIX)) {
      const r = await checkGraphTestFile(file);
      if (r.unreadable) failedToLoad = true;
      if (r.issues.length) anyError = true;
      for (const i of r.issues)
        if (json) all.push({ file, ...i });
        else process.stdout.write(`${issueLine(file, i)}\n`);
      continue;
    }
    const loaded = await readGraphFile(file);
    if (!loaded.ok) {
      failedToLoad = true;
      process.stderr.write(`${loaded.line}\n`);
      all.push(...loaded.errors.map((i) => ({ file, ...i })));
      continue;
    }
    const issues = [...loaded.warnings, ...(await graphIssues(loaded.graph, file, pool, registry))];
    if (hasErrors(issues)) anyError = true;
    for (const i of issues) {
      if (json) all.push({ file, ...i });
      else process.stdout.write(`${issueLine(file, i)}\n`);
    }
  }
  if (json) process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
  return failedToLoad ? 2 : anyError ? 1 : 0;
}
