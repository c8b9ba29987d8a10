// `npm run demo:python`: sets up the Python SDK's venv (scripts/setup-python.sh, idempotent), then
// runs `npm start` with the gridworld example service (examples/services/gridworld_py) listed as a
// managed node service. The venv's python comes first on PATH, so the services file says `python3`.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const setup = spawnSync('bash', [join(root, 'scripts/setup-python.sh')], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
});
if (setup.status !== 0) {
  console.error('demo:python: the Python setup failed (see above); `npm start` alone works without Python.');
  process.exit(setup.status ?? 1);
}
const python = setup.stdout.trim().split('\n').pop();
const env = { ...process.env, PATH: `${dirname(python)}:${process.env.PATH ?? ''}` };
const services = join(root, 'examples/services/gridworld_py/services.json');
console.log('demo:python: open the editor, then Files › python_gridworld, and press Play.');
const child = spawn(
  'node',
  [join(root, 'scripts/start.mjs'), '--services', services, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env,
    cwd: root,
  },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
