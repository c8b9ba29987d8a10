// Runs started over REST, as another client (a script, a second editor) would: started, waited to
// their end, stopped; and the demo graph with a finished run of it, opened in the editor.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { ServerHandle } from './fixtures.ts';
import { EditorPage } from './pages/EditorPage.ts';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository's demo graph (grid_navigator.json). */
export const DEMO = JSON.parse(
  readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8'),
) as Record<string, unknown>;

/** Starts `graph` on the server; resolves with the run's id. */
export async function startRun(request: APIRequestContext, graph: unknown, delay: number, paused = false) {
  const r = await request.post('/api/navigate/run', {
    data: { loop_definition: graph, step_delay_ms: delay, paused },
  });
  expect(r.ok()).toBe(true);
  return ((await r.json()) as { execution_id: string }).execution_id;
}

export async function untilRunDone(request: APIRequestContext) {
  await expect
    .poll(
      async () =>
        ((await (await request.get('/api/navigate/run/status')).json()) as { status: string }).status,
    )
    .toBe('done');
}

export const stopRun = (request: APIRequestContext) =>
  request.post('/api/navigate/run/stop', { headers: { 'content-type': 'application/json' } });

/** The demo saved as grid_navigator, a finished run of `steps` steps, and the editor showing it. */
export async function openFinishedDemo(page: Page, server: ServerHandle, steps: number): Promise<EditorPage> {
  server.writeGraph('grid_navigator', DEMO);
  await startRun(page.request, { ...DEMO, step_budget: steps }, 0);
  await untilRunDone(page.request);
  const editor = new EditorPage(page);
  await editor.open('?graph=grid_navigator');
  await expect(page.getByTestId('run-step-counter')).toHaveText(`Step ${steps}`);
  return editor;
}
