// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { createEditorStore } from '../store/editor.store.ts';
import { locationFor, startUrlSync } from './urlSync.ts';

describe('locationFor', () => {
  it('puts the saved id of the active tab in ?graph and drops ?run', () => {
    expect(locationFor('http://h/?run=r1', 'team/nav')).toBe('http://h/?graph=team%2Fnav');
    expect(locationFor('http://h/?graph=old', 'new')).toBe('http://h/?graph=new');
    expect(locationFor('http://h/?graph=same', 'same')).toBeNull();
  });

  it('an unsaved tab drops ?graph but keeps ?run (a run tab)', () => {
    expect(locationFor('http://h/?graph=a&run=r1', null)).toBe('http://h/?run=r1');
    expect(locationFor('http://h/?run=r1', null)).toBeNull();
    expect(locationFor('http://h/', null)).toBeNull();
  });

  it("a run's tab puts the run it shows in ?run", () => {
    expect(locationFor('http://h/?run=r1', null, 'r1')).toBeNull();
    expect(locationFor('http://h/?run=r1', null, 'fork_2')).toBe('http://h/?run=fork_2');
    expect(locationFor('http://h/?graph=a', null, 'r1')).toBe('http://h/?run=r1');
  });
});

describe('startUrlSync', () => {
  let stop: (() => void) | null = null;
  afterEach(() => {
    stop?.();
    window.history.replaceState(null, '', '/');
  });

  it('follows tab switches and saves (save as / rename change the id)', () => {
    window.history.replaceState(null, '', '/?graph=first');
    const store = createEditorStore();
    const a = store.getState().openTab({ graph: emptyGraph('A'), savedId: 'first', title: 'A' });
    stop = startUrlSync(store);
    expect(window.location.search).toBe('?graph=first');
    const b = store.getState().openTab({ graph: emptyGraph('B'), title: 'B' });
    expect(window.location.search).toBe('');
    store.getState().markSaved(b, 'team/b', '{}', 'B');
    expect(new URLSearchParams(window.location.search).get('graph')).toBe('team/b');
    store.getState().setActiveTab(a);
    expect(new URLSearchParams(window.location.search).get('graph')).toBe('first');
  });

  it("a run's tab that goes on to show a fork links the fork; a file's tab stays the file's", () => {
    window.history.replaceState(null, '', '/?run=r1');
    const store = createEditorStore();
    const file = store.getState().openTab({ graph: emptyGraph('A'), savedId: 'a', title: 'A' });
    const run = store.getState().openTab({ graph: emptyGraph('A'), runId: 'r1', title: 'A' });
    stop = startUrlSync(store);
    expect(window.location.search).toBe('?run=r1');
    store.getState().showRunInTab(run, 'fork_2');
    expect(store.getState().tabs.find((t) => t.id === run)?.runId).toBe('fork_2');
    expect(window.location.search).toBe('?run=fork_2');
    store.getState().showRunInTab(file, 'fork_3');
    expect(store.getState().tabs.find((t) => t.id === file)?.runId).toBeNull();
  });
});
