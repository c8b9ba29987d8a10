// Who else is here, in two real browser contexts (two people) on one real server started with a
// token per person (`--user-token NAME=TOKEN`): each sees the other's chip in the top bar, named; a
// stale save (the other saved meanwhile) gets the conflict dialog listing what they changed; when one
// closes the page, the other's chip disappears. Also: the top bar with presence at 1024 px.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type Browser, type Page } from '@playwright/test';
import { fixturePath } from './fixtures.ts';
import { startServer, type RunningServer } from './server.ts';

const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789ab';

let srv: RunningServer;

test.beforeAll(async () => {
  srv = await startServer(fixturePath('workspace'), [
    '--user-token',
    `Alice=${ALICE}`,
    '--user-token',
    `Bob Builder=${BOB}`,
  ]);
});
test.afterAll(async () => {
  await srv?.stop();
});

async function person(browser: Browser, token: string, graph: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${srv.url}/?token=${token}&graph=${graph}`);
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected');
  return page;
}

test('two people on one graph see each other; a stale save shows what changed; leaving removes the chip', async ({
  browser,
}) => {
  const alice = await person(browser, ALICE, 'smoke_demo');
  const bob = await person(browser, BOB, 'smoke_demo');

  // Each sees the other, never themselves.
  const aliceSees = alice.getByRole('group', { name: /^Also here:/ });
  const bobSees = bob.getByRole('group', { name: /^Also here:/ });
  await expect(aliceSees).toHaveAttribute('aria-label', 'Also here: Bob Builder');
  await expect(bobSees).toHaveAttribute('aria-label', 'Also here: Alice');
  await expect(aliceSees.getByTestId('presence-chip')).toHaveText('BB');
  await expect(aliceSees.getByTestId('presence-chip')).toHaveAttribute(
    'title',
    'Bob Builder also has this open',
  );
  await expect(bobSees.getByTestId('presence-chip')).toHaveText('A');

  // The top bar stays whole at 1024 px with the chips in it: nothing spills past the window.
  await alice.setViewportSize({ width: 1024, height: 768 });
  const bar = alice.locator('header').first();
  const chip = await aliceSees.boundingBox();
  const header = await bar.boundingBox();
  expect(chip && header).toBeTruthy();
  expect(chip!.x + chip!.width).toBeLessThanOrEqual(1024);
  expect(chip!.y).toBeGreaterThanOrEqual(header!.y);
  expect(chip!.y + chip!.height).toBeLessThanOrEqual(header!.y + header!.height);
  expect(await bar.evaluate((h) => h.scrollWidth <= h.clientWidth + 1)).toBe(true);
  await bar.screenshot({ path: test.info().outputPath('topbar-presence-1024.png') });

  // Both edit; Bob saves first; Alice's save is stale and is told what Bob changed.
  await alice.getByTestId('graph-description').fill('alice was here');
  await alice.getByTestId('graph-name').click();
  await bob.getByTestId('graph-description').fill('bob rewrote the description');
  await bob.getByTestId('graph-name').click();
  await bob.keyboard.press('Control+s');
  await expect(bob.getByTestId('tab').filter({ hasText: /./ }).first()).toHaveAttribute(
    'data-dirty',
    'false',
  );
  await alice.keyboard.press('Control+s');
  const dialog = alice.getByTestId('conflict-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('conflict-changes')).toContainText('description');
  await expect(dialog.getByTestId('conflict-changes')).toContainText('bob rewrote the description');
  await dialog.screenshot({ path: test.info().outputPath('conflict-changes.png') });
  await dialog.getByTestId('conflict-reload').click();
  await expect(alice.getByTestId('graph-description')).toHaveValue('bob rewrote the description');

  // Bob closes his page: Alice's chip goes.
  await bob.context().close();
  await expect(alice.getByTestId('presence')).toHaveCount(0);
  await alice.context().close();
});

test('a run has its own room: people following a run see each other, not the graph’s people', async ({
  browser,
}) => {
  const res = await fetch(`${srv.url}/api/navigate/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
    body: JSON.stringify({
      loop_definition: JSON.parse(
        readFileSync(join(import.meta.dirname, '../workspace/graphs/grid_navigator.json'), 'utf8'),
      ),
      step_delay_ms: 100,
    }),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
  const runId = ((await res.json()) as { execution_id: string }).execution_id;
  const alice = await person(browser, ALICE, 'smoke_demo');
  const bobContext = await browser.newContext();
  const bob = await bobContext.newPage();
  await bob.goto(`${srv.url}/?token=${BOB}&run=${runId}`);
  await expect(bob.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
  const carol = await (await browser.newContext()).newPage();
  await carol.goto(`${srv.url}/?token=${ALICE}&run=${runId}`);
  await expect(bob.getByRole('group', { name: /^Also here:/ })).toHaveAttribute(
    'aria-label',
    'Also here: Alice',
  );
  // Alice on the graph is in another room: nobody there.
  await expect(alice.getByTestId('presence')).toHaveCount(0);
  await carol.context().close();
  await expect(bob.getByTestId('presence')).toHaveCount(0);
  await bobContext.close();
  await alice.context().close();
});
