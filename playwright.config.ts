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
      ],
    },
    trace: 'off',
  },
});
