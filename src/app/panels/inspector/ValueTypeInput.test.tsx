// @vitest-environment happy-dom
// The slot editor's value type: the registry's types offered with descriptions, unknown and removed
// types refused as you type (with the reason) and never committed; a suggestion or a known type commits.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { emptyGraph, STATE_VALUE_TYPES } from '../../../domain/graph/graph.schema.ts';
import { activeTab } from '../../store/doc.slice.ts';
import { editorStore } from '../../store/editor.store.ts';
import { ContainerInspector } from './ContainerInspector.tsx';

afterEach(cleanup);

function open() {
  const g = emptyGraph('t');
  g.containers = [
    {
      id: 'mem',
      label: 'Memory',
      position: { x: 0, y: 0 },
      states: {
        notes: { type: 'lastWrite', value_type: 'ANY', config: {}, lifetime: 'forever', reset_on: [] },
      },
    },
  ];
  editorStore.setState({ tabs: [], activeTabId: null });
  editorStore.getState().openTab({ graph: g });
  render(<ContainerInspector id="mem" />);
  return screen.getByTestId('slot-notes-value-type');
}

const valueType = () => activeTab(editorStore.getState())!.graph.containers[0]!.states.notes!.value_type;
const error = () => screen.queryByTestId('slot-notes-value-type-error')?.textContent ?? null;
/** The types listed in the value type's suggestion box, in order. */
const suggested = () =>
  within(screen.getByTestId('slot-notes-value-type-options'))
    .getAllByRole('option')
    .map((o) => o.textContent!.split(' ')[0]);
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe('slot value type', () => {
  it('offers every known value type with its description when focused', () => {
    const input = open();
    fireEvent.focus(input);
    expect(suggested()).toEqual([...STATE_VALUE_TYPES]);
    expect(screen.getByTestId('slot-notes-value-type-option-POSE').textContent).toMatch(
      /position and heading/,
    );
    expect(screen.getByTestId('slot-notes-value-type-option-ANY').textContent).toMatch(/any JSON value/);
  });

  it('narrows the suggestions while typing the start of a type, without refusing it yet', () => {
    const input = open();
    fireEvent.focus(input);
    type(input, 'po');
    expect(suggested()).toEqual(['POSE', 'POINTCLOUD']);
    expect(error()).toBeNull();
    fireEvent.keyDown(input, { key: 'Enter' }); // "PO" is not a type: refused, not committed
    expect(error()).toMatch(/unknown value type 'PO'/);
    expect(valueType()).toBe('ANY');
  });

  it('refuses an unknown type as it is typed, with the allowed ones, and commits nothing', () => {
    const input = open();
    fireEvent.focus(input);
    type(input, 'FOO');
    expect(error()).toBe(`unknown value type 'FOO'; use one of ${STATE_VALUE_TYPES.join(', ')}`);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.blur(input);
    expect(valueType()).toBe('ANY');
    expect(error()).toMatch(/unknown value type 'FOO'/);
  });

  it('refuses a removed raw payload type as it is typed, saying why', () => {
    const input = open();
    type(input, 'image');
    expect(error()).toMatch(/^IMAGE is a raw wire payload, not a memory type/);
    fireEvent.blur(input);
    expect(valueType()).toBe('ANY');
    fireEvent.keyDown(input, { key: 'Escape' }); // back to the committed value, no error
    expect((input as HTMLInputElement).value).toBe('ANY');
    expect(error()).toBeNull();
  });

  it('picking a suggestion or typing a known type commits it (one undo step each)', () => {
    const input = open();
    fireEvent.focus(input);
    fireEvent.mouseDown(screen.getByTestId('slot-notes-value-type-option-POSE'));
    expect(valueType()).toBe('POSE');
    expect(screen.queryByTestId('slot-notes-value-type-options')).toBeNull();
    type(input, 'text');
    expect(error()).toBeNull();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(valueType()).toBe('TEXT');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' }); // the second suggestion: BOOL
    expect(valueType()).toBe('BOOL');
    editorStore.getState().undo();
    expect(valueType()).toBe('TEXT');
  });
});
