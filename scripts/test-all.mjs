// `npm test`: typecheck, lint, JSON-Schema-current check, unit tests, graph tests (`statewire test`),
// the Python SDK's pytest suite,
// browser tests — in that order,
// all of them even when one fails — then one closing line `N passed, N failed` for CI.
// Static checks count as one test each; vitest and Playwright counts come from their JSON reports.
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, rmSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
let passed = 0;
let failed = 0;
const failures = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n▶ ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

function check(label, cmd, args) {
  if (run(label, cmd, args)) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

function countReport(label, file, ok) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const c = label === 'unit' ? countVitest(report) : countPlaywright(report);
    passed += c.passed;
    failed += c.failed;
    if (c.failed > 0 || (!ok && c.failed === 0)) failures.push(label);
    if (!ok && c.failed === 0) failed++; // the runner failed outside any test (e.g. a suite that did not load)
  } catch {
    failed++;
    failures.push(`${label} (no report)`);
  }
}

/**
 * A JUnit XML report (pytest's, `statewire test`'s): the sum over its `<testsuite tests= failures=
 * errors= skipped=>` elements. A skipped test counts as failed (here it means a missing dependency).
 */
function countJunit(label, file, ok) {
  try {
    const xml = readFileSync(file, 'utf8');
    const suites = [...xml.matchAll(/<testsuite\b([^>]*)>/g)].map((m) => m[1]);
    if (suites.length === 0) throw new Error('no testsuite');
    const sum = (name) =>
      suites.reduce((n, a) => n + Number(new RegExp(`\\b${name}="(\\d+)"`).exec(a)?.[1] ?? 0), 0);
    const [tests, bad, errors, skipped] = ['tests', 'failures', 'errors', 'skipped'].map(sum);
    passed += tests - bad - errors - skipped;
    failed += bad + errors + skipped;
    if (bad + errors + skipped > 0 || !ok) failures.push(label);
    if (!ok && bad + errors === 0) failed++;
  } catch {
    failed++;
    failures.push(`${label} (no report)`);
  }
}

function countVitest(r) {
  return {
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0),
  };
}

function countPlaywright(r) {
  const s = r.stats ?? {};
  return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0 };
}

const npx = 'npx';
check('typecheck', npx, ['tsc', '--noEmit', '-p', 'tsconfig.json']);
check('lint', npx, ['eslint', '.', '--max-warnings=0']);
check('format', npx, ['prettier', '--check', '.', '--log-level', 'warn']);
check('json-schema-current', npx, ['tsx', 'scripts/gen-schema.ts', '--check']);

rmSync('test-results/vitest.json', { force: true });
const unitOk = run('unit', npx, [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/vitest.json',
]);
countReport('unit', 'test-results/vitest.json', unitOk);

// The graph tests that guard the demo's memory behaviour (`statewire test`, workspace/graphs/*.test.json).
rmSync('test-results/graph-tests.xml', { force: true });
const graphTestsOk = run('graph tests', 'node', [
  'bin/statewire.js',
  'test',
  '--junit',
  'test-results/graph-tests.xml',
]);
countJunit('graph tests', 'test-results/graph-tests.xml', graphTestsOk);

// The Python SDK's own suite (python/tests, real uvicorn servers) in the venv that
// scripts/setup-python.sh makes (pip as configured here, else Debian's python3-* packages).
const py = spawnSync('bash', ['scripts/setup-python.sh'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
});
const python = py.status === 0 ? py.stdout.trim().split('\n').pop() : undefined;
if (python) {
  rmSync('test-results/pytest.xml', { force: true });
  const pyOk = run('python', python, [
    '-m',
    'pytest',
    '-q',
    'python/tests',
    '--junitxml=test-results/pytest.xml',
  ]);
  countJunit('python', 'test-results/pytest.xml', pyOk);
} else {
  failed++;
  failures.push('python setup');
}

if (
  run('chromium', 'node', ['scripts/ensure-chromium.mjs']) &&
  run('build', npx, ['vite', 'build', '--logLevel', 'warn'])
) {
  rmSync('test-results/playwright.json', { force: true });
  const e2eOk = run('e2e', npx, ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/playwright.json',
  });
  countReport('e2e', 'test-results/playwright.json', e2eOk);
} else {
  failed++;
  failures.push('e2e setup (chromium or build)');
}

if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
