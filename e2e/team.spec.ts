// A team server in Chromium (issue 31): two real `statewire serve` instances, A (started with
// `--user Alice`) and B (`--user Bob`), in distributed mode on a real PostgreSQL and a real Redis
// started here. A graph saved on A is in B's Graphs list; a run started on A is listed in B's Runs
// menu, opened on B by its id and followed live to its end there; and two people with the same graph
// open, one on each instance, see each other in the top bar — and Bob's chip goes when he leaves.
import { readFileSync } from 'node:fs';
import { test, expect, type Browser, type Page } from '@playwright/test';
import { startPostgres, type PgServer } from '../src/server/test/pgServer.ts';
import { startRedis, type RedisServer } from '../src/server/test/redisServer.ts';
import { demoGraph } from '../src/server/test/serverProcess.testutil.ts';
import { fixturePath } from './fixtures.ts';
import { startServer, type RunningServer } from './server.ts';

let redis: RedisServer;
let pg: PgServer;
let a: RunningServer;
let b: RunningServer;

const SMOKE = JSON.parse(readFileSync(fixturePath('workspace/graphs/smoke_demo.json'), 'utf8')) as {
  name: string;
};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  const env = { STATEWIRE_REDIS_URL: redis.url, STATEWIRE_DATABASE_URL: pg.url };
  // One after the other: the first one migrates the schema.
  a = await startServer(fixturePath('workspace'), ['--user', 'Alice'], { env });
  b = await startServer(fixturePath('workspace'), ['--user', 'Bob'], { env });
});
test.afterAll(async () => {
  await Promise.allSettled([a?.stop(), b?.stop()]);
  await Promise.allSettled([redis?.stop(), pg?.stop()]);
});

async function open(browser: Browser, url: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected');
  return page;
}

test('a graph saved on A and a run started on A are opened on B; people on A and B see each other', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // The graph, saved on A (PostgreSQL holds the graphs of both instances).
  const saved = await fetch(`${a.url}/api/graphs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SMOKE),
  });
  expect(saved.status, await saved.clone().text()).toBe(201);
  const graphId = ((await saved.json()) as { id: string }).id;

  // A paced run on A, 30 steps.
  const started = await fetch(`${a.url}/api/navigate/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      loop_definition: demoGraph(30),
      step_delay_ms: 150,
    }),
  });
  expect(started.ok, await started.clone().text()).toBe(true);
  const runId = ((await started.json()) as { execution_id: string }).execution_id;

  // B opens A's run by its id while it runs, and follows it live to its last step.
  const bobRun = await open(browser, `${b.url}/?run=${runId}`);
  const counter = bobRun.getByTestId('run-step-counter');
  await expect(counter).toHaveText(/Step \d+/);
  const seenFirst = Number((await counter.textContent())?.replace(/\D+/g, ''));
  await expect(bobRun.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  await expect(counter).toHaveText('Step 30');
  expect(seenFirst).toBeLessThan(30); // it was followed while running, not only read at the end
  await bobRun.screenshot({ path: test.info().outputPath('run-on-b.png') });

  // B's Runs menu lists it (every instance lists every run).
  const listed = await fetch(`${b.url}/api/runs?limit=50`);
  expect(((await listed.json()) as { id: string }[]).map((r) => r.id)).toContain(runId);
  await bobRun.context().close();

  // Alice on A and Bob on B, the same graph open: each sees the other by name.
  const alice = await open(browser, `${a.url}/?graph=${graphId}`);
  const bob = await open(browser, `${b.url}/?graph=${graphId}`);
  await expect(alice.getByRole('group', { name: /^Also here:/ })).toHaveAttribute(
    'aria-label',
    'Also here: Bob',
  );
  await expect(bob.getByRole('group', { name: /^Also here:/ })).toHaveAttribute(
    'aria-label',
    'Also here: Alice',
  );
  await alice
    .locator('header')
    .first()
    .screenshot({ path: test.info().outputPath('presence-a.png') });

  // Bob leaves: Alice's chip goes (through Redis, from the other instance).
  await bob.context().close();
  await expect(alice.getByTestId('presence')).toHaveCount(0, { timeout: 20_000 });
  await alice.context().close();
});
