// A save on a REAL full disk, through the UI: the server's workspace is on a 4 MB tmpfs that the
// test fills to the last byte. Ctrl+S must answer with a visible "disk is full" message, keep the
// tab dirty with the edit in it, and leave the file on disk byte-identical; once space is freed the
// same Ctrl+S saves. Needs permission to mount (root, as in CI); otherwise it says why and fails
// only under CI.
import { copyFileSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { REPO, startServer, type ServerProcess } from '../src/server/test/serverProcess.testutil.ts';
import { fillDisk, freeSpace, mountTmpfs } from '../src/server/test/tmpfs.testutil.ts';

const here = import.meta.dirname;

test('a save on a full disk keeps the unsaved document, says why, and succeeds once space is back', async ({
  page,
}) => {
  const fs = mountTmpfs(4 * 1024 * 1024);
  if ('error' in fs) {
    console.warn(`disk-full.spec: not run — cannot mount a tmpfs: ${fs.error}`);
    expect(process.env.CI, 'CI must be able to mount a tmpfs (run as root)').toBeFalsy();
    return;
  }
  let srv: ServerProcess | undefined;
  try {
    const ws = join(fs.dir, 'ws');
    mkdirSync(join(ws, 'graphs'), { recursive: true });
    copyFileSync(join(here, 'fixtures/workspace/graphs/smoke_demo.json'), join(ws, 'graphs/smoke_demo.json'));
    symlinkSync(join(REPO, 'dist'), join(ws, 'dist')); // the built app, without copying it onto the small disk
    srv = await startServer(ws);
    const file = join(ws, 'graphs/smoke_demo.json');

    await page.goto(`${srv.url}/?graph=smoke_demo`);
    await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
    const tab = page.locator('[data-testid="tab"][data-active="true"]');
    await expect(page.getByTestId('node-think')).toBeVisible();
    await page.getByTestId('graph-description').fill('written while the disk was full');
    await page.getByTestId('graph-name').click();
    await expect(tab).toHaveAttribute('data-dirty', 'true');

    const before = readFileSync(file);
    const filler = join(fs.dir, 'filler.bin');
    const filled = fillDisk(filler);
    await page.locator('body').press('Control+s');
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText("the server's disk is full");
    await expect(toast).toContainText('Your changes are still here, unsaved');
    await expect(tab).toHaveAttribute('data-dirty', 'true');
    await expect(page.getByTestId('graph-description')).toHaveValue('written while the disk was full');
    expect(readFileSync(file).equals(before)).toBe(true);

    freeSpace(filler, Infinity, filled);
    await page.locator('body').press('Control+s');
    await expect(tab).toHaveAttribute('data-dirty', 'false');
    expect(JSON.parse(readFileSync(file, 'utf8')).description).toBe('written while the disk was full');
  } finally {
    await srv?.stop();
    fs.unmount();
  }
});
