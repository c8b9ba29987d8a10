// Runs the real `statewire` binary (bin/statewire.js) as a user would, in a folder of the test's.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './serverProcess.testutil.ts';

export const BIN = join(REPO, 'bin/statewire.js');

export interface CliRun {
  /** Exit code (-1 when killed by a signal). */
  code: number;
  stdout: string;
  stderr: string;
}

export function runStatewire(args: string[], cwd: string): Promise<CliRun> {
  return new Promise((done) =>
    execFile(process.execPath, [BIN, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    ),
  );
}
