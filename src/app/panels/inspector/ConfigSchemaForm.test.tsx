// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { BUILTIN_NODE_SPECS } from '../../../domain/catalog/catalog.builtins.ts';
import { makeCatalog } from '../../../domain/catalog/catalog.schema.ts';
import { emptyGraph } from '../../../domain/graph/graph.schema.ts';
import { serviceFunctionSpec } from '../../../domain/services/manifest.ts';
import { activeTab } from '../../store/doc.slice.ts';
import { editorStore } from '../../store/editor.store.ts';
import { NodeInspector } from './NodeInspector.tsx';

const STEP = serviceFunctionSpec('gridworld', {
  name: 'gridworld__env_step',
  description: 'Steps the grid.',
  input_ports: [],
  output_ports: [],
  ui_config: {},
  config_schema: {
    type: 'object',
    properties: {
      size: { type: 'integer', default: 8, minimum: 2 },
      noise: { type: 'number' },
      render: { type: 'boolean', default: true },
      mode: { type: 'string', enum: ['rgb', 'gray'] },
      goals: { type: 'array', items: { type: 'integer' } },
      tags: { type: 'array', items: { type: 'string' } },
      layout: { type: 'object' },
    },
  },
});

function open(config: Record<string, unknown>) {
  editorStore.getState().setCatalog(makeCatalog([...BUILTIN_NODE_SPECS, STEP]));
  const g = emptyGraph('t');
  g.nodes = [{ id: 'env', type: 'gridworld__env_step', label: 'env', position: { x: 0, y: 0 }, config }];
  editorStore.setState({ tabs: [], activeTabId: null });
  editorStore.getState().openTab({ graph: g });
  render(<NodeInspector id="env" />);
}

const tab = () => activeTab(editorStore.getState())!;
const config = () => tab().graph.nodes[0]!.config;

function type(testId: string, text: string) {
  const el = screen.getByTestId(testId);
  fireEvent.change(el, { target: { value: text } });
  fireEvent.blur(el);
}

beforeEach(() => editorStore.setState({ services: null }));
afterEach(cleanup);

describe('the config form from config_schema', () => {
  it('renders one control per schema property, of the declared kind', () => {
    open({ size: 8 });
    const kinds = Object.fromEntries(
      ['size', 'noise', 'render', 'mode', 'goals', 'tags', 'layout'].map((k) => [
        k,
        screen.getByTestId(`config-field-${k}`).dataset.kind,
      ]),
    );
    expect(kinds).toEqual({
      size: 'integer',
      noise: 'number',
      render: 'boolean',
      mode: 'enum',
      goals: 'array',
      tags: 'array',
      layout: 'json',
    });
    expect((screen.getByTestId('config-size') as HTMLInputElement).value).toBe('8');
    // The default shows while the key is unset.
    expect((screen.getByTestId('config-render') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('config-mode').tagName).toBe('SELECT');
  });

  it('each accepted change is one undo step; a refused one changes nothing and says why', () => {
    open({ size: 8 });
    const before = tab().past.length;
    type('config-size', '12');
    expect(config().size).toBe(12);
    expect(tab().past.length).toBe(before + 1);

    type('config-size', '1');
    expect(screen.getByTestId('config-size-error').textContent).toBe("'size' must be at least 2, got 1");
    expect(config().size).toBe(12);
    expect(tab().past.length).toBe(before + 1);

    type('config-goals', '3, 4, 5');
    expect(config().goals).toEqual([3, 4, 5]);
    fireEvent.click(screen.getByTestId('config-render'));
    expect(config().render).toBe(false);
    fireEvent.change(screen.getByTestId('config-mode'), { target: { value: 'gray' } });
    expect(config().mode).toBe('gray');
    expect(tab().past.length).toBe(before + 4);

    editorStore.getState().undo();
    expect(config().mode).toBeUndefined();
    expect(config().render).toBe(false);
  });

  it('raw JSON fields show parse errors inline and keep the draft', () => {
    open({ size: 8 });
    type('config-layout', '{"walls": [1');
    expect(screen.getByTestId('config-layout-error').textContent).toMatch(/^'layout': not valid JSON: /);
    expect((screen.getByTestId('config-layout') as HTMLTextAreaElement).value).toBe('{"walls": [1');
    expect(config().layout).toBeUndefined();
    type('config-layout', '{"walls": [1]}');
    expect(config().layout).toEqual({ walls: [1] });
    expect(screen.queryByTestId('config-layout-error')).toBeNull();
  });

  it('a stored value of another type is edited as JSON, not rewritten; unknown keys keep their editor', () => {
    open({ size: 8, tags: [1, 2], extra: 'kept' });
    expect(screen.getByTestId('config-field-tags').dataset.kind).toBe('json');
    expect((screen.getByTestId('config-tags') as HTMLTextAreaElement).value).toBe('[1,2]');
    expect(config().tags).toEqual([1, 2]);
    // Keys the schema does not declare are still editable (by their value), once.
    expect(screen.getAllByTestId('config-extra')).toHaveLength(1);
  });

  it('says in the inspector when the type’s service is down', () => {
    editorStore.getState().setServices({
      services: [
        {
          name: 'gridworld',
          url: 'http://127.0.0.1:9',
          managed: false,
          encoding: 'json',
          state: 'down',
          error: 'connection refused',
          version: '',
          description: '',
          types: [],
          containers: [],
          restarts: 0,
          pid: null,
          issues: [],
        },
      ],
      config_errors: [],
      executor_url: null,
    });
    open({});
    expect(screen.getByTestId('inspector-service-problem').textContent).toBe(
      "type `gridworld__env_step` is served by service 'gridworld', which is down: connection refused",
    );
  });
});
