// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { BUILTIN_NODE_SPECS } from '../../../domain/catalog/catalog.builtins.ts';
import { makeCatalog } from '../../../domain/catalog/catalog.schema.ts';
import { serviceFunctionSpec, type ServiceStatus } from '../../../domain/services/manifest.ts';
import { editorStore } from '../../store/editor.store.ts';
import { applyServicesReport, startServicesSync, type NoticeSource } from '../../services/servicesSync.ts';
import { NodeLibrary } from './NodeLibrary.tsx';

const fn = (name: string) => ({
  name,
  description: `does ${name}`,
  input_ports: [],
  output_ports: [],
  config_schema: {},
  ui_config: {},
});

function status(name: string, patch: Partial<ServiceStatus> = {}): ServiceStatus {
  return {
    name,
    url: 'http://127.0.0.1:9200',
    managed: true,
    encoding: 'msgpack',
    state: 'up',
    error: null,
    version: '0.3.1',
    description: '',
    types: [],
    containers: [],
    restarts: 0,
    pid: null,
    issues: [],
    ...patch,
  };
}

beforeEach(() => {
  editorStore
    .getState()
    .setCatalog(
      makeCatalog([
        ...BUILTIN_NODE_SPECS,
        serviceFunctionSpec('gridworld', fn('gridworld__env_step')),
        serviceFunctionSpec('gridworld', fn('gridworld__policy')),
      ]),
    );
  editorStore.setState({ services: null, log: [] });
});
afterEach(cleanup);

describe('Services in the node library', () => {
  it('groups service types per service with a health dot; other categories no longer list them', () => {
    editorStore.getState().setServices({
      services: [
        status('gridworld', { types: ['gridworld__env_step', 'gridworld__policy'] }),
        status('sim', { state: 'down', error: 'process exited with code 2: ImportError: numpy' }),
        status('slow', { state: 'starting' }),
      ],
      config_errors: [{ path: '$.services[3].command', message: 'needs the program and its arguments' }],
      executor_url: null,
    });
    render(<NodeLibrary />);
    const grid = screen.getByTestId('service-section-gridworld');
    expect(grid.textContent).toContain('Services › gridworld');
    expect(grid.querySelector('[data-testid="library-item-gridworld__env_step"]')).not.toBeNull();
    expect(screen.getAllByTestId('library-item-gridworld__env_step')).toHaveLength(1);
    expect(screen.getByTestId('service-dot-gridworld').dataset.state).toBe('up');
    expect(screen.getByTestId('service-dot-sim').dataset.state).toBe('down');
    expect(screen.getByTestId('service-dot-slow').dataset.state).toBe('starting');
    // A down service shows its last error without a click; details on click.
    expect(screen.getByTestId('service-error-sim').textContent).toBe(
      'process exited with code 2: ImportError: numpy',
    );
    fireEvent.click(screen.getByTestId('service-section-sim').querySelector('button')!);
    expect(screen.getByTestId('service-details-sim').textContent).toContain('version 0.3.1');
    expect(screen.getByTestId('service-details-sim').textContent).toContain('last error: process exited');
    expect(screen.getByTestId('services-config-error').textContent).toBe(
      '$.services[3].command needs the program and its arguments',
    );
    expect(screen.getByTestId('reload-services')).toBeTruthy();
  });

  it('details of a service started by hand: the executor URL it needs, and the manifest parts left out', () => {
    const issue = {
      path: '$.functions[1].input_ports[0].name',
      message: "service 'eqa' function 'eqa__broken': function skipped: Invalid input",
      function: 'eqa__broken',
    };
    editorStore.getState().setServices({
      services: [status('eqa', { managed: false, issues: [issue] }), status('sim')],
      config_errors: [],
      executor_url: 'http://127.0.0.1:5177',
    });
    render(<NodeLibrary />);
    fireEvent.click(screen.getByTestId('service-section-eqa').querySelector('button')!);
    expect(screen.getByTestId('service-executor-eqa').textContent).toBe(
      'start it with AGENTCANVAS_EXECUTOR_URL=http://127.0.0.1:5177',
    );
    expect(screen.getByTestId('service-details-eqa').textContent).toContain(
      "function 'eqa__broken': function skipped: Invalid input ($.functions[1].input_ports[0].name)",
    );
    // A service Statewire starts gets the URL itself.
    fireEvent.click(screen.getByTestId('service-section-sim').querySelector('button')!);
    expect(screen.queryByTestId('service-executor-sim')).toBeNull();
  });

  it('searching shows only services with matching types', () => {
    editorStore
      .getState()
      .setServices({ services: [status('gridworld'), status('sim')], config_errors: [], executor_url: null });
    render(<NodeLibrary />);
    fireEvent.change(screen.getByTestId('library-search'), { target: { value: 'policy' } });
    expect(screen.getByTestId('service-section-gridworld')).toBeTruthy();
    expect(screen.queryByTestId('service-section-sim')).toBeNull();
    expect(screen.queryByTestId('library-item-gridworld__env_step')).toBeNull();
  });

  it('follows services_changed notices; a bad report is logged with its path and changes nothing', () => {
    const handlers = new Map<string, (d: unknown) => void>();
    const notices: NoticeSource = { onNotice: (type, f) => void handlers.set(type, f) };
    startServicesSync(editorStore, notices);
    expect([...handlers.keys()].sort()).toEqual([
      'components_changed',
      'connect',
      'services_changed',
      'services_waiting',
    ]);
    render(<NodeLibrary />);
    act(() =>
      handlers.get('services_changed')!({
        services: [status('gridworld', { state: 'starting' })],
        config_errors: [],
        executor_url: null,
      }),
    );
    expect(screen.getByTestId('service-dot-gridworld').dataset.state).toBe('starting');
    act(() =>
      handlers.get('services_changed')!({
        services: [status('gridworld', { state: 'down' })],
        config_errors: [],
        executor_url: null,
      }),
    );
    expect(screen.getByTestId('service-dot-gridworld').dataset.state).toBe('down');
    // A run waiting for a starting service says so in a toast and the editor log.
    act(() => handlers.get('services_waiting')!({ graph_name: 'demo', services: ['gridworld'] }));
    expect(editorStore.getState().log.at(-1)?.message).toBe(
      "Run 'demo' waits for node service 'gridworld' (starting)…",
    );

    expect(
      applyServicesReport({ services: [{ name: 'x', state: 'sideways' }] }, editorStore, 'a test'),
    ).toBeNull();
    expect(screen.getByTestId('service-dot-gridworld').dataset.state).toBe('down');
    expect(editorStore.getState().log.at(-1)?.message).toMatch(
      /^ignored a bad services report from a test at \$\.services\.0\./,
    );
  });
});
