// "The python the user meant": a `command` service whose program is a bare `python` or `python3`
// runs with the SDK's environment when scripts/setup-python.sh has made it (`.venv-py/` in the
// repository, or $STATEWIRE_VENV), so the README's services.json works from a plain `npm start`
// without activating anything. Without that venv the command runs as written, and when it then dies
// because the SDK (or one of its dependencies) is missing, `sdkHint` turns Python's ImportError into
// what to do about it. Any other program (a path to the reference's own venv, `uv run …`) is left alone.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '../../..');
const BARE = new Set(['python', 'python3']);

/** The SDK venv's interpreter, when it exists. */
export function sdkPython(env: NodeJS.ProcessEnv = process.env): string | null {
  const venv = env.STATEWIRE_VENV ? resolve(env.STATEWIRE_VENV) : join(REPO, '.venv-py');
  const py = join(venv, 'bin', 'python');
  return existsSync(py) ? py : null;
}

/** The argv to spawn: a bare python/python3 becomes the SDK venv's interpreter when there is one. */
export function resolvePythonCommand(
  command: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { argv: string[]; via: string | null } {
  const [first, ...rest] = command;
  if (first === undefined || isAbsolute(first) || !BARE.has(first)) return { argv: [...command], via: null };
  const py = sdkPython(env);
  return py ? { argv: [py, ...rest], via: py } : { argv: [...command], via: null };
}

const SETUP = 'bash scripts/setup-python.sh';

/**
 * What to tell the user when a bare-python service died on an import: the SDK is not installed for
 * that interpreter, and how to install it. Null when the output shows no such ImportError.
 */
export function sdkHint(command: readonly string[], output: readonly string[]): string | null {
  if (!BARE.has(command[0] ?? '')) return null;
  const missing = output
    .map((l) => /ModuleNotFoundError: No module named '([^']+)'/.exec(l)?.[1])
    .find((m) => m !== undefined);
  if (!missing) return null;
  return (
    `'${command[0]}' has no module '${missing}': the Python SDK is not installed. Run \`${SETUP}\` in ${REPO} ` +
    `(it makes .venv-py/ with statewire-nodes and its dependencies; Statewire then runs python/python3 ` +
    `commands with it), or give the full path of a python that has it`
  );
}
