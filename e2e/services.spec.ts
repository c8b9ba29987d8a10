// Node services through the editor in Chromium, with a REAL Python service: the SDK's gridworld
// example, started and supervised by a real `statewire serve` from the workspace's services.json.
// The user opens the Python demo graph, finds the service's node types in the library, presses Play
// and watches the run: a picture in the Camera node, the service-owned container with live values,
// an executor container that Python writes through its grant. Then the service process is killed:
// the run fails with a node error naming the service, and Statewire starts the service again.
import { expect, test, type Page } from '@playwright/test';
import { startGridworldServer } from './gridworldServer.ts';

interface ServiceStatus {
  state: string;
  pid: number | null;
  restarts: number;
}

async function gridworld(page: Page, base: string): Promise<ServiceStatus> {
  const body = (await (await page.request.get(`${base}/api/services`)).json()) as {
    services: ServiceStatus[];
  };
  return body.services[0]!;
}

const stepOf = async (page: Page) =>
  Number((await page.getByTestId('run-step-counter').textContent())?.replace(/\D+/g, '') ?? NaN);

test('a Python node service: library, a live run with its picture and state, a killed service', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const gridworldServer = await startGridworldServer();
  try {
    const srv = gridworldServer.server;
    const base = srv.url;

    await page.goto(`${base}/?graph=python_gridworld`);
    await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });

    // The service comes up (the server's own report; its output is in the message if it does not)…
    const server = srv;
    await expect
      .poll(async () => (await gridworld(page, base)).state, {
        timeout: 120_000,
        message: `gridworld service never came up:\n${server.output().slice(-4000)}`,
      })
      .toBe('up');
    // …and the library lists its functions under its name, with a green (up) health dot.
    const section = page.getByTestId('service-section-gridworld');
    await expect(section).toHaveAttribute('data-state', 'up', { timeout: 15_000 });
    for (const fn of ['reset', 'step', 'policy', 'record reward'])
      await expect(section.getByText(fn, { exact: true })).toBeVisible();
    // Its nodes are drawn from the manifest's ports, with no "service missing" marker.
    await expect(page.getByTestId('handle-in-policy-position')).toBeAttached();
    await expect(page.getByTestId('service-problem-policy')).toHaveCount(0);

    // Play: the run steps through the service.
    await page.getByTestId('run-play').click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
    await expect.poll(() => stepOf(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(4);

    // The Camera node draws the IMAGE array the service returned, as a real decoded picture.
    const picture = page.getByTestId('node-camera').getByTestId('ndarray-image').first();
    await expect(picture).toBeVisible();
    await expect
      .poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);

    // The service-owned container: read-only box with the owner tag and live values.
    const owned = page.getByTestId('canvas-service-container-gridworld_stats');
    await expect(owned).toHaveAttribute('data-owner', 'gridworld');
    await expect(owned).toContainText('episodes');
    await expect(owned).toContainText(/\[ep\d+\]/); // visit counts keyed by episode

    // An executor container Python writes through the node's grant (record_reward → episode_log).
    await expect(page.getByTestId('slot-live-episode_log-rewards')).toHaveText(/\d+ items?/);

    // The State panel shows the service's container too, tagged with its owner.
    await page.getByTestId('drawer-tab-state').click();
    await expect(page.getByTestId('service-container-gridworld_stats')).toHaveAttribute(
      'data-owner',
      'gridworld',
    );

    // Kill the service: the next call fails as a node error that names it; Statewire restarts it.
    const before = await gridworld(page, base);
    expect(before.state).toBe('up');
    process.kill(before.pid!, 'SIGKILL');
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'error', {
      timeout: 30_000,
    });
    await page.getByTestId('drawer-tab-log').click();
    await expect(
      page
        .getByTestId('run-log-line')
        .filter({ hasText: /service 'gridworld'/ })
        .first(),
    ).toBeVisible();
    await expect
      .poll(
        async () => {
          const s = await gridworld(page, base);
          return s.state === 'up' && s.pid !== before.pid ? s.restarts : -1;
        },
        { timeout: 90_000 },
      )
      .toBe(1);
    await expect(section).toHaveAttribute('data-state', 'up');

    // The restarted service runs the graph again.
    await page.getByTestId('run-play').click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
    await expect.poll(() => stepOf(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await page.getByTestId('run-stop').click();
  } finally {
    await gridworldServer.stop();
  }
});
