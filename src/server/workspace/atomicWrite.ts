// Atomic file replacement: write a temp file beside the target, write it COMPLETELY (a write(2) may
// write fewer bytes than asked — on a full disk it does, and a short write renamed over the target
// once cost a whole graph), fsync it, rename it over the target, then fsync the folder so the rename
// itself survives a power loss. Any failure before the rename removes the temp file and leaves the
// target untouched. Temp files of a process killed mid-save are removed by `sweepOrphanTemps`.
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** `.<name>.<pid>.<8 hex>.tmp` — the only names `sweepOrphanTemps` ever deletes. */
export const TEMP_FILE = /^\.(.+)\.(\d+)\.([0-9a-f]{8})\.tmp$/;

export const tempNameFor = (path: string): string =>
  join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);

/** An error raised when write(2) keeps accepting zero bytes (treated like ENOSPC by callers). */
function shortWrite(written: number, total: number): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`short write: ${written} of ${total} bytes written`);
  err.code = 'ENOSPC';
  err.syscall = 'write';
  return err;
}

/** write(2) until every byte is down; throws (ENOSPC, EDQUOT, EIO…) instead of stopping short. */
export function writeFully(fd: number, data: Uint8Array): void {
  let off = 0;
  let stalls = 0;
  while (off < data.length) {
    const n = writeSync(fd, data, off, data.length - off);
    if (n > 0) {
      off += n;
      stalls = 0;
    } else if (++stalls > 3) throw shortWrite(off, data.length);
  }
}

/** fsync a folder so a rename in it is durable; file systems that cannot (EINVAL…) are skipped. */
function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EISDIR' && code !== 'EPERM') throw err;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `mode`: the new file's permission bits exactly (e.g. the replaced file's); default 0644 less umask. */
export function writeFileAtomic(path: string, text: string, mode?: number): void {
  const data = Buffer.from(text, 'utf8');
  const tmp = tempNameFor(path);
  let fd: number | undefined = openSync(tmp, 'wx', 0o644);
  try {
    if (mode !== undefined) fchmodSync(fd, mode);
    writeFully(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (err) {
    if (fd !== undefined)
      try {
        closeSync(fd);
      } catch {
        // closing a descriptor whose write failed may fail too; the unlink below still runs
      }
    try {
      unlinkSync(tmp);
    } catch {
      // already gone (or the rename happened): nothing to clean
    }
    throw err;
  }
  fsyncDir(dirname(path));
}

/**
 * Deletes temp files left by a save that never finished (the process was killed between open and
 * rename) anywhere under `root`. Only names matching TEMP_FILE are touched; symlinks and hidden
 * folders are not followed. A temp of another live process is kept unless it is older than
 * `staleMs` (a save takes milliseconds): our own pid cannot have one yet at startup, so a match
 * with it is a previous process's (pids are reused across container restarts).
 */
export function sweepOrphanTemps(root: string, staleMs = 60_000, now = Date.now()): string[] {
  const removed: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable folder: listing reports it; sweeping is best effort
    }
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.')) walk(abs);
        continue;
      }
      const m = e.isFile() ? TEMP_FILE.exec(e.name) : null;
      if (!m) continue;
      const pid = Number(m[2]);
      try {
        if (pid !== process.pid && isAlive(pid) && now - statSync(abs).mtimeMs < staleMs) continue;
        unlinkSync(abs);
        removed.push(abs);
      } catch {
        // vanished meanwhile, or not ours to delete: leave it
      }
    }
  };
  walk(root);
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
