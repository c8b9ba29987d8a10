// Files through the UI: import a reference-style file with legacy traits and export it back with
// containers and grants unchanged; an invalid import shows JSON paths and leaves the open graph
// alone; crash recovery from the local journal; the stale-save conflict prompt.
import { readFileSync } from 'node:fs';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, fixturePath, test } from './fixtures.ts';

test('imports a legacy reference file, lists its warnings, exports containers and grants unchanged', async ({
  page,
}) => {
  const editor = new EditorPage(page);
  await editor.open();
  await page.getByTestId('import-file-input').setInputFiles(fixturePath('reference_legacy.json'));
  await expect(editor.activeTab()).toContainText('legacy_ref');
  await expect(editor.container('memory')).toBeVisible();
  await expect(editor.container('graph_state')).toBeVisible();
  // Warnings from loading (stray keys, legacy container node, dangling grant) are in the Issues panel.
  await expect(page.getByTestId('drawer-tab-issues')).toHaveClass(/border-sky-500/);
  await expect(page.getByTestId('issue-row').filter({ hasText: 'old_box' }).first()).toBeVisible();
  await expect(page.getByTestId('issue-row').filter({ hasText: 'deleted_long_ago' }).first()).toBeVisible();

  const download = page.waitForEvent('download');
  await editor.press('Control+e');
  const file = await (await download).path();
  const exported = JSON.parse(readFileSync(file, 'utf8')) as {
    containers: { id: string }[];
    access_grants: unknown[];
    edges: unknown[];
  };
  const original = JSON.parse(readFileSync(fixturePath('reference_legacy.json'), 'utf8')) as {
    containers: { id: string }[];
    access_grants: unknown[];
  };
  for (const c of original.containers) expect(exported.containers.find((x) => x.id === c.id)).toEqual(c);
  expect(exported.access_grants.slice(0, original.access_grants.length)).toEqual(original.access_grants);
  // The legacy stateContainer node became an ordinary container; grants never leak into edges.
  expect(exported.containers.map((c) => c.id)).toContain('old_box');
  expect(exported.edges).toHaveLength(4);
});

test('dropping a .json file on the canvas opens it in a new tab', async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  const text = readFileSync(fixturePath('workspace/graphs/smoke_demo.json'), 'utf8');
  const transfer = await page.evaluateHandle((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'dropped.json', { type: 'application/json' }));
    return dt;
  }, text);
  await page.locator('.react-flow').dispatchEvent('dragover', { dataTransfer: transfer });
  await page.locator('.react-flow').dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.getByTestId('tab')).toHaveCount(2);
  await expect(editor.activeTab()).toContainText('smoke_demo');
  await expect(editor.node('think')).toBeVisible();
});

test('an invalid import shows errors with JSON paths and leaves the open graph untouched', async ({
  page,
}) => {
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  await expect(editor.node('think')).toBeVisible();
  await page.getByTestId('import-file-input').setInputFiles(fixturePath('invalid_graph.json'));
  const dialog = page.getByTestId('import-errors');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('import-error').first()).toContainText('$.');
  await expect(dialog).toContainText('$.edges');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tab')).toHaveCount(1);
  await expect(editor.node('think')).toBeVisible();
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'false');
});

test('crash recovery: unsaved work survives closing the page', async ({ page, context }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.dragFromLibrary('llmCall', 200, 100);
  await expect(editor.node('llmCall_1')).toBeVisible();
  await editor.dragFromLibrary('__container__', 200, 320);
  await expect(editor.container('container_1')).toBeVisible();
  await editor.waitJournal();
  await page.close({ runBeforeUnload: false });

  const again = new EditorPage(await context.newPage());
  await again.open();
  await expect(again.node('llmCall_1')).toBeVisible();
  await expect(again.container('container_1')).toBeVisible();
  await expect(again.activeTab()).toHaveAttribute('data-dirty', 'true');
});

test('saving over a file changed on disk asks: overwrite, reload or save as new', async ({
  page,
  server,
}) => {
  server.writeGraph(
    'conflict_demo',
    JSON.parse(readFileSync(fixturePath('workspace/graphs/smoke_demo.json'), 'utf8')) as unknown,
  );
  const editor = new EditorPage(page);
  await editor.open('?graph=conflict_demo');
  await expect(editor.node('think')).toBeVisible();
  await page.getByTestId('graph-description').fill('edited in the editor');
  await page.getByTestId('graph-name').click();

  // Someone else changes the file.
  const onDisk = server.readGraph('conflict_demo') as { description: string };
  server.writeGraph('conflict_demo', { ...onDisk, description: 'changed on disk' });

  await editor.press('Control+s');
  await expect(page.getByTestId('conflict-dialog')).toBeVisible();
  await page.getByTestId('conflict-reload').click();
  await expect(page.getByTestId('graph-description')).toHaveValue('changed on disk');

  // Now edit again and overwrite deliberately.
  await page.getByTestId('graph-description').fill('mine wins');
  await page.getByTestId('graph-name').click();
  server.writeGraph('conflict_demo', { ...onDisk, description: 'changed again' });
  await editor.press('Control+s');
  await page.getByTestId('conflict-overwrite').click();
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'false');
  expect((server.readGraph('conflict_demo') as { description: string }).description).toBe('mine wins');

  // A save with no outside change goes straight through.
  await page.getByTestId('graph-description').fill('quiet save');
  await page.getByTestId('graph-name').click();
  await editor.press('Control+s');
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'false');
  await expect(page.getByTestId('conflict-dialog')).toHaveCount(0);
});
