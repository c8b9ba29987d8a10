// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { editorStore } from '../../store/editor.store.ts';
import { parseGraphInput } from '../../store/graphIo.ts';
import { ContainerInspector } from './ContainerInspector.tsx';

afterEach(cleanup);

describe('slot issues in the inspector', () => {
  it('an info note (a Statewire-only reducer) is not styled as an error', () => {
    const r = parseGraphInput({
      name: 't',
      eval_graph: false,
      nodes: [],
      edges: [],
      containers: [
        {
          id: 'mem',
          label: 'Memory',
          position: { x: 0, y: 0 },
          states: { seen: { type: 'union', value_type: 'ANY', lifetime: 'forever' } },
        },
      ],
    });
    if (!r.ok) throw new Error('fixture does not parse');
    const g = r.graph;
    editorStore.setState({ tabs: [], activeTabId: null });
    editorStore.getState().openTab({ graph: g });
    render(<ContainerInspector id="mem" />);
    const notes = screen.getByTestId('slot-seen-issues').children;
    expect(notes.length).toBeGreaterThan(0);
    const first = notes[0] as HTMLElement;
    expect(first.textContent).toMatch(/union/);
    expect(first.dataset.severity).toBe('info');
    expect(first.className).not.toMatch(/red/);
  });
});
