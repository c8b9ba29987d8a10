// Runs → Replay and verify in the editor, against a real server: a finished run of the demo graph
// (plus a plugin node, `drift`, writing graph_state.drift) replays identically ("N steps
// identical", no mark on the timeline); after the plugin's behaviour changes from step 4 on, the
// replay names step 4, the slot and the node, and the tick of step 4 carries the mark.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EditorPage } from './pages/EditorPage.ts';
import { expect, test } from './fixtures.ts';
import { startServer, type RunningServer } from './server.ts';

const here = dirname(fileURLToPath(import.meta.url));
const STEPS = 8;

/** The demo graph with a `drift` plugin node writing graph_state.drift every step. */
function driftGraph(): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const g = JSON.parse(readFileSync(join(here, '../workspace/graphs/grid_navigator.json'), 'utf8')) as any;
  g.name = 'replay_drift';
  g.step_budget = STEPS;
  g.containers.find((c: { id: string }) => c.id === 'graph_state').states.drift = {
    type: 'lastWrite',
    value_type: 'ANY',
  };
  g.nodes.push(
    { id: 'drift', type: 'drift', label: 'Drift', config: {}, position: { x: 300, y: 700 } },
    {
      id: 'write_drift',
      type: 'stateWrite',
      label: 'Write drift',
      config: { container: 'graph_state', state: 'drift' },
      position: { x: 500, y: 700 },
    },
  );
  g.edges.push(
    { id: 'e_drift_in', source: 'loop_in', sourceHandle: 'step', target: 'drift', targetHandle: 'trigger' },
    {
      id: 'e_drift_out',
      source: 'drift',
      sourceHandle: 'value',
      target: 'write_drift',
      targetHandle: 'value',
    },
  );
  g.access_grants.push({ id: 'ag_write_drift', node_id: 'write_drift', container_id: 'graph_state' });
  return g;
}

let server: RunningServer | undefined;

test.afterAll(async () => {
  await server?.stop();
});

test('Replay and verify: identical, then a changed plugin is named at its step with a mark on the timeline', async ({
  page,
}) => {
  server = await startServer(join(here, 'fixtures/replay-workspace'));
  const graph = driftGraph();
  writeFileSync(join(server.workspace, 'graphs', 'replay_drift.json'), JSON.stringify(graph));
  await page.goto(`${server.url}/?graph=replay_drift`);
  // This test's own server (its workspace has the plugin): absolute URLs, not the fixture's baseURL.
  const start = await page.request.post(`${server.url}/api/navigate/run`, {
    data: { loop_definition: graph, step_delay_ms: 0 },
  });
  expect(start.ok(), await start.text()).toBe(true);
  const runId = ((await start.json()) as { execution_id: string }).execution_id;
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`${server!.url}/api/navigate/run/status`)).json()) as {
            status: string;
          }
        ).status,
    )
    .toBe('done');
  const editor = new EditorPage(page);
  await expect(editor.container('graph_state')).toBeVisible();
  await page.goto(`${server.url}/?graph=replay_drift&run=${runId}`);
  await page.getByTestId('drawer-tab-timeline').click();
  await expect(page.getByTestId('timeline-count')).toHaveText(`${STEPS} steps`);

  await page.getByTestId('runs-menu').click();
  await page.getByTestId('runs-replay').click();
  const verdict = page.getByTestId('replay-verdict');
  await expect(verdict).toHaveAttribute('data-state', 'identical');
  await expect(page.getByTestId('replay-verdict-message')).toContainText(`${STEPS} steps identical`);
  await expect(page.locator('[data-replay-diff="true"]')).toHaveCount(0);

  // The plugin now outputs 1 from step 4 on: the replay parts from the recording there.
  writeFileSync(join(server.workspace, 'drift-from.txt'), '4\n');
  await page.getByTestId('runs-menu').click();
  await page.getByTestId('runs-replay').click();
  await expect(verdict).toHaveAttribute('data-state', 'differs');
  await expect(verdict).toHaveAttribute('data-step', '4');
  await expect(page.getByTestId('replay-verdict-message')).toContainText(
    "step 4: slot graph_state.drift (written by node 'write_drift') differs: recorded 0, replayed 1",
  );
  await expect(page.getByTestId('timeline-tick-4')).toHaveAttribute('data-replay-diff', 'true');
  await expect(page.locator('[data-replay-diff="true"]')).toHaveCount(1);
  await page.getByTestId('replay-verdict-goto').click();
  await expect(page.getByTestId('timeline-selected')).toHaveText('inspecting step 4');
});
