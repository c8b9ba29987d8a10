// Once the editor says it is ready (html[data-ready]) nothing in the sidebar moves on its own: the
// saved-graph list is in place, so the node library below it stays where the user (or a test) is
// about to grab it. CI caught the opposite: the list arrived a moment after "ready", the explorer
// grew, the library slid down ~220 px between the aim and the press, and a drag meant for "LLM
// Call" dropped a "State Evict".
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const SAVED = 12;

test('the library holds still after ready, even when the saved-graph list answers slowly', async ({
  page,
  server,
}) => {
  for (let i = 0; i < SAVED; i++)
    server.writeGraph(`stable/graph_${String(i).padStart(2, '0')}`, {
      name: `stable ${i}`,
      nodes: [],
      edges: [],
      containers: [],
      access_grants: [],
    });
  // A slow answer for the list (the server under load): "ready" must still mean the list is in.
  await page.route('**/api/graphs', async (route) => {
    await new Promise((r) => setTimeout(r, 600));
    await route.continue();
  });
  const editor = new EditorPage(page);
  await editor.open();
  const item = page.getByTestId('library-item-llmCall');
  const atReady = await item.boundingBox();
  await expect(
    page.getByTestId(`explorer-graph-stable/graph_${String(SAVED - 1).padStart(2, '0')}`),
  ).toBeAttached();
  await page.waitForTimeout(800);
  expect(await item.boundingBox()).toEqual(atReady);
  // And the drag aimed at it lands it.
  await editor.dragFromLibrary('llmCall', 200, 120);
  await expect(editor.node('llmCall_1')).toBeVisible();
});
