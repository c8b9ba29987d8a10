// Storage failures (file system and SQLite) as API errors. A full disk is 507 `disk-full` wherever
// it happens (graph save, run start, a run's commit); other write errors are a clear 4xx/5xx that
// names the operation and the errno but never an absolute path (Node's messages carry the path).
import { isPgUnavailable } from '../db/pgErrors.ts';
import { ApiError } from './errors.ts';

const DISK_FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT']);

interface SystemLikeError {
  code?: unknown;
  syscall?: unknown;
  errno?: unknown;
  message?: unknown;
}

/** The error's `code` when it is a Node system error or a better-sqlite3 SqliteError. */
function codeOf(err: unknown): string | undefined {
  const code = (err as SystemLikeError | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** ENOSPC/EDQUOT from the file system, SQLITE_FULL from SQLite ("database or disk is full"). */
export function isDiskFull(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && (DISK_FULL_ERRNO.has(code) || code === 'SQLITE_FULL');
}

/** A Node system error (has an errno code and a syscall): its message would name absolute paths. */
function isSystemError(err: unknown): boolean {
  const e = err as SystemLikeError | null;
  return typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code) && typeof e.syscall === 'string';
}

/**
 * `what` says what could not be done ("graph \"a/b\" was not saved"); the message adds why and what
 * to do. Returns undefined for errors that are not about storage.
 */
export function storageApiError(
  err: unknown,
  what = 'the request could not be completed',
): ApiError | undefined {
  if (err instanceof ApiError) return err;
  // PostgreSQL (distributed mode) restarting or gone: try again shortly, nothing was changed.
  if (isPgUnavailable(err))
    return new ApiError(
      503,
      'database-unavailable',
      `the PostgreSQL run log is unreachable: ${what}; retry once it is back (${(err as Error).message})`,
    );
  const code = codeOf(err);
  if (isDiskFull(err))
    return new ApiError(
      507,
      'disk-full',
      `the disk is full: ${what} (${code}). Nothing on disk was changed; free some space and try again.`,
    );
  if (code?.startsWith('SQLITE_'))
    return new ApiError(500, 'storage-failed', `the run database failed: ${what} (${code})`);
  if (!isSystemError(err) || code === undefined) return undefined;
  const syscall = String((err as SystemLikeError).syscall);
  switch (code) {
    case 'EISDIR':
      return new ApiError(400, 'not-a-file', `${what}: the target is a folder, not a graph file`);
    case 'ENOTDIR':
      return new ApiError(400, 'not-a-folder', `${what}: a part of the path is a file, not a folder`);
    case 'ENAMETOOLONG':
      return new ApiError(400, 'name-too-long', `${what}: the file name is too long`);
    case 'EACCES':
    case 'EPERM':
      return new ApiError(500, 'permission-denied', `${what}: the server may not write there (${code})`);
    case 'EROFS':
      return new ApiError(500, 'read-only', `${what}: the workspace is on a read-only file system`);
    case 'EMFILE':
    case 'ENFILE':
      return new ApiError(503, 'busy', `${what}: too many open files on the server; try again`);
    default:
      return new ApiError(500, 'storage-failed', `${what}: ${syscall} failed (${code})`);
  }
}
