// Reads and parses one graph file for the CLI. Every failure (unreadable file, invalid JSON, schema
// violation) becomes one line saying what and where, so the commands can print it and exit 2.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { parseGraphText } from '../../domain/graph/graph.parse.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { Issue } from '../../domain/validate/issues.ts';

export type LoadedGraph =
  | { ok: true; file: string; text: string; graph: GraphDef; warnings: Issue[] }
  | { ok: false; file: string; line: string; errors: Issue[] };

function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory, not a graph file';
    case 'ENOTREG':
      return err.message;
    default:
      return err.message ?? String(e);
  }
}

/**
 * Reads a regular file as UTF-8. Opened non-blocking and checked with fstat on the open descriptor
 * (no stat-then-open race): a FIFO, socket or device would otherwise block forever or never end.
 */
export async function readRegularFile(file: string): Promise<string> {
  const fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (!st.isFile()) {
      const kind = st.isFIFO() ? 'a FIFO (named pipe)' : st.isSocket() ? 'a socket' : 'a device';
      throw Object.assign(new Error(`is ${kind}, not a regular file`), { code: 'ENOTREG' });
    }
    return await fh.readFile({ encoding: 'utf8' });
  } finally {
    await fh.close();
  }
}

export async function readGraphFile(file: string): Promise<LoadedGraph> {
  let text: string;
  try {
    text = await readRegularFile(file);
  } catch (e) {
    const line = `${file}: cannot read file: ${describeFsError(e)}`;
    return {
      ok: false,
      file,
      line,
      errors: [{ code: 'unreadable-file', severity: 'error', path: '$', message: line }],
    };
  }
  const r = parseGraphText(text, file);
  if (r.ok) return { ok: true, file, text, graph: r.graph, warnings: r.warnings };
  const first = r.errors[0]!;
  const more =
    r.errors.length > 1 ? ` (and ${r.errors.length - 1} more error${r.errors.length > 2 ? 's' : ''})` : '';
  // Invalid JSON already names file:line:column in its message; schema errors name the JSON path.
  const line =
    first.code === 'invalid-json'
      ? `${first.message}${more}`
      : `${file}: ${first.path}: ${first.message}${more}`;
  return { ok: false, file, line, errors: r.errors };
}

/** `FILE: severity code path message` — the line format of `statewire check`. */
export function issueLine(file: string, i: Issue): string {
  return `${file}: ${i.severity} ${i.code} ${i.path} ${i.message}`;
}
