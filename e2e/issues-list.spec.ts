// A graph with hundreds of issues: the Issues panel keeps only the rows in view (and a margin) in
// the page, counts them all, scrolls to the last one, and a click on it still selects its node.
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';

const N = 300;

/** N textParse nodes, none fed: each one is an error "required input port(s) ['text']". */
function unfedGraph(): Record<string, unknown> {
  const nodes = Array.from({ length: N }, (_, i) => ({
    id: `t${i}`,
    type: 'textParse',
    label: `t${i}`,
    position: { x: (i % 20) * 260, y: Math.floor(i / 20) * 140 },
    config: {},
  }));
  return { name: 'Unfed', description: '', nodes, edges: [], containers: [], access_grants: [] };
}

test('hundreds of issues: only the rows in view are in the page; the last one scrolls in and selects its node', async ({
  page,
  server,
}) => {
  server.writeGraph('unfed', unfedGraph());
  const editor = new EditorPage(page);
  await editor.open('?graph=unfed');
  await page.getByTestId('drawer-tab-issues').click();
  const list = page.getByTestId('issues-list');
  // One error per node (and whatever the graph as a whole is told, e.g. about its step budget).
  await expect.poll(async () => Number(await list.getAttribute('data-count'))).toBeGreaterThanOrEqual(N);
  const rows = page.getByTestId('issue-row');
  await expect(rows.filter({ hasText: "Node 't0' " })).toBeVisible();
  const inPage = await rows.count();
  expect(inPage).toBeGreaterThan(0);
  expect(inPage).toBeLessThan(80);

  // Scrolled to the end, the last issue is rendered and visible, the first is gone from the page.
  await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  const last = rows.filter({ hasText: `Node 't${N - 1}'` });
  await expect(last).toBeVisible();
  await expect(rows.filter({ hasText: "Node 't0' " })).toHaveCount(0);
  expect(await rows.count()).toBeLessThan(80);

  await last.click();
  await expect(page.getByTestId('node-id')).toHaveValue(`t${N - 1}`);
});
