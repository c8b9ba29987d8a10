// Storage errors as API errors: a full disk is 507 whatever layer says it (errno or SQLite), and a
// system error never carries Node's message (which names absolute paths) into the answer.
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDiskFull, storageApiError } from './storageErrors.ts';

/** A real system error from Node (with its path-bearing message), not a hand-made object. */
function realError(fn: () => unknown): NodeJS.ErrnoException {
  try {
    fn();
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
  throw new Error('expected a failure');
}

describe('storageApiError', () => {
  it('ENOSPC, EDQUOT and SQLITE_FULL are 507 disk-full', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'SQLITE_FULL']) {
      const e = Object.assign(new Error('x'), { code, syscall: 'write' });
      expect(isDiskFull(e)).toBe(true);
      expect(storageApiError(e, 'graph "a" was not saved')).toMatchObject({
        status: 507,
        code: 'disk-full',
        message: expect.stringContaining(`the disk is full: graph "a" was not saved (${code})`),
      });
    }
  });

  it('real system errors become clear 4xx/5xx without the absolute path Node put in the message', () => {
    const dir = mkdtempSync(join(tmpdir(), 'statewire-errs-'));
    try {
      mkdirSync(join(dir, 'folder.json'));
      const eisdir = realError(() => openSync(join(dir, 'folder.json'), 'w'));
      expect(eisdir.message).toContain(dir); // what we must not pass on
      const api = storageApiError(eisdir, 'graph "folder" was not saved');
      expect(api).toMatchObject({ status: 400, code: 'not-a-file' });
      expect(api?.message).not.toContain(dir);

      const enoent = realError(() => openSync(join(dir, 'missing', 'x.json'), 'r'));
      const other = storageApiError(enoent, 'the request could not be completed');
      expect(other).toMatchObject({ status: 500, code: 'storage-failed' });
      expect(other?.message).toBe('the request could not be completed: open failed (ENOENT)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('other SQLite errors are 500 storage-failed naming the code; non-storage errors are not mapped', () => {
    expect(
      storageApiError(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' })),
    ).toMatchObject({
      status: 500,
      code: 'storage-failed',
    });
    expect(storageApiError(new TypeError('x is undefined'))).toBeUndefined();
    expect(storageApiError(Object.assign(new Error('bad'), { code: 'FST_ERR_BAD_URL' }))).toBeUndefined();
  });
});
