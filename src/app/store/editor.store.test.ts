import { describe, expect, it } from 'vitest';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import {
  addNodeOfType,
  addContainerAt,
  addSlotTo,
  commitMove,
  connectHandles,
  CONTAINER_ENTRY,
  deleteSelection,
} from './actions.ts';
import { currentLevel, createEditorStore } from './editor.store.ts';
import { activeTab } from './doc.slice.ts';
import { issuesOf } from './derived.ts';

function fresh() {
  const store = createEditorStore();
  store.getState().openTab({ graph: emptyGraph('t') });
  return store;
}

describe('editor store actions', () => {
  it('records one undo step per edit and redoes it', () => {
    const store = fresh();
    addNodeOfType('llmCall', { x: 0, y: 0 }, store);
    addNodeOfType('textParse', { x: 300, y: 0 }, store);
    expect(currentLevel(store.getState()).nodes.map((n) => n.id)).toEqual(['llmCall_1', 'textParse_1']);
    store.getState().undo();
    expect(currentLevel(store.getState()).nodes.map((n) => n.id)).toEqual(['llmCall_1']);
    store.getState().redo();
    expect(currentLevel(store.getState()).nodes).toHaveLength(2);
    expect(activeTab(store.getState())!.dirty).toBe(true);
  });

  it('a drag of several nodes is one undo step', () => {
    const store = fresh();
    addNodeOfType('llmCall', { x: 0, y: 0 }, store);
    addNodeOfType('textParse', { x: 300, y: 0 }, store);
    commitMove(
      new Map([
        ['llmCall_1', { x: 10, y: 10 }],
        ['textParse_1', { x: 310, y: 10 }],
      ]),
      store,
    );
    store.getState().undo();
    expect(currentLevel(store.getState()).nodes.map((n) => n.position)).toEqual([
      { x: 0, y: 0 },
      { x: 300, y: 0 },
    ]);
  });

  it('adding an iterIn adds its paired iterOut; deleting one deletes both', () => {
    const store = fresh();
    const r = addNodeOfType('iterIn', { x: 0, y: 0 }, store);
    expect(r.ids).toEqual(['iterIn_1', 'iterOut_1']);
    store.getState().setSelection({ nodes: ['iterOut_1'], containers: [], edges: [], grants: [] });
    deleteSelection(store);
    expect(currentLevel(store.getState()).nodes).toEqual([]);
  });

  it('connects, refuses with a reason, grants, refuses a duplicate grant — all undoable', () => {
    const store = fresh();
    addNodeOfType('llmCall', { x: 0, y: 0 }, store);
    addNodeOfType('textParse', { x: 300, y: 0 }, store);
    addNodeOfType(CONTAINER_ENTRY, { x: 0, y: 300 }, store);
    expect(
      connectHandles(
        { source: 'llmCall_1', sourceHandle: 'responses', target: 'textParse_1', targetHandle: 'text' },
        store,
      ),
    ).toEqual({ ok: false, reason: 'LIST[TEXT] → TEXT loses items' });
    expect(
      connectHandles(
        { source: 'llmCall_1', sourceHandle: 'response', target: 'textParse_1', targetHandle: 'text' },
        store,
      ),
    ).toEqual({ ok: true, kind: 'edge' });
    expect(
      connectHandles(
        { source: 'llmCall_1', sourceHandle: '__state__', target: 'container_1', targetHandle: 'state' },
        store,
      ),
    ).toEqual({ ok: true, kind: 'grant' });
    const dup = connectHandles(
      { source: 'container_1', sourceHandle: 'state', target: 'llmCall_1', targetHandle: 'prompt' },
      store,
    );
    expect(dup.ok).toBe(false);
    const level = currentLevel(store.getState());
    expect(level.edges.map((e) => e.id)).toEqual(['e_llmCall_1_response__textParse_1_text']);
    expect(level.access_grants).toEqual([
      { id: 'ag_llmCall_1_container_1', node_id: 'llmCall_1', container_id: 'container_1' },
    ]);
    store.getState().undo();
    expect(currentLevel(store.getState()).access_grants).toEqual([]);
  });

  it('slot edits are undoable', () => {
    const store = fresh();
    addContainerAt({ x: 0, y: 0 }, store);
    expect(addSlotTo('container_1', 'notes', undefined, store).ok).toBe(true);
    expect(addSlotTo('container_1', 'notes', undefined, store)).toEqual({
      ok: false,
      reason: 'a slot named "notes" already exists',
    });
    store.getState().undo();
    expect(currentLevel(store.getState()).containers[0]!.states).toEqual({});
  });

  it('drills into a composite and edits its subgraph only', () => {
    const store = createEditorStore();
    const g = emptyGraph('t');
    g.nodes = [
      {
        id: 'comp',
        type: 'compositeNode',
        label: '',
        position: { x: 0, y: 0 },
        config: {},
        subgraph: {
          ...emptyGraph('inner'),
          nodes: [{ id: 'gi', type: 'graphIn', label: '', position: { x: 0, y: 0 }, config: {} }],
        },
      },
    ];
    store.getState().openTab({ graph: g });
    store.getState().enterComposite('comp');
    addContainerAt({ x: 0, y: 0 }, store);
    const root = activeTab(store.getState())!.graph;
    expect(root.containers).toEqual([]);
    expect(root.nodes[0]!.subgraph!.containers.map((c) => c.id)).toEqual(['container_1']);
    store.getState().exitToDepth(0);
    expect(currentLevel(store.getState()).nodes.map((n) => n.id)).toEqual(['comp']);
  });

  it('closing the last tab leaves an empty Untitled tab', () => {
    const store = fresh();
    store.getState().closeTab(store.getState().activeTabId!);
    expect(store.getState().tabs).toHaveLength(1);
    expect(activeTab(store.getState())!.title).toBe('Untitled');
    expect(issuesOf(store.getState()).all).toEqual([]);
  });

  it("a new graph starts without issues; eval_graph is the user's to turn on, then it asks for a graphOut", () => {
    const store = createEditorStore();
    store.getState().newTab();
    expect(activeTab(store.getState())!.graph.eval_graph).toBe(false);
    expect(issuesOf(store.getState()).all).toEqual([]);
    store.getState().editRoot((g) => ({ ok: true, graph: { ...g, eval_graph: true } }));
    expect(issuesOf(store.getState()).all.map((i) => i.code)).toEqual(['eval-without-graphout']);
  });
});

describe('freeSpot', () => {
  it('moves a view-centre add below whatever already sits there', async () => {
    const { freeSpot } = await import('./actions.ts');
    const g = emptyGraph('t');
    g.nodes = [{ id: 'a', type: 'note', label: '', position: { x: 100, y: 100 }, config: {} }];
    expect(freeSpot(g, { x: 110, y: 90 })).toEqual({ x: 110, y: 230 });
    expect(freeSpot(g, { x: 600, y: 90 })).toEqual({ x: 600, y: 90 });
  });
});

describe('adding at the view centre', () => {
  it('asks the canvas on screen for its centre when the node is added, and uses the origin without one', async () => {
    const { addAtViewCentre } = await import('./actions.ts');
    const { provideViewCentre } = await import('./viewCentre.ts');
    const store = fresh();
    let centre = { x: 400, y: 300 };
    const unregister = provideViewCentre(() => centre);
    addAtViewCentre('note', store);
    // the view moved after the canvas registered: the add reads the centre at that moment
    centre = { x: 1200, y: -50 };
    addAtViewCentre('note', store);
    unregister();
    addAtViewCentre('note', store);
    expect(currentLevel(store.getState()).nodes.map((n) => n.position)).toEqual([
      { x: 400, y: 300 },
      { x: 1200, y: -50 },
      { x: 0, y: 0 },
    ]);
  });
});
