import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls: string[] = [];
vi.mock('../run/run.actions.ts', () => {
  const rec = (name: string) => () => {
    calls.push(name);
    return Promise.resolve();
  };
  return {
    play: rec('play'),
    pause: rec('pause'),
    stepOnce: rec('step'),
    stop: rec('stop'),
    reset: rec('reset'),
    runIsOfActiveTab: () => true,
  };
});

const { RUN_COMMANDS, togglePlayPause } = await import('./runCommands.ts');
const { runStore, initialRunState } = await import('../run/run.store.ts');
const { editorStore } = await import('../store/editor.store.ts');

const cmd = (id: string) => RUN_COMMANDS.find((c) => c.id === id)!;
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('run commands', () => {
  beforeEach(() => {
    calls.length = 0;
    runStore.setState(initialRunState());
  });

  it('Space pauses a running run and plays otherwise', async () => {
    runStore.setState({ status: 'running', runId: 'r1' });
    togglePlayPause();
    await settle();
    runStore.setState({ status: 'paused' });
    togglePlayPause();
    await settle();
    runStore.setState({ status: null });
    togglePlayPause();
    await settle();
    expect(calls).toEqual(['pause', 'play', 'play']);
  });

  it('does nothing while a run is starting (no second run)', async () => {
    runStore.setState({ status: 'starting' });
    togglePlayPause();
    cmd('run.step').run();
    await settle();
    expect(calls).toEqual([]);
  });

  it('refuses a command the run state does not allow, with a toast', async () => {
    cmd('run.pause').run();
    cmd('run.resume').run();
    cmd('run.stop').run();
    await settle();
    expect(calls).toEqual([]);
    expect(editorStore.getState().toast?.message).toBe('no live run to stop');
    runStore.setState({ status: 'paused', runId: 'r1' });
    cmd('run.resume').run();
    await settle();
    cmd('run.step').run();
    await settle();
    cmd('run.stop').run();
    await settle();
    expect(calls).toEqual(['play', 'step', 'stop']);
  });
});
