import { describe, expect, it } from 'vitest';
import type { SelectionIds } from '../store/ui.slice.ts';
import { createSelectionTracker, selectionFromFlowIds } from './selectionSync.ts';

const flush = () => new Promise<void>((r) => queueMicrotask(r));

describe('selection from select changes', () => {
  it('maps flow ids to editor ids by kind, sorted', () => {
    expect(selectionFromFlowIds(['b', 'c:m', 'a'], ['g:g1', 'e:e2', 'e:e1'])).toEqual({
      nodes: ['a', 'b'],
      containers: ['m'],
      edges: ['e1', 'e2'],
      grants: ['g1'],
    });
  });

  it('publishes once per burst, ignoring non-select changes', async () => {
    const published: SelectionIds[] = [];
    const t = createSelectionTracker((s) => published.push(s));
    t.nodeChanges([{ type: 'position', id: 'a' }]);
    await flush();
    expect(published).toEqual([]);
    t.reset([], ['e:e1']);
    // A click on a node: React Flow deselects the edge and selects the node in one burst.
    t.edgeChanges([{ type: 'select', id: 'e:e1', selected: false }]);
    t.nodeChanges([{ type: 'select', id: 'a', selected: true }]);
    await flush();
    expect(published).toEqual([{ nodes: ['a'], containers: [], edges: [], grants: [] }]);
  });

  it('starts from the selection the store set (reset)', async () => {
    const published: SelectionIds[] = [];
    const t = createSelectionTracker((s) => published.push(s));
    t.reset(['a', 'c:m'], []);
    t.nodeChanges([{ type: 'select', id: 'b', selected: true }]);
    await flush();
    expect(published.at(-1)).toEqual({ nodes: ['a', 'b'], containers: ['m'], edges: [], grants: [] });
  });
});
