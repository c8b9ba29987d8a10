// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { addNodeOfType } from '../store/actions.ts';
import { createEditorStore } from '../store/editor.store.ts';
import { readJournal, startJournal } from './journal.ts';

async function settled() {
  for (let i = 0; i < 50 && document.documentElement.dataset.journal !== 'saved'; i++)
    await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 20));
  for (let i = 0; i < 50 && document.documentElement.dataset.journal !== 'saved'; i++)
    await new Promise((r) => setTimeout(r, 10));
}

describe('journal', () => {
  it('writes every open tab after each edit and reads them back in order', async () => {
    const store = createEditorStore();
    const stop = startJournal(store);
    store.getState().openTab({ graph: emptyGraph('first') });
    addNodeOfType('llmCall', { x: 1, y: 2 }, store);
    store.getState().openTab({ graph: emptyGraph('second'), savedId: 'second', diskText: '{}' });
    await settled();
    const entries = await readJournal();
    expect(entries.map((e) => e.title)).toEqual(['first', 'second']);
    expect(entries[0]!.dirty).toBe(true);
    expect(entries[0]!.graph.nodes.map((n) => n.id)).toEqual(['llmCall_1']);
    expect(entries[1]).toMatchObject({ savedId: 'second', dirty: false, active: true });

    store.getState().closeTab(store.getState().tabs[0]!.id);
    await settled();
    expect((await readJournal()).map((e) => e.title)).toEqual(['second']);
    stop();
  });
});
