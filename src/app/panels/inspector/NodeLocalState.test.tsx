// @vitest-environment happy-dom
// The node inspector shows the selected node's local state from the run store: live as nav_steps
// arrive, the inspected step's (full values from REST) while the timeline inspects one, and nothing
// for a stateless node or a run that belongs to another tab.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { emptyGraph } from '../../../domain/graph/graph.schema.ts';
import { HANDLERS } from '../../live/handlers.ts';
import { navStep } from '../../live/testEvents.testutil.ts';
import { inspect } from '../../run/run.actions.ts';
import { initialRunState, runStore } from '../../run/run.store.ts';
import { editorStore } from '../../store/editor.store.ts';
import { NodeInspector } from './NodeInspector.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  runStore.setState(initialRunState());
});

function open(): string {
  const g = emptyGraph('t');
  g.nodes = [
    { id: 'env', type: 'gridEnv', label: 'Grid Env', position: { x: 0, y: 0 }, config: {} },
    { id: 'view', type: 'textViewer', label: 'View', position: { x: 0, y: 0 }, config: {} },
  ];
  editorStore.setState({ tabs: [], activeTabId: null });
  return editorStore.getState().openTab({ graph: g });
}

const step = (seq: number, n: number, env: unknown) =>
  act(() => HANDLERS.nav_step(navStep(seq, n, n, { nodeStates: { env } }), runStore));
const shownValue = () => JSON.parse(screen.getByTestId('node-local-state-value').textContent!) as unknown;

describe('node inspector: local state', () => {
  it('shows the live local state during a run and follows each step', () => {
    const tabId = open();
    runStore.setState({ runId: 'run_1', tabId, status: 'running' });
    render(<NodeInspector id="env" />);
    expect(screen.queryByTestId('node-local-state')).toBeNull(); // no step yet
    step(1, 1, { episode: 1, t: 0 });
    expect(shownValue()).toEqual({ episode: 1, t: 0 });
    expect(screen.getByTestId('node-local-state-step').textContent).toBe('live · step 1');
    step(2, 2, { episode: 1, t: 1 });
    expect(shownValue()).toEqual({ episode: 1, t: 1 });
    expect(screen.getByTestId('node-local-state-step').textContent).toBe('live · step 2');
  });

  it('shows the inspected step’s local state (full value once fetched), then live again', async () => {
    const tabId = open();
    const fetchMock = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ step: 1, containers: {}, nodeStates: { env: { episode: 1, t: 0, full: true } } }),
          {
            status: 200,
          },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
    runStore.setState({ runId: 'run_1', tabId, status: 'paused' });
    render(<NodeInspector id="env" />);
    step(1, 1, { episode: 1, t: 0 });
    step(2, 2, { episode: 1, t: 1 });
    await act(() => inspect(1));
    expect(fetchMock).toHaveBeenCalledWith('/api/runs/run_1/state?step=1', expect.anything());
    expect(shownValue()).toEqual({ episode: 1, t: 0, full: true });
    expect(screen.getByTestId('node-local-state-step').textContent).toBe('inspected step 1');
    await act(() => inspect(null));
    expect(shownValue()).toEqual({ episode: 1, t: 1 });
  });

  it('shows nothing for a node without local state, or for a run of another tab', () => {
    const tabId = open();
    runStore.setState({ runId: 'run_1', tabId, status: 'running' });
    const { unmount } = render(<NodeInspector id="view" />);
    step(1, 1, { episode: 1, t: 0 });
    expect(screen.getByTestId('node-inspector')).toBeTruthy();
    expect(screen.queryByTestId('node-local-state')).toBeNull();
    unmount();
    runStore.setState({ tabId: 'another-tab' });
    render(<NodeInspector id="env" />);
    expect(screen.queryByTestId('node-local-state')).toBeNull();
  });
});
