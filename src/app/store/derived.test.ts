import { describe, expect, it } from 'vitest';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { createEditorStore } from './editor.store.ts';
import { isHoverRelated, issuesOf, portsOf } from './derived.ts';

describe('derived views', () => {
  it('gives iterIn init-side input handles, unknown types edge-derived handles, stable objects', () => {
    const store = createEditorStore();
    const g = emptyGraph('t');
    g.nodes = [
      {
        id: 'in',
        type: 'iterIn',
        label: '',
        position: { x: 0, y: 0 },
        config: { pairedWith: 'out', initPorts: [{ name: 'goal', wire_type: 'TEXT' }] },
      },
      {
        id: 'out',
        type: 'iterOut',
        label: '',
        position: { x: 0, y: 0 },
        config: { pairedWith: 'in', ports: [{ name: 'note' }] },
      },
      { id: 'x', type: 'acme__thing', label: '', position: { x: 0, y: 0 }, config: {} },
    ];
    g.edges = [{ id: 'e', source: 'in', target: 'x', sourceHandle: 'init_goal', targetHandle: 'q' }];
    store.getState().openTab({ graph: g });
    const p = portsOf(store.getState(), 'in')!;
    expect(p.inputs.map((i) => `${i.name}:${i.wire_type}`)).toEqual(['init_goal:TEXT']);
    expect(p.outputs.map((i) => i.name)).toEqual(['step', 'iteration', 'init_goal', 'iterout_note']);
    const u = portsOf(store.getState(), 'x')!;
    expect(u.known).toBe(false);
    expect(u.inputs.map((i) => i.name)).toEqual(['q']);
    store.getState().setHover({ kind: 'node', id: 'in' });
    expect(portsOf(store.getState(), 'in')).toBe(p);
  });

  it('highlights grant partners on hover and indexes issues by element', () => {
    const store = createEditorStore();
    const g = emptyGraph('t');
    g.nodes = [{ id: 'a', type: 'llmCall', label: '', position: { x: 0, y: 0 }, config: {} }];
    g.containers = [
      {
        id: 'm',
        label: '',
        position: { x: 0, y: 0 },
        states: {
          s: { type: 'lastWrite', value_type: 'IMAGE', config: {}, lifetime: 'forever', reset_on: [] },
        },
      },
    ];
    g.access_grants = [{ id: 'g', node_id: 'a', container_id: 'm' }];
    store.getState().openTab({ graph: g });
    store.getState().setHover({ kind: 'container', id: 'm' });
    expect(isHoverRelated(store.getState(), 'node', 'a')).toBe(true);
    store.getState().setHover({ kind: 'node', id: 'a' });
    expect(isHoverRelated(store.getState(), 'container', 'm')).toBe(true);
    const issues = issuesOf(store.getState());
    expect(issues.byElement.get('m')).toBe('error');
    expect(issuesOf(store.getState())).toBe(issues);
  });
});
