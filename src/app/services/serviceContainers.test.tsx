// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { BUILTIN_NODE_SPECS } from '../../domain/catalog/catalog.builtins.ts';
import { makeCatalog } from '../../domain/catalog/catalog.schema.ts';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import type { ServicesReport, ServiceStatus } from '../../domain/services/manifest.ts';
import { initialRunState, runStore } from '../run/run.store.ts';
import { editorStore } from '../store/editor.store.ts';
import { StatePanel } from '../panels/state/StatePanel.tsx';
import { ownedContainers, servicesUsedBy } from './serviceContainers.ts';

function status(name: string, patch: Partial<ServiceStatus> = {}): ServiceStatus {
  return {
    name,
    url: null,
    managed: false,
    encoding: 'json',
    state: 'up',
    error: null,
    version: '',
    description: '',
    types: [],
    containers: [],
    restarts: 0,
    pid: null,
    issues: [],
    ...patch,
  };
}

const MEMORY = {
  id: 'gw_memory',
  label: 'Gridworld memory',
  states: { visits: { type: 'counter', value_type: 'INT' }, last_pos: { lifetime: 'episode' } },
};
const REPORT: ServicesReport = {
  services: [
    status('gridworld', { types: ['gridworld__env_step'], containers: [MEMORY] }),
    status('other', { containers: [{ id: 'other_mem', states: {} }] }),
  ],
  config_errors: [],
  executor_url: null,
};

function graph() {
  const g = emptyGraph('g');
  g.nodes = [{ id: 'env', type: 'gridworld__env_step', label: 'env', position: { x: 0, y: 0 }, config: {} }];
  return g;
}

afterEach(() => {
  cleanup();
  runStore.setState(initialRunState());
});

describe('service-owned containers', () => {
  it('are those of the services the graph uses, with slots filled with defaults', () => {
    const catalog = makeCatalog(BUILTIN_NODE_SPECS);
    expect(servicesUsedBy(graph(), catalog, REPORT)).toEqual(['gridworld']);
    expect(ownedContainers(REPORT, ['gridworld'])).toEqual([
      {
        service: 'gridworld',
        id: 'gw_memory',
        label: 'Gridworld memory',
        slots: [
          { name: 'visits', type: 'counter', value_type: 'INT', lifetime: 'forever' },
          { name: 'last_pos', type: 'lastWrite', value_type: 'ANY', lifetime: 'episode' },
        ],
      },
    ]);
  });

  it('show in the State panel read-only with the service as owner, live values from nav_step, listed once', () => {
    editorStore.setState({ tabs: [], activeTabId: null, services: REPORT });
    editorStore.getState().openTab({ graph: graph() });
    render(<StatePanel />);
    const box = screen.getByTestId('service-container-gw_memory');
    expect(box.dataset.owner).toBe('gridworld');
    expect(box.textContent).toContain('read-only');
    const tag = box.querySelector('[data-testid="owner-tag"]')!;
    expect(tag.textContent).toBe('gridworld');
    expect(tag.className).toContain('text-indigo-300');
    expect(screen.queryByTestId('service-container-other_mem')).toBeNull();
    expect(screen.getByTestId('live-value-gw_memory-visits').textContent).toBe('—');

    act(() =>
      runStore.setState({
        containers: {
          gw_memory: {
            label: 'Gridworld memory',
            owner: 'gridworld',
            states: { visits: { type: 'counter', value_type: 'INT', lifetime: 'forever', value: 3 } },
          },
        },
      }),
    );
    expect(screen.getByTestId('live-value-gw_memory-visits').textContent).toBe('3');
    // Not repeated as a "live only" container.
    expect(screen.queryByTestId('live-container-gw_memory')).toBeNull();
  });
});

describe('State panel', () => {
  it('shows an empty container as its title line alone, a container with slots as a table', () => {
    const g = emptyGraph('g');
    g.containers = [
      { id: 'empty', label: 'Empty', position: { x: 0, y: 0 }, states: {} },
      {
        id: 'mem',
        label: 'Mem',
        position: { x: 0, y: 0 },
        states: {
          notes: { type: 'accumulator', value_type: 'TEXT', config: {}, lifetime: 'forever', reset_on: [] },
        },
      },
    ];
    editorStore.setState({ tabs: [], activeTabId: null });
    editorStore.getState().openTab({ graph: g });
    render(<StatePanel />);
    const panel = screen.getByTestId('state-panel');
    expect(panel.textContent).toContain('Empty0 states');
    expect(panel.querySelectorAll('table')).toHaveLength(1);
    expect(screen.getByTestId('state-row-mem-notes').textContent).toContain('accumulator');
  });
});
