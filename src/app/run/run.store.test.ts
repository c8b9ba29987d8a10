import { describe, expect, it } from 'vitest';
import { navStep } from '../live/testEvents.testutil.ts';
import { HANDLERS } from '../live/handlers.ts';
import { createRunStore, initialRunState, isActive, viewContainers, withStep } from './run.store.ts';
import { slotLine } from './slotLine.ts';
import { statusView, toolbarModel } from './toolbarModel.ts';

describe('run store', () => {
  it('withStep keeps steps ascending and unique', () => {
    expect(withStep([], 1)).toEqual([1]);
    expect(withStep([1, 2], 3)).toEqual([1, 2, 3]);
    expect(withStep([1, 3], 2)).toEqual([1, 2, 3]);
    const same = [1, 2];
    expect(withStep(same, 2)).toBe(same);
  });

  it('viewContainers shows live values, the inspected step preview, then its full values once fetched', () => {
    const store = createRunStore();
    HANDLERS.nav_step(navStep(1, 1, 1), store);
    HANDLERS.nav_step(navStep(2, 2, 2), store);
    const count = () => viewContainers(store.getState()).graph_state?.states.step_count?.value;
    expect(count()).toBe(2);
    store.setState({ inspectedStep: 1 });
    expect(count()).toBe(1);
    const full = {
      graph_state: {
        label: 'B',
        owner: 'home',
        states: { step_count: { type: 'counter', value_type: 'ANY', lifetime: 'run', value: 101 } },
      },
    };
    store.setState({ inspected: { step: 1, containers: full, nodeStates: {} } });
    expect(count()).toBe(101);
    // A full-value fetch for another step is not shown for this one.
    store.setState({ inspectedStep: 2 });
    expect(count()).toBe(2);
  });

  it('initial state is empty and not active', () => {
    const s = initialRunState();
    expect(s.runId).toBeNull();
    expect(s.steps).toEqual([]);
    expect(isActive(s.status)).toBe(false);
    expect(isActive('paused')).toBe(true);
  });
});

describe('toolbar state machine', () => {
  it('idle: Play and Step enabled, Pause/Stop/Reset disabled', () => {
    expect(toolbarModel(null)).toEqual({
      play: true,
      playLabel: 'Play',
      pause: false,
      step: true,
      stop: false,
      reset: false,
    });
  });
  it('running: only Pause, Stop and Reset', () => {
    expect(toolbarModel('running')).toEqual({
      play: false,
      playLabel: 'Play',
      pause: true,
      step: false,
      stop: true,
      reset: true,
    });
  });
  it('paused: Play becomes Resume, Step works, Stop and Reset too', () => {
    expect(toolbarModel('paused')).toEqual({
      play: true,
      playLabel: 'Resume',
      pause: false,
      step: true,
      stop: true,
      reset: true,
    });
  });
  it('done / error / stopped: a new run can start; nothing to stop', () => {
    for (const s of ['done', 'error', 'stopped', 'interrupted'] as const) {
      expect(toolbarModel(s)).toMatchObject({
        play: true,
        playLabel: 'Play',
        pause: false,
        stop: false,
        reset: true,
      });
    }
  });
  it('while a request is in flight every button waits', () => {
    const m = toolbarModel('paused', true);
    expect([m.play, m.pause, m.step, m.stop, m.reset]).toEqual([false, false, false, false, false]);
  });
  it('a run of another tab: Play and Step start a new run here, even while that one runs', () => {
    expect(toolbarModel('paused', false, true)).toMatchObject({
      play: true,
      playLabel: 'Play',
      step: true,
      stop: true,
    });
    expect(toolbarModel('running', false, true)).toMatchObject({ play: true, pause: true, step: true });
  });
  it('status text', () => {
    expect(statusView(null).text).toBe('idle');
    expect(statusView('paused').text).toBe('paused');
  });
});

describe('slotLine (docs/reference-system.md §3.8: N items / value / preview)', () => {
  const base = { type: 'lastWrite', value_type: 'ANY', lifetime: 'forever' };
  it('size wins', () =>
    expect(slotLine({ ...base, size: 3, value: [1, 2, 3], preview: '[1,2,3]' })).toBe('3 items'));
  it('one item is singular', () => expect(slotLine({ ...base, size: 1 })).toBe('1 item'));
  it('then value', () => expect(slotLine({ ...base, value: 7, preview: '7' })).toBe('7'));
  it('strings are quoted so "" and null differ', () => {
    expect(slotLine({ ...base, value: '' })).toBe('""');
    expect(slotLine({ ...base, value: null })).toBe('null');
  });
  it('then preview, cut to 60 chars', () => {
    const line = slotLine({ ...base, preview: 'x'.repeat(100) });
    expect(line).toHaveLength(60);
    expect(line?.endsWith('…')).toBe(true);
  });
  it('keyed slots say how many keys', () =>
    expect(slotLine({ ...base, keys: 2, size: 4 })).toBe('2 keys · 4 items'));
  it('nothing known: null', () => expect(slotLine(undefined)).toBeNull());
});
