// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { HANDLERS } from '../live/handlers.ts';
import { ev, navStep } from '../live/testEvents.testutil.ts';
import { initialRunState, runStore } from './run.store.ts';
import { TimelinePanel } from './TimelinePanel.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  runStore.setState(initialRunState());
});

describe('TimelinePanel', () => {
  it('says how to start when there is no run', () => {
    render(<TimelinePanel />);
    expect(screen.getByTestId('timeline-panel').textContent).toMatch(/Press Play/);
  });

  it('renders a followed run with no steps yet (stable selectors, no render loop)', () => {
    runStore.setState({ runId: 'r1', status: 'paused' });
    render(<TimelinePanel />);
    expect(screen.getByTestId('timeline-count').textContent).toBe('0 steps');
  });

  it('one tick per step; a click inspects that step and fetches its full values', async () => {
    const { containers } = navStep(0, 1, 1).data as { containers: unknown };
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ step: 1, containers, nodeStates: { env: { t: 0 } } }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    runStore.setState({ runId: 'r1', status: 'paused' });
    render(<TimelinePanel />);
    act(() => {
      HANDLERS.state_written(
        ev('state_written', 1, {
          node_id: 'policy',
          container: 'graph_state',
          slot: 'step_count',
          reducer: 'counter',
          step: 1,
          before: 0,
          after: 1,
        }),
        runStore,
      );
      HANDLERS.nav_step(navStep(2, 1, 1), runStore);
      HANDLERS.nav_step(navStep(3, 2, 2), runStore);
    });
    expect(screen.getByTestId('timeline-count').textContent).toBe('2 steps');
    expect(screen.getByTestId('timeline-tick-2').dataset.selected).toBe('false');
    await act(async () => {
      fireEvent.click(screen.getByTestId('timeline-tick-1'));
    });
    expect(runStore.getState().inspectedStep).toBe(1);
    expect(fetchMock).toHaveBeenCalledWith('/api/runs/r1/state?step=1', expect.anything());
    expect(screen.getByTestId('timeline-selected').textContent).toBe('inspecting step 1');
    expect(screen.getByTestId('timeline-changes').textContent).toContain('policy → graph_state.step_count');
    expect(screen.getByTestId('timeline-values').dataset.full).toBe('true');
    expect(screen.getByTestId('timeline-values').textContent).toContain('node env');
    // Arrow keys walk the timeline; Escape goes back to live.
    await act(async () => {
      fireEvent.keyDown(screen.getByTestId('timeline-ticks'), { key: 'ArrowRight' });
    });
    expect(runStore.getState().inspectedStep).toBe(2);
    await act(async () => {
      fireEvent.keyDown(screen.getByTestId('timeline-ticks'), { key: 'ArrowRight' });
    });
    expect(runStore.getState().inspectedStep).toBe(2);
    await act(async () => {
      fireEvent.keyDown(screen.getByTestId('timeline-ticks'), { key: 'Escape' });
    });
    expect(runStore.getState().inspectedStep).toBeNull();
  });
});
