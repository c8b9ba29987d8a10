// Takes the README screenshots of the running app in Debian chromium: the editor with the demo
// graph, the container inspector, a live run, the timeline, the issues panel, and a refused connection.
// Run: `npx vite build && npx tsx e2e/take-screenshots.ts` (writes docs/screenshots/*.png).
import { chromium, type Page } from '@playwright/test';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'docs/screenshots');

async function ready(page: Page, query: string) {
  await page.goto(query);
  await page.locator('html[data-ready="true"]').waitFor({ state: 'attached' });
  await page.waitForTimeout(600);
}

async function main() {
  const server = await startServer(join(root, 'workspace'));
  cpSync(
    join(root, 'e2e/fixtures/workspace/graphs/smoke_demo.json'),
    join(server.workspace, 'graphs/smoke_demo.json'),
  );
  // A copy of the smoke graph with mistakes, so the issues panel has errors and warnings to show.
  const bad = JSON.parse(
    readFileSync(join(root, 'e2e/fixtures/workspace/graphs/smoke_demo.json'), 'utf8'),
  ) as {
    name: string;
    edges: unknown[];
    containers: { id: string; states: Record<string, { value_type: string }> }[];
    access_grants: unknown[];
  };
  bad.name = 'issues_demo';
  bad.edges.push({
    id: 'e_bad',
    source: 'think',
    target: 'ghost',
    sourceHandle: 'response',
    targetHandle: 'text',
  });
  bad.containers[0]!.states.notes!.value_type = 'IMAGE';
  bad.access_grants.push({ id: 'ag_dup', node_id: 'think', container_id: 'memory' });
  writeFileSync(join(server.workspace, 'graphs/issues_demo.json'), JSON.stringify(bad, null, 2));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    mkdirSync(out, { recursive: true });
    const page = await browser.newPage({ viewport: { width: 1600, height: 960 }, baseURL: server.url });

    await ready(page, '/?graph=grid_navigator');
    await page.getByTestId('drawer-tab-state').click();
    await page.screenshot({ path: join(out, 'editor-demo.png') });

    await page.getByTestId('container-memory').click();
    await page.getByTestId('container-inspector').waitFor();
    await page.getByTestId('container-memory').hover();
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(out, 'container-inspector.png') });

    // A live run: values stream into the container boxes, node status dots, then the timeline.
    await page.getByTestId('drawer-tab-state').click();
    await page.getByTestId('run-play').click();
    await page.waitForFunction(
      () =>
        Number(
          document.querySelector('[data-testid="run-step-counter"]')?.textContent?.match(/\d+/)?.[0] ?? 0,
        ) >= 12,
    );
    await page.screenshot({ path: join(out, 'live-run.png') });
    await page.getByTestId('run-pause').click();
    await page.getByTestId('drawer-tab-timeline').click();
    await page.getByTestId('timeline-tick-6').click();
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(out, 'timeline.png') });

    const issues = await browser.newPage({ viewport: { width: 1600, height: 960 }, baseURL: server.url });
    await ready(issues, '/?graph=issues_demo');
    await issues.getByTestId('drawer-tab-issues').click();
    await issues.getByTestId('issue-row').filter({ hasText: 'IMAGE' }).first().click();
    await issues.waitForTimeout(400);
    await issues.screenshot({ path: join(out, 'issues-panel.png') });
    await issues.goto('/?graph=smoke_demo');
    await issues.locator('html[data-ready="true"]').waitFor({ state: 'attached' });
    await issues.waitForTimeout(400);

    // A refused connection: LIST[TEXT] → TEXT, reason shown at the cursor.
    const a = await issues.getByTestId('handle-out-think-responses').boundingBox();
    const b = await issues.getByTestId('handle-in-loop_out-stop').boundingBox();
    if (a && b) {
      await issues.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
      await issues.mouse.down();
      await issues.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
      await issues.mouse.up();
      await issues.getByTestId('connection-refusal').waitFor();
      await issues.screenshot({ path: join(out, 'connection-refusal.png') });
    }
    console.log(`screenshots written to ${out}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
