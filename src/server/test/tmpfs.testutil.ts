// A REAL full disk for fault tests: a small tmpfs mounted on a temp folder (needs root or
// CAP_SYS_ADMIN; CI runs as root), filled to the last byte by a filler file that can be shrunk to
// give space back. `mountTmpfs` says why when it cannot mount, so a test can report it visibly.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmpfs {
  dir: string;
  /** Unmounts (lazily if still busy) and removes the mount point. */
  unmount(): void;
}

export function mountTmpfs(sizeBytes: number): Tmpfs | { error: string } {
  const dir = mkdtempSync(join(tmpdir(), 'statewire-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0755`, 'tmpfs', dir], {
      stdio: 'pipe',
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const e = err as { stderr?: Buffer; message: string };
    return { error: (e.stderr?.toString().trim() || e.message).split('\n')[0] ?? 'mount failed' };
  }
  let mounted = true;
  const unmount = () => {
    if (!mounted) return;
    mounted = false;
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } catch {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, unmount };
}

/**
 * Why a tmpfs cannot be mounted here, or undefined when it can (probed by mounting one and
 * unmounting it at once). Call it when tests are collected; mount for real in `beforeAll`, so a
 * run that filters every test out (and so skips `afterAll`) leaves no mount behind.
 */
export function tmpfsUnavailable(): string | undefined {
  const probe = mountTmpfs(64 * 1024);
  if ('error' in probe) return probe.error;
  probe.unmount();
  return undefined;
}

export const freeBytes = (dir: string): number => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};

/** Writes `file` until the file system says ENOSPC; returns the bytes it took. */
export function fillDisk(file: string): number {
  const fd = openSync(file, 'a');
  const chunk = Buffer.alloc(64 * 1024, 0x78);
  let total = 0;
  try {
    for (;;) {
      let n: number;
      try {
        n = writeSync(fd, chunk, 0, chunk.length);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw err;
      }
      total += n;
      if (n < chunk.length) {
        // The last partial chunk: keep going one page at a time until the very last byte is taken.
        const page = Buffer.alloc(4096, 0x78);
        for (;;) {
          try {
            total += writeSync(fd, page, 0, page.length);
          } catch {
            return total;
          }
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return total;
}

/** Gives `bytes` back by shrinking the filler (or all of it with `bytes` = Infinity). */
export function freeSpace(file: string, bytes: number, filled: number): number {
  const left = Number.isFinite(bytes) ? Math.max(0, filled - bytes) : 0;
  truncateSync(file, left);
  return left;
}
