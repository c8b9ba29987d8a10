// @vitest-environment happy-dom
// Graph inspector › Features and the edge inspector's condition/effect form and raw JSON: every
// accepted change is one undo step; a refused one (bad feature, half-made condition, invalid JSON)
// leaves the graph as it was and says why.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { emptyGraph, type GraphDef } from '../../domain/graph/graph.schema.ts';
import { activeTab } from '../store/doc.slice.ts';
import { editorStore } from '../store/editor.store.ts';
import { EdgeInspector } from './EdgeInspector.tsx';
import { FeaturesSection } from './FeaturesSection.tsx';

afterEach(cleanup);

function open(features = true): void {
  const g: GraphDef = emptyGraph('t');
  g.nodes = ['router', 'left', 'right'].map((id) => ({
    id,
    type: 'constant',
    label: id,
    position: { x: 0, y: 0 },
    config: {},
  }));
  g.edges = [
    { id: 'e_l', source: 'router', target: 'left', sourceHandle: 'value', targetHandle: 'in' },
    { id: 'e_r', source: 'router', target: 'right', sourceHandle: 'value', targetHandle: 'in' },
  ];
  if (features) g.features = [{ name: 'phase', domain: { enum: ['explore', 'exploit', 'done'] } }];
  editorStore.setState({ tabs: [], activeTabId: null });
  editorStore.getState().openTab({ graph: g });
}

const graph = () => activeTab(editorStore.getState())!.graph;
const edge = (id: string) => graph().edges.find((e) => e.id === id)!;
const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('Features section', () => {
  it('declares, edits (rename follows into conditions), refuses bad input, removes; undo restores', () => {
    open(false);
    render(<FeaturesSection />);
    fireEvent.click(screen.getByTestId('feature-add'));
    type('feature-name', 'phase');
    type('feature-values', '');
    fireEvent.click(screen.getByTestId('feature-save'));
    expect(screen.getByTestId('feature-error').textContent).toMatch(/list the values/);
    expect(graph().features).toBeUndefined();
    type('feature-values', 'explore, exploit, done');
    type('feature-description', 'what the agent does');
    fireEvent.click(screen.getByTestId('feature-save'));
    expect(graph().features).toEqual([
      { name: 'phase', domain: { enum: ['explore', 'exploit', 'done'] }, description: 'what the agent does' },
    ]);
    expect(screen.getByTestId('feature-row-phase').textContent).toContain('{explore, exploit, done}');

    // A duplicate name is refused.
    fireEvent.click(screen.getByTestId('feature-add'));
    type('feature-name', 'phase');
    type('feature-kind', 'bool');
    fireEvent.click(screen.getByTestId('feature-save'));
    expect(screen.getByTestId('feature-error').textContent).toBe('a feature named phase already exists');
    fireEvent.click(screen.getByTestId('feature-cancel'));

    // Rename: the edge condition follows.
    act(() => {
      editorStore.getState().edit((g) => ({
        ok: true,
        graph: {
          ...g,
          edges: g.edges.map((e) =>
            e.id === 'e_l' ? { ...e, condition: { feature: 'phase', in: ['explore'] } } : e,
          ),
        },
      }));
    });
    fireEvent.click(screen.getByTestId('feature-edit-phase'));
    type('feature-name', 'mode');
    fireEvent.click(screen.getByTestId('feature-save'));
    expect(graph().features![0]!.name).toBe('mode');
    expect(edge('e_l').condition).toEqual({ feature: 'mode', in: ['explore'] });

    fireEvent.click(screen.getByTestId('feature-remove-mode'));
    expect(graph().features).toBeUndefined();
    act(() => editorStore.getState().undo());
    expect(graph().features![0]!.name).toBe('mode');
    act(() => editorStore.getState().undo());
    expect(graph().features![0]!.name).toBe('phase');
    expect(edge('e_l').condition).toEqual({ feature: 'phase', in: ['explore'] });
  });
});

describe('Edge inspector', () => {
  it('builds a condition with the form, one undo step per change; a half-made one leaves the edge', () => {
    open();
    render(<EdgeInspector id="e_l" />);
    // Plain fan-out: every edge delivers, no routing port to explain yet.
    expect(screen.queryByTestId('edge-port-siblings')).toBeNull();
    fireEvent.click(screen.getByTestId('condition-add'));
    expect(edge('e_l').condition).toEqual({ feature: 'phase', in: ['explore'] });
    expect(screen.getByTestId('edge-port-siblings').textContent).toContain('exactly one of these 2 edges');
    fireEvent.click(screen.getByTestId('cond-value-exploit'));
    expect(edge('e_l').condition).toEqual({ feature: 'phase', in: ['explore', 'exploit'] });
    expect(screen.getByTestId('edge-route-summary').textContent).toBe('phase ∈ {explore, exploit}');

    // Unticking every value is no condition: the edge keeps the last valid one.
    fireEvent.click(screen.getByTestId('cond-value-explore'));
    fireEvent.click(screen.getByTestId('cond-value-exploit'));
    expect(screen.getByTestId('condition-error').textContent).toMatch(/pick at least one value of phase/);
    expect(edge('e_l').condition).toEqual({ feature: 'phase', in: ['exploit'] });

    // Combinator: wrap in "not".
    fireEvent.click(screen.getByTestId('cond-value-done'));
    type('cond-kind', 'not');
    expect(edge('e_l').condition).toEqual({ not: { feature: 'phase', in: ['done'] } });

    // Effect: assign phase := exploit.
    type('effect-mode', 'rules');
    type('effect-rule-0-value', JSON.stringify('exploit'));
    expect(edge('e_l').effect).toEqual({ assign: { phase: 'exploit' } });

    act(() => editorStore.getState().undo());
    expect(edge('e_l').effect).toEqual({ assign: { phase: 'explore' } });
    act(() => editorStore.getState().undo());
    expect(edge('e_l').effect).toBeUndefined();
    act(() => editorStore.getState().undo());
    // The form follows the undo.
    expect(edge('e_l').condition).toEqual({ feature: 'phase', in: ['done'] });
    expect((screen.getByTestId('cond-kind') as HTMLSelectElement).value).toBe('feature');
  });

  it('slot comparisons commit on Enter', () => {
    open();
    render(<EdgeInspector id="e_r" />);
    fireEvent.click(screen.getByTestId('condition-add'));
    type('cond-kind', 'slot');
    const slot = screen.getByTestId('cond-slot');
    fireEvent.change(slot, { target: { value: 'mem.score' } });
    fireEvent.keyDown(slot, { key: 'Enter' });
    type('cond-op', '>=');
    const value = screen.getByTestId('cond-value');
    fireEvent.change(value, { target: { value: '3' } });
    fireEvent.keyDown(value, { key: 'Enter' });
    expect(edge('e_r').condition).toEqual({ slot: 'mem.score', path: '$', op: '>=', value: 3 });
  });

  it('raw JSON shows the same object; invalid JSON is an inline error and the edge is untouched', () => {
    open();
    render(<EdgeInspector id="e_l" />);
    fireEvent.click(screen.getByTestId('condition-add'));
    fireEvent.click(screen.getByTestId('route-json-toggle'));
    const text = screen.getByTestId('route-json-text') as HTMLTextAreaElement;
    expect(JSON.parse(text.value)).toEqual({ condition: { feature: 'phase', in: ['explore'] } });
    const before = graph();
    fireEvent.change(text, { target: { value: '{"condition": {"feature": "phase", "in": [' } });
    fireEvent.click(screen.getByTestId('route-json-apply'));
    expect(screen.getByTestId('route-json-error').textContent).toMatch(
      /not valid JSON.*the edge is unchanged/,
    );
    expect(graph()).toBe(before);
    fireEvent.change(text, { target: { value: '{"condition": {"feature": "phase", "in": []}}' } });
    fireEvent.click(screen.getByTestId('route-json-apply'));
    expect(screen.getByTestId('route-json-error').textContent).toMatch(/^at condition/);
    expect(graph()).toBe(before);
    fireEvent.change(text, {
      target: {
        value: '{"condition": {"any": [{"feature": "phase", "eq": "done"}]}, "effect": "unconstrained"}',
      },
    });
    fireEvent.click(screen.getByTestId('route-json-apply'));
    expect(edge('e_l')).toMatchObject({
      condition: { any: [{ feature: 'phase', eq: 'done' }] },
      effect: 'unconstrained',
    });
    // Back in the form, the rows show it.
    fireEvent.click(screen.getByTestId('route-json-toggle'));
    expect((screen.getByTestId('cond-kind') as HTMLSelectElement).value).toBe('any');
    expect((screen.getByTestId('effect-mode') as HTMLSelectElement).value).toBe('unconstrained');
  });
});
