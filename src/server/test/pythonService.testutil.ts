// The Python side of node-service tests: the SDK's venv (made by scripts/setup-python.sh, which is
// idempotent and fast once done) and a services file that starts the gridworld example service.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './serverProcess.testutil.ts';

export const GRIDWORLD_DIR = join(REPO, 'examples/services/gridworld_py');
export const PY_GRAPH_FILE = join(REPO, 'workspace/graphs/python_gridworld.json');

let python: string | undefined;

/** Path of the venv's python; sets the venv up on first use (minutes on a fresh machine). */
export function ensurePython(): string {
  if (python) return python;
  const r = spawnSync('bash', [join(REPO, 'scripts/setup-python.sh')], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (r.status !== 0) throw new Error(`scripts/setup-python.sh failed:\n${r.stderr}\n${r.stdout}`);
  python = r.stdout.trim().split('\n').pop()!;
  return python;
}

/** Writes `<dir>/services.json` starting the gridworld example with the venv's python. */
export function writeGridworldServices(dir: string, extra: Record<string, unknown> = {}): string {
  const file = join(dir, 'services.json');
  writeFileSync(
    file,
    JSON.stringify({
      services: [
        {
          name: 'gridworld',
          command: [ensurePython(), 'server.py', '--port', '{port}'],
          cwd: GRIDWORLD_DIR,
          startup_timeout_s: 120,
          ...extra,
        },
      ],
    }),
  );
  return file;
}
