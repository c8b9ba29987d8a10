// Cross-origin attacks as real pages in Chromium (issue 8, item 2). A live run streams on a real
// `statewire serve`; hostile pages on other loopback origins (127.0.0.2 and localhost on another
// port) and a DNS-rebinding page (evil.test resolved to 127.0.0.1 by the browser, so its requests
// are same-origin to the browser but carry Host: evil.test) try to stop/pause/restore the run, write
// or delete graphs and read run values. Afterwards the run is still running, every graph file is
// byte-identical, and no page read a value. The app itself keeps working under its strict CSP, and
// with a token the page at `/?token=…` keeps it and uses it for REST and socket.io.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import config from '../playwright.config.ts';
import { startHostileSite, runAttacks, type AttackReport } from './hostile.ts';
import { expect, fixturePath, test } from './fixtures.ts';
import { startServer, type RunningServer } from './server.ts';

// The package does not export its browser bundle: find it beside the package's main file.
const SIO_BUNDLE = join(
  dirname(createRequire(import.meta.url).resolve('socket.io-client')),
  '../../dist/socket.io.min.js',
);
const DEMO = readFileSync(join(import.meta.dirname, '../workspace/graphs/grid_navigator.json'), 'utf8');
const TOKEN = 'e2e-token-0123456789abcdef';

test.describe.configure({ mode: 'serial' });

let srv: RunningServer;
let tokened: RunningServer; // started with --token, for the last test
let runId = '';
let graphsBefore: Record<string, string> = {};

const graphFiles = (workspace: string) =>
  Object.fromEntries(
    readdirSync(join(workspace, 'graphs'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, readFileSync(join(workspace, 'graphs', f), 'utf8')]),
  );
const status = async () =>
  (await (await fetch(`${srv.url}/api/navigate/run/status`)).json()) as {
    status: string;
    step: number;
    execution_id: string;
  };

test.beforeAll(async () => {
  // Both servers start at once: a server start costs seconds on a busy 2-core machine.
  [srv, tokened] = await Promise.all([
    startServer(fixturePath('workspace')),
    startServer(fixturePath('workspace'), ['--token', TOKEN]),
  ]);
  const graph = { ...(JSON.parse(DEMO) as object), step_budget: 100_000 };
  const res = await fetch(`${srv.url}/api/navigate/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loop_definition: graph, step_delay_ms: 100 }),
  });
  runId = ((await res.json()) as { execution_id: string }).execution_id;
  await expect.poll(async () => (await status()).step).toBeGreaterThan(2);
  await fetch(`${srv.url}/api/graphs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // Saved under its own name ("Grid Navigator" → grid_navigator.json): the page that opens it is
    // the editor of the running graph, so it follows the run.
    body: JSON.stringify(JSON.parse(DEMO) as object),
  });
  graphsBefore = graphFiles(srv.workspace);
  expect(Object.keys(graphsBefore)).toContain('grid_navigator.json');
});
test.afterAll(async () => {
  await Promise.all([srv?.stop(), tokened?.stop()]);
});

/** The run was not touched: same run, still running, still advancing; no graph file changed. */
async function expectNothingChanged() {
  const before = await status();
  expect(before).toMatchObject({ status: 'running', execution_id: runId });
  await expect.poll(async () => (await status()).step).toBeGreaterThan(before.step);
  expect((await status()).execution_id).toBe(runId);
  expect(graphFiles(srv.workspace)).toEqual(graphsBefore);
}

function expectNothingRead(report: AttackReport) {
  for (const s of [report.socketIoWebsocket, report.socketIoPolling, report.rawWebSocket])
    expect(s, JSON.stringify(report)).toMatchObject({ connected: false, events: 0 });
}

/** CSP violations and console errors a page reports (registered before any script of the page). */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) console.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return async () => [
    ...console,
    ...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)),
  ];
}

test('the app works under its CSP: loads, follows the live run over socket.io, no violation', async ({
  page,
}) => {
  const violations = await watchCsp(page);
  const res = await page.goto(`${srv.url}/?graph=grid_navigator`);
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(res?.headers()['x-content-type-options']).toBe('nosniff');
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  const counter = page.getByTestId('run-step-counter');
  const first = await counter.textContent();
  await expect(counter).not.toHaveText(first ?? '');
  await page.getByTestId('drawer-tab-timeline').click();
  expect(await violations()).toEqual([]);
});

for (const [label, bind, host] of [
  ['127.0.0.2', '127.0.0.2', '127.0.0.2'],
  ['localhost on another port', '127.0.0.1', 'localhost'],
] as const) {
  test(`a page on ${label} can neither change nor read anything`, async ({ page }) => {
    const site = await startHostileSite(bind, host);
    try {
      await page.goto(site.origin);
      await page.addScriptTag({ path: SIO_BUNDLE });
      const report = await page.evaluate(runAttacks, { target: srv.url, runId });
      expectNothingRead(report);
      for (const [what, got] of Object.entries(report.reads))
        expect(got, `${what}: ${got}`).toMatch(/^failed: /); // CORS never granted: nothing readable
      await expectNothingChanged();
    } finally {
      await site.close();
    }
  });
}

test('DNS rebinding: a page on evil.test resolving to 127.0.0.1 gets 403 for everything', async () => {
  const browser = await chromium.launch({
    ...config.use?.launchOptions,
    args: [
      ...(config.use?.launchOptions?.args ?? []),
      '--host-resolver-rules=MAP evil.test 127.0.0.1',
      // Chromium's Local Network Access check would stop this page itself (its document did not come
      // from loopback). Other browsers have no such check, so turn it off: the server must hold alone.
      '--disable-features=LocalNetworkAccessChecks',
    ],
  });
  try {
    const page = await browser.newPage();
    const port = new URL(srv.url).port;
    const evil = `http://evil.test:${port}`;
    // The attacker's first answer (before the rebind) is its own page; every later request of that
    // page goes to evil.test:PORT, which now resolves to the Statewire server.
    await page.route(`${evil}/`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>rebound</title><p>hi</p>' }),
    );
    await page.goto(`${evil}/`);
    await page.addScriptTag({ path: SIO_BUNDLE });
    const report = await page.evaluate(runAttacks, { target: '', runId });
    expectNothingRead(report);
    // Same-origin to the browser, so the answers ARE readable: each is the server's refusal.
    for (const [what, got] of Object.entries(report.reads))
      expect(got, what).toMatch(/^403 \{"error":\{"code":"forbidden-host"/);
    // The app shell itself is refused too under the foreign name.
    const shell = await page.evaluate(async () => (await fetch('/index.html')).status);
    expect(shell).toBe(403);
    await expectNothingChanged();
  } finally {
    await browser.close();
  }
});

test('with --token the page at /?token=… keeps it: REST and socket.io work, a page without it gets 401', async ({
  browser,
}) => {
  writeFileSync(join(tokened.workspace, 'graphs', 'grid_navigator.json'), DEMO);
  const page = await browser.newPage();
  const violations = await watchCsp(page);
  await page.goto(`${tokened.url}/?token=${TOKEN}&graph=grid_navigator`);
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
  // The graph came from GET /api/graphs/grid_navigator, which needs the token.
  await expect(page.getByTestId('container-graph_state')).toBeVisible();
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  expect(new URL(page.url()).searchParams.get('graph')).toBe('grid_navigator');
  await page.getByTestId('run-play').click(); // POST + socket.io auth
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', /running|done/);
  await expect
    .poll(async () => Number((await page.getByTestId('run-step-counter').textContent())?.replace(/\D+/g, '')))
    .toBeGreaterThan(0);
  expect(await violations()).toEqual([]);

  const stranger = await browser.newPage(); // another context: no stored token
  await stranger.goto(`${tokened.url}/`);
  const got = await stranger.evaluate(async () => (await fetch('/api/graphs')).status);
  expect(got).toBe(401);
  await stranger.close();
  await page.close();
});
