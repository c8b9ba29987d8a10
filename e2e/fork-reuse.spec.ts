// Re-run without paying twice, in the editor (docs/replay.md): a finished run of a loop whose `think`
// node makes one LLM call per step (the offline provider: every call recorded). Fork from step 2
// opens the fork dialog, which shows the server's preview — all 4 recorded calls after step 2
// reused — before anything starts; the fork, played to its end, answers them from the recording,
// and its Log marks each of those calls "reused".
import { llmLoopGraph } from '../src/server/test/llmLoop.testutil.ts';
import { expect, test } from './fixtures.ts';
import { startRun, untilRunDone } from './restRuns.ts';

const STEPS = 6;
const GRAPH = llmLoopGraph('reuse_llm', STEPS);

test('the fork dialog previews the reused calls; the fork Log marks them reused', async ({
  page,
  server,
}) => {
  server.writeGraph('reuse_llm', GRAPH);
  const parent = await startRun(page.request, GRAPH, 0);
  await untilRunDone(page.request);

  await page.goto(`/?graph=reuse_llm&run=${parent}`);
  await page.getByTestId('drawer-tab-timeline').click();
  await expect(page.getByTestId('timeline-count')).toHaveText(`${STEPS} steps`);

  await page.getByTestId('timeline-tick-2').click();
  await page.getByTestId('timeline-fork').click();
  const dialog = page.getByTestId('fork-dialog');
  await expect(dialog).toBeVisible();
  const preview = page.getByTestId('fork-preview');
  await expect(preview).toHaveAttribute('data-state', 'ready');
  await expect(preview).toHaveText('4 calls reused: every recorded call after step 2 is unchanged');
  await expect(preview).toHaveAttribute('data-reused', '4');
  // Nothing started yet: the parent is still the followed run.
  await expect(page.getByTestId('timeline-panel')).not.toContainText('fork_');

  await page.getByTestId('fork-start').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('timeline-panel')).toContainText('fork_');
  // The tab and the address now name the fork it shows, not the parent it was opened with.
  const tab = page.locator('[data-testid="tab"][data-active="true"]');
  await expect(tab.getByTestId('tab-detail')).toHaveText(/^fork_/);
  await expect(page).toHaveURL(/[?&]run=fork_/);
  await page.getByTestId('run-play').click();
  await expect(page.getByTestId('timeline-count')).toHaveText(`${STEPS} steps`);

  await page.getByTestId('drawer-tab-log').click();
  const reused = page.locator('[data-testid="run-log-line"][data-kind="effect"][data-mode="reused"]');
  await expect(reused).toHaveCount(4);
  await expect(page.getByTestId('log-reused')).toHaveCount(4);
  await expect(reused.first()).toContainText(`answer of run ${parent}`);
  await expect(page.getByTestId('log-reused').first()).toHaveAttribute(
    'title',
    new RegExp(`^answered from run ${parent}'s recorded call ${parent}:[\\d.]+:think:0:`),
  );
  // None of the fork's calls was made live.
  await expect(
    page.locator('[data-testid="run-log-line"][data-kind="effect"][data-mode="recorded"]'),
  ).toHaveCount(0);
});
