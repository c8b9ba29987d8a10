// A graph file with a typo (or cut off mid-write) is somebody's work one keystroke from a graph. It
// opens as an error view (what, where, the text read-only), never as an editable empty graph; no
// save replaces it without an explicit "Replace the unreadable file" over its parse error; fixing
// it on disk opens it by itself. The broken files are made from the demo graph the way the issue
// did: the closing quote of "name" deleted, or the file cut after 600 characters.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test, type ServerHandle } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = readFileSync(join(here, '..', 'workspace', 'graphs', 'grid_navigator.json'), 'utf8');
const TYPO = DEMO.replace('"name": "Grid Navigator",', '"name": "Grid Navigator,');
const TRUNCATED = DEMO.slice(0, 600);

const fileOf = (server: ServerHandle, id: string) => join(server.workspace, 'graphs', `${id}.json`);
const writeText = (server: ServerHandle, id: string, text: string) => writeFileSync(fileOf(server, id), text);
const readText = (server: ServerHandle, id: string) => readFileSync(fileOf(server, id), 'utf8');

test('a typo opens as an error view; nothing edits or saves over it; fixing the file opens it', async ({
  page,
  server,
}) => {
  expect(TYPO).not.toBe(DEMO);
  writeText(server, 'typo_graph', TYPO);
  const editor = new EditorPage(page);
  await editor.open('?graph=typo_graph');
  const view = page.getByTestId('unreadable-view');
  await expect(view).toBeVisible();
  await expect(view).toContainText('typo_graph.json does not read as a graph');
  await expect(page.getByTestId('unreadable-where').first()).toHaveText(/^line 2, column \d+$/);
  await expect(page.getByTestId('unreadable-error-line')).toContainText('"name": "Grid Navigator,');
  await expect(page.getByTestId('unreadable-text')).toContainText('"id": "loop_in"');
  // The Issues panel lists the parse error, not "eval graph must declare a graphOut".
  await expect(page.getByTestId('issue-row')).toHaveCount(1);
  await expect(page.getByTestId('issue-row')).toContainText('invalid JSON at typo_graph:2:');
  await page.screenshot({ path: test.info().outputPath('unreadable-view.png') });

  // Adding a node is refused with the reason; Ctrl+S writes nothing.
  await page.getByTestId('library-item-note').dblclick();
  await expect(page.getByTestId('toast')).toContainText('could not be read as a graph');
  await editor.press('Control+s');
  await expect(page.getByTestId('toast')).toContainText('nothing to save');
  await expect(page.getByTestId('replace-unreadable-dialog')).toHaveCount(0);
  expect(readText(server, 'typo_graph')).toBe(TYPO);

  // A reload restores the tab from the local journal (another tab is the deep link now): it reads
  // the file again and is still the error view, never an empty graph.
  await page.getByTestId('explorer-graph-smoke_demo').dblclick();
  await expect(editor.node('think')).toBeVisible();
  await editor.waitJournal();
  await page.reload();
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
  await page.getByTestId('tab').filter({ hasText: 'typo_graph' }).click();
  await expect(view).toBeVisible();
  await expect(page.getByTestId('unreadable-error-line')).toContainText('"name": "Grid Navigator,');

  // Fixed in a text editor: the view reads it again on the server's graphs_changed, no click.
  writeText(server, 'typo_graph', DEMO);
  await expect(view).toHaveCount(0);
  await expect(editor.node('loop_in')).toBeVisible();
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'false');
});

test('a file cut off under an open tab: no save path (Ctrl+S, Reload, Overwrite) replaces it without a yes', async ({
  page,
  server,
}) => {
  writeText(server, 'victim', DEMO);
  const editor = new EditorPage(page);
  await editor.open('?graph=victim');
  await expect(editor.node('loop_in')).toBeVisible();
  await page.getByTestId('graph-description').fill('my unsaved edit');
  await page.getByTestId('graph-name').click();
  const changedOnDisk = DEMO.replace(/"description": "[^"]*"/, '"description": "changed on disk"');
  const conflict = page.getByTestId('conflict-dialog');
  const dialog = page.getByTestId('replace-unreadable-dialog');

  // Changed on disk → the stale-save question; then the file is cut off before "Reload from disk".
  writeText(server, 'victim', changedOnDisk);
  await editor.press('Control+s');
  await expect(conflict).toBeVisible();
  writeText(server, 'victim', TRUNCATED);
  await page.getByTestId('conflict-reload').click();
  await expect(page.getByTestId('toast')).toContainText('not reloaded');
  await expect(page.getByTestId('graph-description')).toHaveValue('my unsaved edit');

  // Ctrl+S over the cut-off file asks, showing where it breaks; "Keep the file" writes nothing.
  await editor.press('Control+s');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('parse-errors')).toContainText(/line \d+, column \d+/);
  await page.screenshot({ path: test.info().outputPath('replace-unreadable.png') });
  await page.getByTestId('replace-unreadable-cancel').click();
  expect(readText(server, 'victim')).toBe(TRUNCATED);
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'true');

  // The stale-save "Overwrite" (sent without a version) is refused by the server: the same question.
  writeText(server, 'victim', changedOnDisk);
  await editor.press('Control+s');
  await expect(conflict).toBeVisible();
  writeText(server, 'victim', TRUNCATED);
  await page.getByTestId('conflict-overwrite').click();
  await expect(dialog).toBeVisible();
  expect(readText(server, 'victim')).toBe(TRUNCATED);
  await page.getByTestId('replace-unreadable-confirm').click();
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'false');
  const saved = JSON.parse(readText(server, 'victim')) as { description: string; nodes: unknown[] };
  expect(saved.description).toBe('my unsaved edit');
  expect(saved.nodes).toHaveLength(16);
});

test('"Save as" over an unreadable file: Overwrite is refused with its error; only Replace writes', async ({
  page,
  server,
}) => {
  writeText(server, 'taken_name', TYPO);
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  await expect(editor.node('think')).toBeVisible();
  await editor.press('Control+Shift+s');
  await page.getByTestId('save-name').fill('taken_name');
  await page.getByTestId('save-confirm').click();
  await page.getByTestId('save-overwrite').click();
  await expect(page.getByTestId('save-error')).toContainText('does not read as a graph');
  await expect(page.getByTestId('parse-errors')).toContainText(/line 2, column \d+/);
  expect(readText(server, 'taken_name')).toBe(TYPO);
  await page.getByTestId('save-replace-unreadable').click();
  await expect(page.getByTestId('save-dialog')).toHaveCount(0);
  expect((JSON.parse(readText(server, 'taken_name')) as { name: string }).name).toBe('taken_name');
});
