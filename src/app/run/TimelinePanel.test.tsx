// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { HANDLERS } from '../live/handlers.ts';
import { countWrite, episodeReset as reset, ev, navStep } from '../live/testEvents.testutil.ts';
import { applyBatch } from '../live/handlers.ts';
import { episodeViewStore } from '../episodes/episodeView.store.ts';
import { initialRunState, runStore } from './run.store.ts';
import { TimelinePanel } from './TimelinePanel.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  runStore.setState(initialRunState());
  episodeViewStore.setState({ open: false, tab: 'compare', series: null, episodeA: 1, episodeB: 2 });
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
      HANDLERS.state_written(countWrite(1, 1), runStore);
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

  it('bands the ticks by episode and labels each tick with what its step did', () => {
    runStore.setState({ runId: 'r1', status: 'done' });
    render(<TimelinePanel />);
    act(() =>
      applyBatch(
        [
          reset(1, 1),
          countWrite(2, 1),
          ev('signal', 3, {
            signal: 'step_end',
            scope: 'loop_in',
            payload: { step: 1 },
            cleared: [{ container: 'graph_state', slot: 'last_obs' }],
          }),
          navStep(4, 1, 1),
          navStep(5, 2, 2),
          reset(6, 2),
          navStep(7, 3, 3),
        ],
        runStore,
      ),
    );
    expect(screen.getByTestId('timeline-band-1').dataset.first).toBe('1');
    expect(screen.getByTestId('timeline-band-1').dataset.last).toBe('2');
    expect(screen.getByTestId('timeline-band-2').textContent).toContain('ep 2');
    expect(screen.getByTestId('timeline-tick-1').title).toBe(
      'step 1 · episode 1 · 1 write · cleared last_obs · signal episode_reset',
    );
    expect(screen.getByTestId('timeline-tick-3').title).toBe(
      'step 3 · episode 2 · 0 writes · signal episode_reset',
    );
    expect(screen.getByTestId('timeline-tick-3').dataset.signal).toBe('true');
    expect(screen.getByTestId('timeline-tick-2').dataset.signal).toBe('false');
  });

  it('without episode_reset there are no bands and labels name no episode', () => {
    runStore.setState({ runId: 'r1', status: 'done' });
    render(<TimelinePanel />);
    act(() => applyBatch([navStep(1, 1, 1), navStep(2, 2, 2)], runStore));
    expect(screen.queryByTestId('timeline-band-1')).toBeNull();
    expect(screen.getByTestId('timeline-tick-2').title).toBe('step 2 · 0 writes');
  });

  it('Episodes › Compare puts step i of episode A beside step i of episode B', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 500 }));
    vi.stubGlobal('fetch', fetchMock);
    runStore.setState({ runId: 'r1', status: 'done' });
    render(<TimelinePanel />);
    // Episode 1 = steps 1–3 (step_count 1, 2, 3), episode 2 = steps 4–5 (10, 20).
    act(() =>
      applyBatch(
        [
          reset(1, 1),
          navStep(2, 1, 1),
          navStep(3, 2, 2),
          navStep(4, 3, 3),
          reset(5, 2),
          navStep(6, 4, 10),
          navStep(7, 5, 20),
        ],
        runStore,
      ),
    );
    await act(async () => {
      fireEvent.click(screen.getByTestId('timeline-episodes'));
    });
    expect(screen.getByTestId('episodes-view').textContent).toContain('Episodes · 2');
    await act(async () => {
      fireEvent.change(screen.getByTestId('episodes-series'), {
        target: { value: 'graph_state.step_count' },
      });
    });
    const cell = (side: 'a' | 'b', i: number) => screen.getByTestId(`episode-compare-${side}-${i}`);
    expect([0, 1, 2].map((i) => [cell('a', i).dataset.step, cell('a', i).textContent])).toEqual([
      ['1', '1'],
      ['2', '2'],
      ['3', '3'],
    ]);
    expect([0, 1, 2].map((i) => [cell('b', i).dataset.step, cell('b', i).textContent])).toEqual([
      ['4', '10'],
      ['5', '20'],
      ['', ''],
    ]);
    expect(screen.getByTestId('episode-compare-row-0').dataset.differs).toBe('true');
    // Numbers ride on the snapshots: nothing was fetched.
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
