// The bottom drawer opens on State; Issues comes forward by itself only when an opened graph has
// something to fix (validation errors or load warnings), not for info notes alone.
import { describe, expect, it } from 'vitest';
import { createEditorStore } from '../store/editor.store.ts';
import { importText } from './importExport.ts';

const slot = (type: string) => ({ type, value_type: 'ANY', lifetime: 'forever' });
const text = (g: Record<string, unknown>) =>
  JSON.stringify({
    name: 'g',
    eval_graph: false,
    nodes: [],
    edges: [],
    containers: [],
    access_grants: [],
    ...g,
  });

describe('drawer tab on load', () => {
  it('defaults to State', () => {
    expect(createEditorStore().getState().drawerTab).toBe('state');
  });

  it('stays on State for a graph with only warnings and info notes from validation', () => {
    const store = createEditorStore();
    // An ungranted container (warning) with a Statewire-only reducer (info note).
    const g = { containers: [{ id: 'mem', states: { seen: slot('union') } }] };
    expect(importText(text(g), 'info.json', store)).toBe(true);
    const issues = store.getState().tabs[0]!.loadWarnings;
    expect(issues).toEqual([]);
    expect(store.getState().drawerTab).toBe('state');
  });

  it('switches to Issues for a graph with a validation error', () => {
    const store = createEditorStore();
    const g = {
      containers: [{ id: 'mem', states: { frames: { ...slot('lastWrite'), value_type: 'DEPTH' } } }],
    };
    expect(importText(text(g), 'error.json', store)).toBe(true);
    expect(store.getState().drawerTab).toBe('issues');
  });

  it('switches to Issues when loading warned (e.g. stray keys)', () => {
    const store = createEditorStore();
    expect(importText(text({ stray_key: 1 }), 'warn.json', store)).toBe(true);
    expect(store.getState().tabs[0]!.loadWarnings.length).toBeGreaterThan(0);
    expect(store.getState().drawerTab).toBe('issues');
  });
});
