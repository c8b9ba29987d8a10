// `npm run test:faults`: the reliability suite alone — every `*.faults.test.ts` (vitest: real full
// disk on a tmpfs, kill -9 during saves and runs, socket drops…) and the browser fault specs that
// exist (cross-origin attacks, a save on a full disk through the UI). The same files also run inside
// `npm test`; this script is for running them on their own. Closing line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

/** Browser specs that belong to the reliability suite (each is added by the fix it proves). */
const BROWSER_SPECS = ['e2e/attacks.spec.ts', 'e2e/disk-full.spec.ts'].filter((f) => existsSync(f));

mkdirSync('test-results', { recursive: true });
let passed = 0;
let failed = 0;
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status === 0;

rmSync('test-results/faults-vitest.json', { force: true });
const unitOk = run('npx', [
  'vitest',
  'run',
  'faults.test',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/faults-vitest.json',
]);
try {
  const r = JSON.parse(readFileSync('test-results/faults-vitest.json', 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  if (!unitOk && (r.numFailedTests ?? 0) === 0) failed++;
} catch {
  failed++;
}

if (BROWSER_SPECS.length > 0) {
  if (run('node', ['scripts/ensure-chromium.mjs']) && run('npx', ['vite', 'build', '--logLevel', 'warn'])) {
    rmSync('test-results/faults-playwright.json', { force: true });
    const ok = run('npx', ['playwright', 'test', ...BROWSER_SPECS, '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/faults-playwright.json',
    });
    try {
      const s = JSON.parse(readFileSync('test-results/faults-playwright.json', 'utf8')).stats ?? {};
      passed += (s.expected ?? 0) + (s.flaky ?? 0);
      failed += s.unexpected ?? 0;
      if (!ok && !s.unexpected) failed++;
    } catch {
      failed++;
    }
  } else failed++;
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
