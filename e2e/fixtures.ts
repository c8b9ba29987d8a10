// Playwright fixtures: one real `statewire serve` per worker on a free loopback port (--port 0,
// the URL is read from its "listening on" line), over a temp workspace copied from
// e2e/fixtures/workspace; stopped and deleted when the worker ends. Tests get `baseURL` pointing at it
// and a server with no live run (a test's run never leaks into the next test).
import { test as base, expect } from '@playwright/test';
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.ts';

const here = dirname(fileURLToPath(import.meta.url));

export interface ServerHandle {
  url: string;
  workspace: string;
  /** Reads a saved graph file (id = path under graphs/ without .json). */
  readGraph(id: string): unknown;
  writeGraph(id: string, graph: unknown): void;
  hasGraph(id: string): boolean;
}

export const test = base.extend<
  { server: ServerHandle; noLiveRun: void; pageDiagnostics: void },
  { workerServer: ServerHandle }
>({
  workerServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const srv = await startServer(join(here, 'fixtures/workspace'));
      const { url, workspace } = srv;
      const file = (id: string) => join(workspace, 'graphs', `${id}.json`);
      await use({
        url,
        workspace,
        readGraph: (id) => JSON.parse(readFileSync(file(id), 'utf8')) as unknown,
        writeGraph: (id, g) => {
          mkdirSync(dirname(file(id)), { recursive: true });
          writeFileSync(file(id), JSON.stringify(g, null, 2));
        },
        hasGraph: (id) => existsSync(file(id)),
      });
      await srv.stop();
    },
    { scope: 'worker' },
  ],
  server: async ({ workerServer }, use) => use(workerServer),
  // Every test (asking for `server` or not) starts with no live run: a run a previous test left
  // paused would make the next Play ask "stop run of … and start this one?" (the app's right
  // answer, the wrong test).
  noLiveRun: [
    async ({ workerServer }, use) => {
      const res = await fetch(`${workerServer.url}/api/navigate/run/stop`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      if (!res.ok) throw new Error(`could not stop the previous test's run: HTTP ${res.status}`);
      await use();
    },
    { auto: true },
  ],
  // A failed test prints what the page itself reported (uncaught errors, console errors, a renderer
  // crash) and what its canvas held: an element that vanished or never came says nothing about why
  // on its own.
  pageDiagnostics: [
    async ({ page }, use, testInfo) => {
      const lines: string[] = [];
      page.on('pageerror', (e) => lines.push(`pageerror: ${e.stack ?? e.message}`));
      page.on('crash', () => lines.push('the page crashed (its renderer is gone)'));
      page.on('console', (m) => {
        if (m.type() === 'error') lines.push(`console.error: ${m.text()}`);
      });
      await use();
      if (testInfo.status === testInfo.expectedStatus) return;
      // What the canvas held when the test failed: its viewport, each node with its handle count
      // (a node drawn as a zoomed-out box, or culled, has none) and any toast on screen.
      const canvas = await page
        .evaluate(() => {
          const vp = document.querySelector<HTMLElement>('.react-flow__viewport')?.style.transform;
          const nodes = [...document.querySelectorAll<HTMLElement>('.react-flow__node')].map(
            (n) =>
              `${n.dataset.id}@${n.style.transform}:${n.querySelectorAll('.react-flow__handle').length}h`,
          );
          const toasts = [
            ...document.querySelectorAll('[data-testid="toast"], [data-testid="connection-refusal"]'),
          ].map((t) => t.textContent);
          const drops = (window as { __canvasDrops?: number }).__canvasDrops;
          return `viewport ${vp ?? 'none'}; drops on the canvas ${drops ?? 'not counted'}; ${nodes.length} nodes ${nodes.slice(0, 30).join(' ')}; toasts ${JSON.stringify(toasts)}`;
        })
        .catch((e: Error) => `(canvas not readable: ${e.message})`);
      lines.push(`canvas: ${canvas}`);
      console.log(`page diagnostics of "${testInfo.title}":\n${lines.slice(-40).join('\n')}`);
    },
    { auto: true },
  ],
  baseURL: async ({ workerServer }, use) => use(workerServer.url),
});

export { expect };

export function fixturePath(name: string): string {
  return join(here, 'fixtures', name);
}
