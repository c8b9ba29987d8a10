// What a live Python-service run draws covers nothing else (issue 27, item 18): the service's own
// containers sit in a column docked beside the canvas, not over a node or the Episode Log box; the
// Camera's picture frame has its size before the first picture, so the picture never runs under
// Write Frame; and the Episode Log box keeps its width while values stream in.
import { expect, test, type Page } from '@playwright/test';
import { startGridworldServer } from './gridworldServer.ts';
import { intersects, rectOf } from './geometry.ts';

const stepOf = async (page: Page) =>
  Number((await page.getByTestId('run-step-counter').textContent())?.replace(/\D+/g, '') ?? NaN);

/** Screen rectangles of every node and container box on the canvas, by test id. */
const canvasBoxes = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.react-flow__node > [data-testid]')].map((el) => {
      const r = el.getBoundingClientRect();
      return { id: el.dataset.testid!, x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );

test('a Python service run: its state is docked beside the canvas, the Camera grows over nothing', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const gridworldServer = await startGridworldServer();
  try {
    const server = gridworldServer.server;
    const base = server.url;
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get(`${base}/api/services`)).json()) as {
              services: { state: string }[];
            }
          ).services[0]?.state,
        { timeout: 120_000, message: `gridworld never came up:\n${server.output().slice(-4000)}` },
      )
      .toBe('up');
    await page.goto(`${base}/?graph=python_gridworld`);
    await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
    const dock = page.getByTestId('canvas-service-containers');
    await expect(dock.getByTestId('canvas-service-container-gridworld_stats')).toBeVisible();

    // Before the run: the Camera's frame is already there, at its final size.
    const camera = page.getByTestId('node-camera');
    await expect(camera.getByTestId('ndarray-empty')).toBeVisible();
    const cameraBefore = await camera.evaluate((el: HTMLElement) => [el.offsetWidth, el.offsetHeight]);
    const logBefore = await page
      .getByTestId('container-episode_log')
      .evaluate((el: HTMLElement) => el.offsetWidth);

    await page.getByTestId('run-play').click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
    const widths = new Set<number>();
    for (const atLeast of [3, 6, 9]) {
      await expect.poll(() => stepOf(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(atLeast);
      widths.add(
        await page.getByTestId('container-episode_log').evaluate((el: HTMLElement) => el.offsetWidth),
      );
    }
    await page.getByTestId('run-pause').click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused');
    // The Episode Log box kept its width while its slots filled (a picture, a depth map, a list).
    await expect(page.getByTestId('slot-live-episode_log-rewards')).toHaveText(/\d+ items?/);
    expect([...widths]).toEqual([logBefore]);

    // The picture arrived into the frame: the node has the size it had before.
    await expect(camera.getByTestId('ndarray-image')).toBeVisible();
    expect(await camera.evaluate((el: HTMLElement) => [el.offsetWidth, el.offsetHeight])).toEqual(
      cameraBefore,
    );

    // Nothing covers anything: the dock lies beside the canvas, no two boxes overlap.
    const dockRect = await rectOf(dock);
    const canvas = await rectOf(page.getByTestId('canvas'));
    expect(intersects(dockRect, canvas)).toBe(false);
    const boxes = await canvasBoxes(page);
    expect(boxes.map((b) => b.id)).toEqual(
      expect.arrayContaining(['node-camera', 'node-write_frame', 'container-episode_log']),
    );
    for (const b of boxes) expect(intersects(b, dockRect), b.id).toBe(false);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++)
        expect(intersects(boxes[i]!, boxes[j]!), `${boxes[i]!.id} / ${boxes[j]!.id}`).toBe(false);

    // Collapsed, the dock is a narrow rail; the canvas takes the room back.
    await dock.getByRole('button').first().click();
    await expect(dock).toHaveAttribute('data-open', 'false');
    expect((await rectOf(dock)).width).toBeLessThanOrEqual(24);
    expect((await rectOf(page.getByTestId('canvas'))).width).toBeGreaterThan(canvas.width + 200);
    await page.getByTestId('run-stop').click();
  } finally {
    await gridworldServer.stop();
  }
});
