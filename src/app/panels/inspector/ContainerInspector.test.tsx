// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { emptyGraph } from '../../../domain/graph/graph.schema.ts';
import { activeTab } from '../../store/doc.slice.ts';
import { editorStore } from '../../store/editor.store.ts';
import { ContainerInspector } from './ContainerInspector.tsx';

afterEach(cleanup);

function open() {
  const g = emptyGraph('t');
  g.containers = [{ id: 'mem', label: 'Memory', position: { x: 0, y: 0 }, states: {} }];
  editorStore.setState({ tabs: [], activeTabId: null });
  editorStore.getState().openTab({ graph: g });
  render(<ContainerInspector id="mem" />);
}

const slots = () => activeTab(editorStore.getState())!.graph.containers[0]!.states;

describe('ContainerInspector', () => {
  it('adds a slot, explains the reducer, refuses reserved names and removed value types', () => {
    open();
    fireEvent.click(screen.getByTestId('add-slot'));
    expect(Object.keys(slots())).toEqual(['slot_1']);
    fireEvent.change(screen.getByTestId('slot-slot_1-reducer'), { target: { value: 'accumulator' } });
    expect(slots().slot_1!.type).toBe('accumulator');
    expect(screen.getByTestId('slot-slot_1-reducer-help').textContent).toMatch(/appends/);

    const name = screen.getByTestId('slot-slot_1-name');
    fireEvent.change(name, { target: { value: '__x' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    expect(screen.getByTestId('slot-slot_1-name-error').textContent).toMatch(/reserved/);
    expect(Object.keys(slots())).toEqual(['slot_1']);

    const vt = screen.getByTestId('slot-slot_1-value-type');
    fireEvent.change(vt, { target: { value: 'DEPTH' } });
    fireEvent.keyDown(vt, { key: 'Enter' });
    expect(screen.getByTestId('slot-slot_1-value-type-error').textContent).toMatch(/raw wire payload/);
    expect(slots().slot_1!.value_type).toBe('ANY');
  });

  it('shows reset_on for custom lifetime and writes the signal list', () => {
    open();
    fireEvent.click(screen.getByTestId('add-slot'));
    fireEvent.change(screen.getByTestId('slot-slot_1-lifetime'), { target: { value: 'custom' } });
    const input = screen.getByTestId('slot-slot_1-reset-on');
    fireEvent.change(input, { target: { value: 'a, b' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(slots().slot_1).toMatchObject({ lifetime: 'custom', reset_on: ['a', 'b'] });
    editorStore.getState().undo();
    expect(slots().slot_1!.reset_on).toEqual([]);
  });
});
