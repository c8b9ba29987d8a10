// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { HANDLERS } from '../live/handlers.ts';
import { ev, navStep } from '../live/testEvents.testutil.ts';
import { LiveSlotValue } from './LiveSlotValue.tsx';
import { initialRunState, runStore } from './run.store.ts';

afterEach(() => {
  cleanup();
  runStore.setState(initialRunState());
});

describe('LiveSlotValue', () => {
  it('shows the placeholder until a run sends values, then the live value line', () => {
    render(<LiveSlotValue containerId="graph_state" slot="step_count" placeholder="—" />);
    const el = screen.getByTestId('live-value-graph_state-step_count');
    expect(el.textContent).toBe('—');
    act(() => HANDLERS.nav_step(navStep(1, 1, 5), runStore));
    expect(el.textContent).toBe('5');
    act(() => HANDLERS.nav_step(navStep(2, 2, 6), runStore));
    expect(el.textContent).toBe('6');
  });

  it('uses N items for sized slots', () => {
    render(<LiveSlotValue containerId="graph_state" slot="visited" />);
    act(() => HANDLERS.nav_step(navStep(1, 1, 3), runStore));
    expect(screen.getByTestId('live-value-graph_state-visited').textContent).toBe('3 items');
  });

  it('flashes "cleared by <signal>" when a lifetime signal clears the slot', () => {
    render(<LiveSlotValue containerId="graph_state" slot="last_obs" />);
    expect(screen.queryByTestId('cleared-badge')).toBeNull();
    act(() =>
      HANDLERS.signal(
        ev('signal', 3, {
          signal: 'step_end',
          scope: 'loop',
          payload: { step: 1 },
          cleared: [{ container: 'graph_state', slot: 'last_obs' }],
        }),
        runStore,
      ),
    );
    expect(screen.getByTestId('cleared-badge').textContent).toBe('cleared by step_end');
    // The badge lingers after the clear, so its tooltip names the step it happened at.
    expect(screen.getByTestId('cleared-badge').title).toBe(
      'this slot was cleared by the step_end signal at step 1',
    );
  });

  it('while a step is inspected it shows that step, marked as inspecting', () => {
    render(<LiveSlotValue containerId="graph_state" slot="step_count" />);
    act(() => {
      HANDLERS.nav_step(navStep(1, 1, 1), runStore);
      HANDLERS.nav_step(navStep(2, 2, 2), runStore);
      runStore.setState({ inspectedStep: 1 });
    });
    const el = screen.getByTestId('live-value-graph_state-step_count');
    expect(el.textContent).toBe('1');
    expect(el.dataset.inspecting).toBe('true');
  });

  it('values of a run of another tab are not shown', () => {
    runStore.setState({ tabId: 'some-other-tab' });
    render(<LiveSlotValue containerId="graph_state" slot="step_count" placeholder="—" />);
    act(() => HANDLERS.nav_step(navStep(1, 1, 9), runStore));
    expect(screen.getByTestId('live-value-graph_state-step_count').textContent).toBe('—');
  });
});
