// Composite grants, one rule everywhere (the engine's, src/engine/flatten.ts): a node inside a
// composite whose grant names a container its subgraph does not declare reaches the enclosing
// graph's container. So grouping a node that writes an outer container is allowed, the Issues panel
// calls nothing dangling, and the run writes the outer container.
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';
import { writerGraph } from './writerGraph.ts';

const GRAPH = writerGraph('outer_writer');

test('grouping a node that writes an outer container is allowed, checks clean and runs', async ({
  page,
  server,
}) => {
  server.writeGraph('outer_writer', GRAPH);
  const editor = new EditorPage(page);
  await editor.open('?graph=outer_writer');
  await expect(editor.node('writer')).toBeVisible();
  await editor.node('writer').click();
  await editor.press('Control+g');
  await expect(editor.node('composite_1')).toBeVisible();
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await expect(editor.node('writer')).toHaveCount(0);

  // The same graph the engine runs is what the validator passes: no dangling grant, no
  // "nobody can read or write mem".
  await page.getByTestId('drawer-tab-issues').click();
  await expect(
    page.getByTestId('issue-row').filter({ hasText: /dangling|no node holds a grant/ }),
  ).toHaveCount(0);

  // Inside the composite the node keeps its grant; it is not drawn as a broken edge.
  await editor.node('composite_1').dblclick();
  await expect(page.getByTestId('breadcrumb')).toBeVisible();
  await expect(editor.node('writer')).toBeVisible();
  await editor.node('writer').click();
  await expect(page.getByTestId('node-grant')).toHaveText(/mem\s*in an enclosing graph/);
  await page.screenshot({ path: test.info().outputPath('inside-composite.png') });
  await page.getByTestId('crumb-0').click();

  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('run-status')).toContainText(/done/i, { timeout: 20_000 });
  const runs = (await (await fetch(`${server.url}/api/runs?graph=outer_writer`)).json()) as { id: string }[];
  const state = (await (await fetch(`${server.url}/api/runs/${runs[0]!.id}/state?step=1`)).json()) as {
    containers: Record<string, { states: Record<string, { value: unknown }> }>;
  };
  expect(state.containers.mem!.states.log!.value).toEqual(['hello']);
});
