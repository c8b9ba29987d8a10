// The page's start path, as the browser fetches it: the editor's code and its stylesheet are
// requested from the page's head, before the boot requests leave (vite.config.ts
// preload-editor-chunk); the dynamic import that starts the editor waits for that stylesheet, so
// fetched later it held the editor back behind the API answers. Each is fetched once, and the
// stylesheet is applied.
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

test('the editor chunk and its stylesheet are requested before any API call, once each, and applied', async ({
  page,
}) => {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  const editor = new EditorPage(page);
  await editor.open('?graph=smoke_demo');
  await expect(editor.node('think')).toBeVisible();

  const firstApi = requests.findIndex((p) => p.startsWith('/api/'));
  expect(firstApi).toBeGreaterThan(0);
  const editorJs = requests.filter((p) => /^\/assets\/editor-[\w-]+\.js$/.test(p));
  const editorCss = requests.filter((p) => /^\/assets\/editor-[\w-]+\.css$/.test(p));
  expect(editorJs).toHaveLength(1);
  expect(editorCss).toHaveLength(1);
  expect(requests.indexOf(editorJs[0]!)).toBeLessThan(firstApi);
  expect(requests.indexOf(editorCss[0]!)).toBeLessThan(firstApi);

  // Applied: the stylesheet is in the document, as a stylesheet (not only a preload).
  const applied = await page.evaluate(() =>
    [...document.styleSheets].some((s) => /\/assets\/editor-[\w-]+\.css$/.test(s.href ?? '')),
  );
  expect(applied).toBe(true);
});
