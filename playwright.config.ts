import { defineConfig } from '@playwright/test';

// Debian's chromium (installed by scripts/ensure-chromium.mjs); Playwright's own browser download
// is not reachable on these machines. The e2e server is started per worker by e2e/fixtures.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    headless: true,
    // The app skips viewport animations under reduced motion, so clicks never race a moving canvas.
    reducedMotion: 'reduce',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Chromium 156 builds its omnibox dropdown as a WebUI page and loads it (a renderer of its
        // own, ~70 scripts) for every new window, and every browser context is one: ~1.2 s of one core
        // plus ~0.4 s of worker threads during each page load of a test or benchmark, on a 2-core
        // machine. Headless, no one ever sees that dropdown.
        '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup',
      ],
    },
    trace: 'off',
  },
});
