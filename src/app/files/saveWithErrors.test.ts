// Saving a graph with validation errors asks first: nothing is written until "Save anyway".
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyGraph, type GraphDef } from '../../domain/graph/graph.schema.ts';
import { createEditorStore } from '../store/editor.store.ts';
import { saveTab } from './documents.ts';
import { askSaveWithErrors, saveConfirmStore } from './saveConfirm.ts';
import type * as Client from '../api/client.ts';

const calls: string[] = [];
vi.mock('../api/client.ts', async (importOriginal) => {
  const orig = await importOriginal<typeof Client>();
  return {
    ...orig,
    api: {
      ...orig.api,
      getGraph: (id: string) => {
        calls.push(`get ${id}`);
        return Promise.reject(new orig.ApiError(404, 'not found', null));
      },
      putGraph: (id: string) => {
        calls.push(`put ${id}`);
        return Promise.resolve({});
      },
    },
  };
});

function broken(): GraphDef {
  const g = emptyGraph('broken');
  g.nodes = [{ id: 'v', type: 'textViewer', label: 'v', position: { x: 0, y: 0 }, config: {} }];
  // A dangling edge: its source node does not exist.
  g.edges = [{ id: 'e1', source: 'gone', target: 'v', sourceHandle: 'value', targetHandle: 'text' }];
  return g;
}

describe('save with errors', () => {
  beforeEach(() => {
    calls.length = 0;
    askSaveWithErrors(null);
  });

  it('asks with the error count and writes nothing until Save anyway', async () => {
    const store = createEditorStore();
    const tab = store.getState().openTab({ graph: broken(), savedId: 'broken', title: 'broken' });
    expect(await saveTab(undefined, store)).toBe(false);
    const q = saveConfirmStore.getState().question;
    expect(q?.tabId).toBe(tab);
    expect(q?.errors).toBeGreaterThan(0);
    expect(q?.messages.length).toBe(Math.min(q!.errors, 5));
    expect(calls).toEqual([]);
    expect(await saveTab(tab, store, { allowErrors: true })).toBe(true);
    expect(calls).toEqual(['get broken', 'put broken']);
  });

  it('a never-saved graph goes to the Save-as dialog (which names the errors), not this question', async () => {
    const store = createEditorStore();
    const tab = store.getState().openTab({ graph: broken(), title: 'new' });
    expect(await saveTab(undefined, store)).toBe(false);
    expect(store.getState().dialog).toEqual({ kind: 'saveAs', tabId: tab });
    expect(saveConfirmStore.getState().question).toBeNull();
    expect(calls).toEqual([]);
  });

  it('saves a clean graph without asking', async () => {
    const store = createEditorStore();
    const clean = { ...emptyGraph('clean'), eval_graph: false };
    store.getState().openTab({ graph: clean, savedId: 'clean', title: 'clean' });
    expect(await saveTab(undefined, store)).toBe(true);
    expect(saveConfirmStore.getState().question).toBeNull();
    expect(calls).toEqual(['get clean', 'put clean']);
  });
});
