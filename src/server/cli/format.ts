// `statewire format FILE`: prints the reference's canonical save form to stdout, or with --write
// rewrites the file(s) in place atomically (temp file in the same folder, then rename), so a crash
// never leaves a half-written graph. Parse warnings go to stderr; unreadable or invalid → exit 2.
import { stat } from 'node:fs/promises';
import { formatGraph } from '../../domain/graph/graph.format.ts';
import { writeFileAtomic as writeFileAtomicSync } from '../workspace/atomicWrite.ts';
import { issueLine, readGraphFile } from './readGraphFile.ts';
import { parseCliArgs } from './cliArgs.ts';

export const FORMAT_USAGE = `usage: statewire format [--write] FILE…
  Prints the canonical form of a graph file (key order, omitted defaults, 2-space indentation).
  --write   rewrite each FILE in place (atomically) instead of printing; several FILEs allowed
  exit 0 = done, 2 = a file could not be read, parsed or written`;

/**
 * Rewrites `file` atomically, keeping its permission bits: the server's writer (temp file written in
 * full, fsync, rename, fsync of the folder), so a full disk or a crash never leaves a cut graph.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  let mode: number | undefined;
  try {
    mode = (await stat(file)).mode & 0o777;
  } catch {
    /* new file: default mode */
  }
  writeFileAtomicSync(file, text, mode);
}

export async function formatCommand(argv: string[]): Promise<number> {
  let values: { write?: boolean; help?: boolean };
  let files: string[];
  try {
    ({ values, positionals: files } = parseCliArgs({
      args: argv,
      allowPositionals: true,
      options: { write: { type: 'boolean', short: 'w' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (e) {
    process.stderr.write(`statewire format: ${(e as Error).message}\n${FORMAT_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${FORMAT_USAGE}\n`);
    return 0;
  }
  if (files.length === 0 || (files.length > 1 && !values.write)) {
    process.stderr.write(
      `statewire format: ${files.length === 0 ? 'no FILE given' : 'several FILEs need --write'}\n${FORMAT_USAGE}\n`,
    );
    return 2;
  }
  let code = 0;
  for (const file of files) {
    const loaded = await readGraphFile(file);
    if (!loaded.ok) {
      process.stderr.write(`${loaded.line}\n`);
      code = 2;
      continue;
    }
    for (const w of loaded.warnings) process.stderr.write(`${issueLine(file, w)}\n`);
    const text = formatGraph(loaded.graph);
    if (!values.write) {
      process.stdout.write(text);
      continue;
    }
    if (text === loaded.text) continue; // already canonical: leave the file (and its mtime) alone
    try {
      await writeFileAtomic(file, text);
      process.stderr.write(`${file}: formatted\n`);
    } catch (e) {
      process.stderr.write(`${file}: cannot write file: ${(e as Error).message}\n`);
      code = 2;
    }
  }
  return code;
}
