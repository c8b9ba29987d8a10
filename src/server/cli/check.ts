// `statewire check FILE…`: prints every parse warning and validation issue of each file as
// `FILE: severity code path message` (or a JSON array with --json). Exit 0 when no file has an
// error, 1 when some issue is an error, 2 when a file cannot be read or parsed at all.
import { validate } from '../../domain/validate/graph.validate.ts';
import { hasErrors, type Issue } from '../../domain/validate/issues.ts';
import { GRAPH_TEST_SUFFIX, parseGraphTestText } from '../../domain/graphtest/graphTest.schema.ts';
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

export const CHECK_USAGE = `usage: statewire check [--json] FILE…
  Checks graph files: parse warnings (legacy traits), schema errors and validation issues.
  Graph tests (*.test.json, run by \`statewire test\`) are checked against the test file schema.
  --json   print the issues as a JSON array of {file, code, severity, path, message, …}
  exit 0 = no errors, 1 = some issue is an error, 2 = a file could not be read or parsed`;

export async function checkCommand(argv: string[]): Promise<number> {
  let values: { json?: boolean; help?: boolean };
  let files: string[];
  try {
    ({ values, positionals: files } = parseCliArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
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
        if (values.json) all.push({ file, ...i });
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
    const issues = [...loaded.warnings, ...validate(loaded.graph)];
    if (hasErrors(issues)) anyError = true;
    for (const i of issues) {
      if (values.json) all.push({ file, ...i });
      else process.stdout.write(`${issueLine(file, i)}\n`);
    }
  }
  if (values.json) process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
  return failedToLoad ? 2 : anyError ? 1 : 0;
}
