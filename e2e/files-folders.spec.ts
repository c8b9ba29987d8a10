// Saved-graph housekeeping as a user does it: Save as into a folder ("team/name"), the address bar
// following the open graph (a reload or a copied link opens it), Rename keeping the folder and the
// explorer listing only what is on disk, and deleting a saved graph from the explorer by keyboard.
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

test('save as into a folder, the URL follows, rename and delete keep the explorer true', async ({
  page,
  server,
}) => {
  const editor = new EditorPage(page);
  await editor.open();
  const explorer = page.getByTestId('graphs-explorer');

  // Save as "team/copy_nav": written into graphs/team/, listed under the "team" folder.
  await editor.press('Control+Shift+S');
  await page.getByTestId('save-name').fill('team/copy_nav');
  await page.getByTestId('save-confirm').click();
  await expect(page.getByTestId('explorer-graph-team/copy_nav')).toBeVisible();
  expect(server.hasGraph('team/copy_nav')).toBe(true);
  await expect(explorer).toContainText('team');
  await expect(editor.activeTab()).toContainText('copy_nav');
  // The address bar is a deep link to it.
  await expect(page).toHaveURL(/\?graph=team%2Fcopy_nav$/);

  // Rename (from the palette) to a plain name: stays in its folder; the old entry disappears.
  await editor.press('Control+k');
  await page.getByTestId('palette-input').fill('rename');
  await page.keyboard.press('Enter');
  await page.getByTestId('save-name').fill('renamed_nav');
  await page.getByTestId('save-confirm').click();
  await expect(page.getByTestId('explorer-graph-team/renamed_nav')).toBeVisible();
  await expect(page.getByTestId('explorer-graph-team/copy_nav')).toHaveCount(0);
  expect(server.hasGraph('team/copy_nav')).toBe(false);
  await expect(page).toHaveURL(/\?graph=team%2Frenamed_nav$/);

  // A reload opens that graph from the URL.
  await page.reload();
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
  await expect(editor.activeTab()).toContainText('renamed_nav');

  // Delete by keyboard in the explorer (confirm accepted): the file and its entry are gone.
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('explorer-graph-team/renamed_nav').focus();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('explorer-graph-team/renamed_nav')).toHaveCount(0);
  expect(server.hasGraph('team/renamed_nav')).toBe(false);
  // The tab keeps the work, now unsaved, and the URL no longer points at a deleted file.
  await expect(editor.activeTab().getByTestId('dirty-dot')).toBeVisible();
  await expect(page).not.toHaveURL(/graph=/);
});
