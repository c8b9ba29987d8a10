// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { HANDLERS } from '../live/handlers.ts';
import { RUN, navStep } from '../live/testEvents.testutil.ts';
import { LiveSlotValue } from '../run/LiveSlotValue.tsx';
import { initialRunState, runStore } from '../run/run.store.ts';
import { closeViewer, openSlot, slotViewValue, viewerStore } from './viewer.store.ts';

afterEach(() => {
  cleanup();
  closeViewer();
  vi.unstubAllGlobals();
  runStore.setState(initialRunState());
});

const fullState = {
  step: 2,
  containers: {
    graph_state: {
      label: 'Blackboard',
      owner: 'home',
      states: { visited: { type: 'union', value_type: 'ANY', lifetime: 'episode', value: ['a', 'b'] } },
    },
  },
  nodeStates: {},
};

describe('opening a slot in the value viewer', () => {
  it('fetches the full value of the shown step (the live one may be a preview)', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(fullState), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    act(() => HANDLERS.nav_step(navStep(1, 2, 2), runStore));
    runStore.setState({ runId: RUN });
    await openSlot('graph_state', 'visited');
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toBe(`/api/runs/${RUN}/state?step=2`);
    expect(viewerStore.getState()).toMatchObject({
      open: true,
      title: 'graph_state.visited',
      status: 'ready',
      value: ['a', 'b'],
      note: 'step 2 · full value',
    });
  });

  it('falls back to the streamed value, and says so, when the server cannot answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"error":{"message":"gone"}}', { status: 404 })),
    );
    act(() => HANDLERS.nav_step(navStep(1, 3, 7), runStore));
    runStore.setState({ runId: RUN });
    await openSlot('graph_state', 'step_count');
    const s = viewerStore.getState();
    expect(s.value).toBe(7);
    expect(s.note).toMatch(/streamed value, the full one is unavailable .*gone/);
  });

  it('opens from the value cell: the ⤢ button and a double-click', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(fullState), { status: 200 })),
    );
    render(<LiveSlotValue containerId="graph_state" slot="visited" />);
    expect(screen.queryByTestId('open-value-graph_state-visited')).toBeNull(); // nothing to open yet
    act(() => HANDLERS.nav_step(navStep(1, 2, 2), runStore));
    runStore.setState({ runId: RUN });
    await act(async () => fireEvent.click(screen.getByTestId('open-value-graph_state-visited')));
    expect(viewerStore.getState()).toMatchObject({ open: true, value: ['a', 'b'] });
    closeViewer();
    await act(async () => fireEvent.doubleClick(screen.getByTestId('live-value-graph_state-visited')));
    expect(viewerStore.getState().open).toBe(true);
  });

  it('shows keyed slots as their partitions', () => {
    expect(
      slotViewValue({
        type: 'accumulator',
        value_type: 'ANY',
        lifetime: 'run',
        value: [],
        keyed: { '1': [1] },
      }),
    ).toEqual({ '1': [1] });
    expect(slotViewValue({ type: 'lastWrite', value_type: 'ANY', lifetime: 'run', value: 3 })).toBe(3);
  });
});
