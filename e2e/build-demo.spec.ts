// A user builds a demo graph from an empty canvas by mouse and keyboard: nodes from the library,
// data edges (one refused with its reason), a loop pair, a state container with one slot of each
// reducer and lifetime, grants (a duplicate refused), then saves, reloads, compares the saved file
// with the expected canonical JSON, and walks undo/redo through the whole sequence.
import { readFileSync } from 'node:fs';
import { EditorPage } from './pages/EditorPage.ts';
import { InspectorPanel } from './pages/InspectorPanel.ts';
import { canonical, keepActual } from './canonical.ts';
import { expect, fixturePath, test } from './fixtures.ts';

test('build, save, reload and undo/redo the demo graph', async ({ page, server }) => {
  test.setTimeout(120_000);
  const editor = new EditorPage(page);
  const inspector = new InspectorPanel(page);
  await editor.open();
  await expect(editor.activeTab()).toContainText('Untitled');
  await editor.press('g'); // snap to grid: drops land on the 20 px grid

  await editor.dragFromLibrary('llmCall', 200, 80);
  await editor.dragFromLibrary('textParse', 480, 80);
  await editor.dragFromLibrary('textViewer', 760, 80);
  await editor.dragFromLibrary('iterIn', 200, 420);
  for (const id of ['llmCall_1', 'textParse_1', 'textViewer_1', 'iterIn_1', 'iterOut_1'])
    await expect(editor.node(id)).toBeVisible();

  // A lossy connection is refused and the reason shows at the cursor.
  await editor.connect('llmCall_1', 'responses', 'textParse_1', 'text');
  await expect(editor.refusal).toContainText('LIST[TEXT] → TEXT loses items');
  await expect(page.locator('.react-flow__edge-data')).toHaveCount(0);
  await editor.connect('llmCall_1', 'response', 'textParse_1', 'text');
  await editor.connect('textParse_1', 'value', 'textViewer_1', 'text');
  await editor.connect('iterIn_1', 'step', 'llmCall_1', 'plan');
  await expect(page.locator('.react-flow__edge-data')).toHaveCount(3);

  // A state container from the library, renamed, with one slot of each reducer and lifetime.
  await editor.dragFromLibrary('__container__', 480, 300);
  await expect(editor.container('container_1')).toBeVisible();
  await editor.selectContainer('container_1');
  await inspector.commit('container-id', 'memory');
  await inspector.commit('container-label', 'Memory');
  await expect(editor.container('memory')).toContainText('Memory');
  await inspector.addSlot({
    name: 'notes',
    reducer: 'accumulator',
    lifetime: 'episode',
    valueType: 'TEXT',
    maxSize: '20',
  });
  await inspector.addSlot({ name: 'last', reducer: 'lastWrite', lifetime: 'forever', initial: '{"k": 1}' });
  await inspector.addSlot({ name: 'turns', reducer: 'counter', lifetime: 'step', initial: '0' });
  await inspector.addSlot({ name: 'facts', reducer: 'merge', lifetime: 'run' });
  await inspector.addSlot({ name: 'seen', reducer: 'union', lifetime: 'custom', resetOn: 'my_signal' });
  await inspector.addSlot({ name: 'agents', reducer: 'byKey', lifetime: 'forever', fields: ['score'] });

  // Bad slot input is refused with the reason and changes nothing.
  await inspector.commit('slot-notes-value-type', 'IMAGE');
  await expect(page.getByTestId('slot-notes-value-type-error')).toContainText('raw wire payload');
  await inspector.commit('slot-notes-value-type', 'TEXT');
  await inspector.commit('slot-last-name', '__hidden');
  await expect(page.getByTestId('slot-last-name-error')).toContainText('reserved');
  await page.getByTestId('slot-last-name').press('Escape');
  await inspector.commit('slot-last-initial', '{oops');
  await expect(page.getByTestId('slot-last-initial-error')).toContainText('not valid JSON');
  await page.getByTestId('slot-last-initial').press('Escape');

  const memory = editor.container('memory');
  await expect(memory.getByTestId('reducer-badge')).toHaveText([
    'accumulator',
    'lastWrite',
    'counter',
    'merge',
    'union',
    'byKey',
  ]);
  await expect(memory.getByTestId('lifetime-badge')).toHaveText(['episode', 'step', 'run', 'custom']);
  await expect(page.getByTestId('slot-row-memory-seen').getByTestId('lifetime-badge')).toHaveAttribute(
    'title',
    /my_signal/,
  );

  // Grants by dragging the node's state handle to the container; a duplicate is refused.
  await editor.grant('llmCall_1', 'memory');
  await editor.grant('textParse_1', 'memory');
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(2);
  await editor.grant('llmCall_1', 'memory');
  await expect(editor.refusal).toContainText('"llmCall_1" already has access to "memory"');
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(2);
  await expect(page.locator('.react-flow__edge-data')).toHaveCount(3);

  // Hovering the container highlights the nodes granted to it.
  await memory.hover();
  await expect(editor.node('llmCall_1')).toHaveAttribute('data-related', 'true');
  await expect(editor.node('textViewer_1')).toHaveAttribute('data-related', 'false');

  // Save (never saved → Save as dialog), then compare the file with the expected canonical JSON.
  await editor.press('Control+s');
  await page.getByTestId('save-name').fill('demo_built');
  await page.getByTestId('save-confirm').click();
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'false');
  await expect(editor.activeTab()).toContainText('demo_built');
  const saved = canonical(server.readGraph('demo_built'));
  keepActual('demo_built.actual.json', saved);
  const expected = readFileSync(fixturePath('expected/demo_built.json'), 'utf8');
  expect(saved).toBe(expected);

  // Reload: the tab comes back (journal) and so does the graph; open it from the explorer too.
  await editor.waitJournal();
  await page.reload();
  await expect(page.locator('html[data-ready="true"]')).toBeAttached();
  await expect(editor.container('memory')).toBeVisible();
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'false');
  await page.getByTestId('explorer-graph-demo_built').dblclick();
  await expect(page.getByTestId('tab')).toHaveCount(1);

  // Undo history lives in the session, so after the reload a drag is the one step to undo; undoing
  // it must not touch the saved file, and redo brings the move back.
  const think = editor.node('llmCall_1');
  const box = (await think.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 8);
  await page.mouse.down();
  await page.mouse.move(box.x + 90, box.y + 48, { steps: 6 });
  await page.mouse.up();
  await expect(editor.activeTab()).toHaveAttribute('data-dirty', 'true');
  await editor.press('Control+z');
  expect(canonical(server.readGraph('demo_built'))).toBe(expected);
  await expect(page.getByTestId('undo')).toBeDisabled();
  await editor.press('Control+Shift+z');
  await expect(page.getByTestId('redo')).toBeDisabled();
});

test('undo/redo walks back through the whole build sequence', async ({ page }) => {
  const editor = new EditorPage(page);
  const inspector = new InspectorPanel(page);
  await editor.open();
  await editor.dragFromLibrary('llmCall', 200, 80);
  await editor.dragFromLibrary('textParse', 480, 80);
  await editor.connect('llmCall_1', 'response', 'textParse_1', 'text');
  await editor.dragFromLibrary('__container__', 480, 300);
  await editor.selectContainer('container_1');
  await inspector.addSlot({ name: 'notes', reducer: 'accumulator', lifetime: 'episode' });
  await editor.grant('llmCall_1', 'container_1');
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(1);
  await page.getByTestId('canvas').click({ position: { x: 5, y: 5 } });

  // 9 edits: 2 nodes, 1 edge, 1 container, add slot, rename, reducer, lifetime, grant.
  const steps = 9;
  for (let i = 0; i < steps; i++) await editor.press('Control+z');
  await expect(page.getByTestId('undo')).toBeDisabled();
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
  for (let i = 0; i < steps; i++) await editor.press('Control+Shift+z');
  await expect(page.getByTestId('redo')).toBeDisabled();
  await expect(page.locator('.react-flow__edge-grant')).toHaveCount(1);
  await expect(page.getByTestId('slot-row-container_1-notes').getByTestId('lifetime-badge')).toHaveText(
    'episode',
  );
  await expect(page.locator('.react-flow__edge-data')).toHaveCount(1);
});
