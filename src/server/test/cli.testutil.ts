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

/** `env`: variables set (or, as undefined, removed) on top of this process's environment. */
export function runStatewire(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  const childEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  return new Promise((done) =>
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, env: childEnv, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) =>
        done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    ),
  );
}
