// The startup sweep deletes only what a killed save can leave (`.<name>.<pid>.<hex>.tmp`), anywhere
// under the graphs folder, and never a live process's save in progress; writeFileAtomic leaves no
// temp file behind, also when it fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepOrphanTemps, TEMP_FILE, tempNameFor, writeFileAtomic } from './atomicWrite.ts';

let root: string;
let outside: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'statewire-sweep-'));
  outside = mkdtempSync(join(tmpdir(), 'statewire-sweep-out-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const touch = (rel: string, ageMs = 0) => {
  const p = join(root, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, 'partial');
  if (ageMs > 0) {
    const t = (Date.now() - ageMs) / 1000;
    utimesSync(p, t, t);
  }
  return p;
};

describe('sweepOrphanTemps', () => {
  it('removes temps of dead processes and of our own pid, recursively; keeps everything else', async () => {
    const dead = await new Promise<number>((resolve) => {
      const p = spawn(process.execPath, ['-e', '0']);
      p.once('exit', () => resolve(p.pid!));
    });
    const orphan = touch(`.a.json.${dead}.0123abcd.tmp`);
    const nested = touch(`team/sub/.b.json.${dead}.deadbeef.tmp`);
    const ownPid = touch(`.c.json.${process.pid}.00000000.tmp`);
    const keep = [
      touch('a.json'),
      touch('.hidden_note.tmp'), // not the pattern
      touch(`.d.json.${dead}.XYZ.tmp`), // not 8 hex
      touch(`.hidden/.e.json.${dead}.0123abcd.tmp`), // hidden folders are not graph folders
    ];
    writeFileSync(join(outside, `.f.json.${dead}.0123abcd.tmp`), 'x');
    symlinkSync(outside, join(root, 'linked')); // never followed
    const removed = sweepOrphanTemps(root).sort();
    expect(removed).toEqual([orphan, ownPid, nested].sort());
    for (const p of keep) expect(existsSync(p)).toBe(true);
    expect(readdirSync(outside)).toHaveLength(1);
  });

  it("keeps a live process's fresh temp (a save in progress) but removes a stale one", () => {
    const live = process.ppid; // alive for the whole test
    const fresh = touch(`.g.json.${live}.0123abcd.tmp`);
    const stale = touch(`.h.json.${live}.0123abcd.tmp`, 10 * 60_000);
    expect(sweepOrphanTemps(root)).toEqual([stale]);
    expect(existsSync(fresh)).toBe(true);
  });
});

describe('writeFileAtomic', () => {
  it('writes the whole text, names its temp so the sweep recognises it, and leaves no temp', () => {
    const target = join(root, 'g.json');
    const text = `${'é'.repeat(300_000)}\n`;
    writeFileAtomic(target, text);
    expect(readFileSync(target, 'utf8')).toBe(text);
    expect(readdirSync(root)).toEqual(['g.json']);
    expect(TEMP_FILE.test(tempNameFor(target).split('/').pop()!)).toBe(true);
  });

  it('a failed rename (target is a folder) leaves the folder as it was and no temp', () => {
    const target = join(root, 'x.json');
    mkdirSync(target);
    expect(() => writeFileAtomic(target, 'new')).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(root)).toEqual(['x.json']);
  });
});
