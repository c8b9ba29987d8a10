// A server that dies under a live run (kill -9) and comes back on the same port and workspace: the
// editor reconnects, catches up the steps the dead process had committed, and reads the run's
// status again — `interrupted` (the restart marks it so in its row; its log ends where the crash cut
// it, so no event says it). Play is offered again, Pause/Stop are not, without a reload.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures.ts';
import { startServer, type RunningServer } from './server.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = JSON.parse(readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8')) as {
  name: string;
};

let workspace: string;
const servers: RunningServer[] = [];
test.beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'statewire-e2e-restart-'));
  mkdirSync(join(workspace, 'graphs'));
  cpSync(
    join(here, '../workspace/graphs/grid_navigator.json'),
    join(workspace, 'graphs/grid_navigator.json'),
  );
});
test.afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
  rmSync(workspace, { recursive: true, force: true });
});

test('after kill -9 and a restart on the same port, a live run reads interrupted without a reload', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const first = await startServer(undefined, [], { workspace });
  servers.push(first);
  const port = Number(new URL(first.url).port);
  const start = await page.request.post(`${first.url}/api/navigate/run`, {
    data: { loop_definition: DEMO, step_delay_ms: 300 },
  });
  expect(start.ok()).toBe(true);
  const { execution_id: runId } = (await start.json()) as { execution_id: string };

  await page.goto(`${first.url}/?graph=grid_navigator`);
  const status = page.getByTestId('run-status');
  await expect(status).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('run-play')).toBeDisabled();
  await expect(page.getByTestId('run-stop')).toBeEnabled();
  await expect
    .poll(async () => Number((await page.getByTestId('run-step-counter').textContent())?.slice(5)))
    .toBeGreaterThan(2);

  await first.kill9();
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', /reconnecting|offline/);
  const second = await startServer(undefined, [], { workspace, port });
  servers.push(second);
  expect(second.url).toBe(first.url);

  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', {
    timeout: 20_000,
  });
  const row = (await (await page.request.get(`${second.url}/api/runs/${runId}`)).json()) as {
    status: string;
    steps: number;
  };
  expect(row.status).toBe('interrupted');
  // The steps the dead process committed, exactly, and the status its restart gave the run.
  await expect(page.getByTestId('run-step-counter')).toHaveText(`Step ${row.steps}`);
  await expect(status).toHaveAttribute('data-status', 'interrupted');
  await expect(page.getByTestId('run-play')).toBeEnabled();
  await expect(page.getByTestId('run-pause')).toBeDisabled();
  await expect(page.getByTestId('run-stop')).toBeDisabled();
});
