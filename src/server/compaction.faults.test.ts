// kill -9 during compaction: a real child process packs a finished run's blobs and pages (one
// transaction per chunk) and is SIGKILLed after a varying number of chunks, mid-way through the next
// one. After each kill the database passes integrity_check and every read path returns exactly
// what it returned before compaction; the next compaction resumes from there and finishes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from './db/database.ts';
import { readEverything, writeVariedRun } from './db/compaction.testutil.ts';
import { RunStore } from './db/runStore.ts';

const STEPS = 30;
const CHILD = join(import.meta.dirname, 'db', 'compactionChild.testutil.ts');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sw-compact-kill-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the compacting child on `path`; kills it (SIGKILL) once it reported `chunks` chunks. */
function compactUntilKilled(path: string, chunks: number): Promise<{ killed: boolean; seen: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = 0;
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      seen += c.toString().split('.').length - 1;
      if (seen >= chunks && child.exitCode === null) child.kill('SIGKILL');
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ killed: true, seen });
      else if (code === 0) resolve({ killed: false, seen });
      else reject(new Error(`compaction child failed (${code}): ${err}`));
    });
  });
}

function check(path: string, expected: Record<string, unknown>): void {
  const db = openDatabase(path);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(readEverything(new RunStore(db), 'r', STEPS)).toEqual(expected);
  } finally {
    closeDatabase(db);
  }
}

describe('kill -9 during compaction', () => {
  it('leaves a readable database with the same answers after every kill, and the next run finishes', async () => {
    const path = join(dir, 'runs.db');
    const db = openDatabase(path);
    writeVariedRun(new RunStore(db), 'r', STEPS);
    const expected = readEverything(new RunStore(db), 'r', STEPS);
    closeDatabase(db);

    let kills = 0;
    for (const chunks of [1, 4, 9, 17]) {
      const r = await compactUntilKilled(path, chunks);
      if (r.killed) kills++;
      check(path, expected);
      if (!r.killed) break;
    }
    expect(kills).toBeGreaterThan(1);
    // Resume to the end.
    const last = await compactUntilKilled(path, Infinity);
    expect(last.killed).toBe(false);
    check(path, expected);
    const after = openDatabase(path);
    try {
      expect((after.prepare('SELECT COUNT(*) AS n FROM blobs').get() as { n: number }).n).toBe(1);
      expect(
        (
          after.prepare("SELECT COUNT(*) AS n FROM event_pages WHERE substr(data, 1, 1) != x'ff'").get() as {
            n: number;
          }
        ).n,
      ).toBe(0);
    } finally {
      closeDatabase(after);
    }
  }, 120_000);
});
