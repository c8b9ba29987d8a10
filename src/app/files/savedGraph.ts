// What `GET /api/graphs/{id}` answered, read once for every caller (open, save, reload, drop a graph
// node): a graph, or a file that does not read as one. The server answers an unreadable file with
// an empty graph beside `_error` (the listing's shape); taking that empty graph for the file's content
// opened a typo'd file as an empty canvas whose save replaced it. Here `_error` always wins.
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { ApiError, errorCodeOf } from '../api/client.ts';
import { parseGraphInput, type Issue } from '../store/graphIo.ts';

/** A file on disk that does not read as a graph: why (each error, with line and column), and its text. */
export interface UnreadableFile {
  issues: Issue[];
  /** The file's text as the server read it ('' when only the errors are known, e.g. from a 409). */
  text: string;
  textTruncated: boolean;
  /** The version this describes: a replace sends it, so a file changed since is not replaced blind. */
  etag: string | null;
}

export type SavedGraphRead =
  | { kind: 'graph'; graph: GraphDef; warnings: Issue[]; etag: string | null }
  | { kind: 'unreadable'; file: UnreadableFile };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function issuesOf(raw: unknown, fallback: string): Issue[] {
  const list = Array.isArray(raw) ? raw.filter(isRecord) : [];
  const issues = list
    .filter((i) => typeof i.message === 'string')
    .map((i): Issue => ({
      code: typeof i.code === 'string' ? i.code : 'unreadable',
      severity: 'error',
      path: typeof i.path === 'string' ? i.path : '$',
      message: i.message as string,
      ...(typeof i.line === 'number' ? { line: i.line } : {}),
      ...(typeof i.column === 'number' ? { column: i.column } : {}),
    }));
  return issues.length > 0
    ? issues
    : [{ code: 'unreadable', severity: 'error', path: '$', message: fallback }];
}

export function readSavedGraph(raw: unknown): SavedGraphRead {
  const etag = isRecord(raw) && typeof raw._etag === 'string' ? raw._etag : null;
  if (isRecord(raw) && typeof raw._error === 'string') {
    const u = isRecord(raw._unreadable) ? raw._unreadable : {};
    return {
      kind: 'unreadable',
      file: {
        issues: issuesOf(u.issues, raw._error),
        text: typeof u.text === 'string' ? u.text : '',
        textTruncated: u.text_truncated === true,
        etag,
      },
    };
  }
  const r = parseGraphInput(raw);
  if (!r.ok) return { kind: 'unreadable', file: { issues: r.errors, text: '', textTruncated: false, etag } };
  return { kind: 'graph', graph: r.graph, warnings: r.warnings, etag };
}

/** The server's 409 `unreadable-file` (a save refused to replace such a file), as an UnreadableFile. */
export function unreadableRefusal(e: unknown): UnreadableFile | null {
  if (!(e instanceof ApiError) || errorCodeOf(e) !== 'unreadable-file') return null;
  const err = isRecord(e.body) && isRecord(e.body.error) ? e.body.error : {};
  return {
    issues: issuesOf(err.issues, typeof err.message === 'string' ? err.message : e.message),
    text: '',
    textTruncated: false,
    etag: typeof err.etag === 'string' ? err.etag : null,
  };
}

/** "line 2, column 27" (or the JSON path when the error has no place in the text). */
export function whereOf(issue: Issue): string {
  if (issue.line !== undefined)
    return `line ${issue.line}${issue.column !== undefined ? `, column ${issue.column}` : ''}`;
  return issue.path;
}
